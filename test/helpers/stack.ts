// Calls made near the end of the call stack: for code that must behave the same however deep it is called.

/** What {@link nearStackEnd}'s `outcome` gives for a call that overflowed the stack. */
export const OVERFLOW = "overflow";

/**
 * `run` called `frames` calls down (`outcome`: its value, or OVERFLOW when a RangeError came out), and
 * `limit`, the fewest frames from which the call overflows. Frames shrink once the JIT has compiled the
 * recursion, so it is warmed first; then `limit` is found by bisection.
 */
export function nearStackEnd(run: () => unknown): { outcome: (frames: number) => unknown; limit: number } {
  const deeper = (frames: number): unknown => (frames === 0 ? run() : deeper(frames - 1));
  const outcome = (frames: number): unknown => {
    try {
      return deeper(frames);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return OVERFLOW;
    }
  };
  for (let i = 0; i < 20; i++) deeper(2000);
  let low = 0;
  let high = 1_000_000;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (outcome(mid) === OVERFLOW) high = mid;
    else low = mid + 1;
  }
  return { outcome, limit: low };
}
