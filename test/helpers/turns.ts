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
