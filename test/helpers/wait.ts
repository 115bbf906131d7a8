// Waiting in a test for what callbacks report: a check run again on each wake(), failing after a limit.

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
