// Timing helpers of the benchmark: one sample per case per round, medians, child processes for what needs a fresh one.
import { spawnSync } from "node:child_process";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

/**
 * Garbage-collection pauses (start and duration, ms) seen while a timed case is open, read and cleared by
 * {@link gcPauses}; none are kept outside a case (the live-skills part of the bench times no case).
 */
let pauses = [];
let open = false;
new PerformanceObserver((list) => {
  if (open) for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
}).observe({ entryTypes: ["gc"] });

/**
 * Milliseconds of the main thread's GC pauses that began between `from` and `to`: what a case paid the
 * collector. The observer is told of a pause a moment after it, so this waits for a timer first.
 */
async function gcPauses(from, to) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  const ms = pauses.filter(([start]) => start >= from && start <= to).reduce((sum, [, d]) => sum + d, 0);
  pauses = [];
  open = false;
  return ms;
}

/**
 * Collect garbage when the process allows it, then pause while the collector's background threads
 * (sweeping) finish: no case pays for the garbage of the one before it.
 */
export async function settle() {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Milliseconds `fn` takes (awaited when it returns a promise) and the GC pauses within them, with what it returned. */
export async function timed(fn) {
  await settle();
  open = true;
  const start = performance.now();
  const value = await fn();
  const end = performance.now();
  return { ms: end - start, value, gcMs: await gcPauses(start, end) };
}

/** Like {@link timed}, also giving the longest event-loop block, in ms, while `fn` ran. */
export async function timedWithLoop(fn) {
  await settle();
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  open = true;
  const start = performance.now();
  const value = await fn();
  const end = performance.now();
  // One more turn lets the histogram see the last stretch of work.
  await new Promise((resolve) => setTimeout(resolve, 2));
  h.disable();
  return { ms: end - start, value, blockMs: h.max / 1e6, gcMs: await gcPauses(start, end) };
}

/** Per-call time of `fn`, in nanoseconds, over `calls` calls. */
export function perCall(fn, calls) {
  globalThis.gc?.();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / calls;
}

/** The median of some numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Wall time of running node with `args`, in ms; throws when it fails. */
export function nodeRun(args, options = {}) {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", ...options });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Milliseconds a synchronous `fn` takes, nothing else: for scripts that settle and order cases themselves. */
export function timeSync(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** The integer an option `name` gives as `text`, at least `min`; anything else throws, naming the option. */
export function integerOption(name, text, min = 1) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${text}`);
  return n;
}
