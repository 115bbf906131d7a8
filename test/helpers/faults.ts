// Fault injection through the fs module's seam: errno errors, or an action, at one exact call.
import { createHook } from "node:async_hooks";
import { setFaultHook } from "../../src/fsx.js";

/** An error shaped like the one Node's fs throws for `code` (by `op` on `p`, when the test knows them). */
export function errnoError(code: string, op = "open", p = ""): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: injected fault, ${op} '${p}'`);
  e.code = code;
  e.syscall = op;
  e.path = p;
  return e;
}

/** Throw `code` from every fs call `op` on `p`. */
export function failAt(op: string, p: string, code: string): void {
  setFaultHook((o, q) => {
    if (o === op && q === p) throw errnoError(code, o, q);
  });
}

/** Run `act` once, just before the first fs call `op` on `p` is carried out. */
export function actAt(op: string, p: string, act: () => void): void {
  let done = false;
  setFaultHook((o, q) => {
    if (done || o !== op || q !== p) return;
    done = true;
    act();
  });
}

/** Every distinct (op, path) that `run` sends through the fs module, in first-call order. */
export function callSites(run: () => unknown): [string, string][] {
  const seen = new Map<string, [string, string]>();
  setFaultHook((op, p) => {
    if (!seen.has(`${op}\0${p}`)) seen.set(`${op}\0${p}`, [op, p]);
  });
  try {
    run();
  } finally {
    setFaultHook(null);
  }
  return [...seen.values()];
}

/** Thread-pool requests Node makes while `run` runs. */
export async function poolRequests(run: () => Promise<unknown>): Promise<number> {
  let requests = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === "FSREQCALLBACK" || type === "FSREQPROMISE") requests++;
    },
  }).enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return requests;
}
