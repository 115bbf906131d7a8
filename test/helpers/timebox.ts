// Time boxes for synchronous fuzz cases: a watchdog thread ends the process when a case outlives its box.
import { Worker } from "node:worker_threads";

/**
 * A synchronous hang (a runaway loop, catastrophic regex backtracking) blocks the event loop, so no
 * timer in this thread can end it. The watchdog runs in its own thread, sees through shared memory
 * which case is running and since when, and when one outlives its box it prints the case to stderr
 * and kills the test process: vitest then reports the file as failed instead of waiting forever.
 */
const WATCHDOG = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { shared, limitMs } = workerData;
const ints = new Int32Array(shared, 0, 3);
const bytes = new Uint8Array(shared, 12);
let seen = -1;
let since = Date.now();
setInterval(() => {
  const id = Atomics.load(ints, 0);
  if (Atomics.load(ints, 1) === 0 || id !== seen) {
    seen = id;
    since = Date.now();
    return;
  }
  if (Date.now() - since < limitMs) return;
  const text = Buffer.from(bytes.slice(0, Atomics.load(ints, 2))).toString("utf8");
  fs.writeSync(2, "\\nfuzz case exceeded its time box of " + limitMs + " ms: " + text + "\\n");
  process.kill(process.pid, "SIGKILL");
}, 50);
`;

/** Room for the description of the running case. */
const DESCRIPTION_BYTES = 4096;

/** Far above any case's normal run time (milliseconds): only a hang reaches it. */
export const CASE_LIMIT_MS = 20_000;

let shared: SharedArrayBuffer | undefined;

function state(): SharedArrayBuffer {
  if (shared === undefined) {
    shared = new SharedArrayBuffer(12 + DESCRIPTION_BYTES);
    // unref: the watchdog never keeps the test process alive on its own.
    new Worker(WATCHDOG, { eval: true, workerData: { shared, limitMs: CASE_LIMIT_MS } }).unref();
  }
  return shared;
}

/** Show an input for a failure message: JSON, cut to what fits the watchdog's buffer. */
export function describeInput(input: unknown): string {
  let text: string;
  try {
    // Bytes as a JSON string of their latin1 reading: one character per byte, cheap to make.
    text =
      input instanceof Uint8Array
        ? `${input.length} bytes: ${JSON.stringify(Buffer.from(input.subarray(0, 1000)).toString("latin1"))}`
        : JSON.stringify(input);
  } catch {
    text = String(input);
  }
  return text.length > 1000 ? `${text.slice(0, 1000)}… (${text.length} characters)` : text;
}

/** Run `fn` inside a time box; `input` names the case in the watchdog's report. */
export function timeBoxed<T>(input: unknown, fn: () => T): T {
  const buffer = state();
  const ints = new Int32Array(buffer, 0, 3);
  const encoded = new TextEncoder().encode(describeInput(input)).subarray(0, DESCRIPTION_BYTES);
  new Uint8Array(buffer, 12).set(encoded);
  Atomics.store(ints, 2, encoded.length);
  Atomics.add(ints, 0, 1);
  Atomics.store(ints, 1, 1);
  try {
    return fn();
  } finally {
    Atomics.store(ints, 1, 0);
  }
}
