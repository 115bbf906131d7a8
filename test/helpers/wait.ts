// Waiting in a test: for what callbacks report (a check run again on each wake(), failing after a limit),
// and past the scan's trust window.
import * as fs from "node:fs";

/** A condition waited for by callbacks. */
export interface Waiter {
  /** Run the pending check again: call it from every callback that may have made it true. */
  wake(): void;
  /** Resolve once `check()` holds (at once if it already does); reject with `failure()` after `limitMs`. */
  until(check: () => boolean, failure: () => string): Promise<void>;
}

/** A {@link Waiter} whose waits fail after `limitMs` (room for a loaded machine, not a timed assertion). */
export function waiter(limitMs: number): Waiter {
  let pending = () => {};
  return {
    wake: () => pending(),
    until: (check, failure) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(failure())), limitMs);
        pending = () => {
          if (!check()) return;
          clearTimeout(timer);
          resolve();
        };
        pending();
      }),
  };
}

/**
 * Wait until what was just written at `p` is older than the scan's trust window (100 ms; 2 s where
 * timestamps are whole seconds, a coarse file system), so the next scan vouches for its signature
 * instead of reading it again. Only ever waits past the window: load cannot make it too short.
 */
export async function pastTrustWindow(p: string): Promise<void> {
  const coarse = fs.statSync(p, { bigint: true }).mtimeNs % 1_000_000_000n === 0n;
  await new Promise((resolve) => setTimeout(resolve, coarse ? 2100 : 150));
}
