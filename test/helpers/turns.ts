// Counting the event loop's turns, for tests of how long the async scan holds the loop.

/** Counts the event loop's turns (its check phases) from now until `stop()`; `count()` reads the tally. */
export function countTurns(): { readonly count: () => number; readonly stop: () => void } {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    count: () => turns,
    stop: () => {
      ticking = false;
    },
  };
}

/** The real clock, taken before any test pins `performance.now`. */
const realNow = performance.now.bind(performance);

/**
 * End a test that pinned `performance.now` (`clock`) with the async driver's turn dated by the real clock,
 * for any later test sharing the fsx module (one module graph, as under Stryker): `read` makes one in-place
 * read, whose budget check (after the open's await) sees the budget spent and waits for a turn, which then
 * starts on the real clock. Restoring the clock right after starting the read was too early: the check ran
 * after the restore, found the budget unspent and left the turn dated by the pinned clock.
 */
export async function leaveTurnReal(
  clock: { mockImplementation(fn: () => number): unknown; mockRestore(): void },
  read: () => Promise<unknown>,
): Promise<void> {
  let checked = false;
  clock.mockImplementation(() => {
    if (checked) return realNow();
    checked = true;
    return Number.POSITIVE_INFINITY;
  });
  try {
    await read();
  } finally {
    clock.mockRestore();
  }
}
