// src/fsx.ts at its edges, on the module's own exports: entry order and types, what stat and lstat call
// each kind of node, the errno policy on non-fs errors, bounded reads of unusual files, the turn op and
// the async driver's turn budget, and the watch block's seam names and handle options.
import { execFileSync } from "node:child_process";
import type { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  fsCode,
  isDirectory,
  lstat,
  MAX_MANIFEST_BYTES,
  readdir,
  readdirAsync,
  readdirSync,
  readlinkAsync,
  readManifest,
  realpathAsync,
  runAsync,
  runSync,
  setFaultHook,
  stat,
  watchPath,
} from "../src/fsx.js";
import { tempDir, writeTree } from "./helpers/fixture.js";
import { leaveTurnReal } from "./helpers/turns.js";

afterEach(() => {
  setFaultHook(null);
  vi.restoreAllMocks();
});

/** Record the seam's op names from now on. */
function recordOps(): string[] {
  const ops: string[] = [];
  setFaultHook((op) => {
    ops.push(op);
  });
  return ops;
}

/** A listening UNIX socket at `at` (a node that is neither file, directory nor link); close it after. */
async function socketAt(at: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(at, resolve));
  return server;
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("directory entries", () => {
  // Node's readdir (libuv's scandir) already sorts, by UTF-8 bytes; code-unit order differs from it
  // between U+E000..U+FFFF and the astral planes (a surrogate pair sorts first). 300 distinct names
  // mixing both, so that only our sort gives the expected order, and enough of them that the sort merges
  // runs, where a comparator that answers 0 for "greater" is caught.
  const specials = ["\u{FF61}", "\u{1F600}", "\u{E000}", "\u{10400}", "z"];
  const names = Array.from(
    { length: 300 },
    (_, i) => `${"abc"[i % 3]}${specials[(i * 7) % specials.length]}${(i * 7919) % 10007}`,
  );
  const sorted = [...names].sort();

  test("every listing is in code-unit order whatever the OS gives", async () => {
    const dir = writeTree(Object.fromEntries(names.map((n) => [n, ""])));
    expect(new Set(names).size).toBe(300);
    expect(sorted).not.toEqual(fs.readdirSync(dir));
    expect(readdirSync(dir).map((e) => e.name)).toEqual(sorted);
    expect(runSync(readdir(dir)).map((e) => e.name)).toEqual(sorted);
    expect((await runAsync(readdir(dir))).map((e) => e.name)).toEqual(sorted);
    expect((await readdirAsync(dir)).map((e) => e.name)).toEqual(sorted);
  });

  test("two entries in reverse creation order come out sorted", () => {
    const dir = writeTree({ b: "", a: "" });
    expect(readdirSync(dir)).toEqual([
      { name: "a", type: "file" },
      { name: "b", type: "file" },
    ]);
  });

  test("a file, a directory, a symlink and a socket are file, dir, symlink and other", async () => {
    const dir = writeTree({ f: "x", d: { dir: true }, l: { symlink: "f" } });
    const server = await socketAt(path.join(dir, "s"));
    try {
      const expected = [
        { name: "d", type: "dir" },
        { name: "f", type: "file" },
        { name: "l", type: "symlink" },
        { name: "s", type: "other" },
      ];
      expect(readdirSync(dir)).toEqual(expected);
      expect(await readdirAsync(dir)).toEqual(expected);
    } finally {
      await close(server);
    }
  });
});

describe("lstat and stat name each kind of node", () => {
  test("lstat, both drivers: symlink, dir, file, other; stat follows the link", async () => {
    const dir = writeTree({ f: "x", d: { dir: true }, l: { symlink: "f" }, ld: { symlink: "d" } });
    const sock = path.join(dir, "s");
    const server = await socketAt(sock);
    try {
      const paths = ["l", "d", "f", "s"].map((n) => path.join(dir, n));
      const kinds = ["symlink", "dir", "file", "other"];
      expect(paths.map((p) => runSync(lstat(p)))).toEqual(kinds);
      expect(await Promise.all(paths.map((p) => runAsync(lstat(p))))).toEqual(kinds);
      const followed = ["l", "ld", "d", "f", "s"].map((n) => runSync(stat(path.join(dir, n))).type);
      expect(followed).toEqual(["file", "dir", "dir", "file", "other"]);
      expect((await runAsync(stat(sock))).type).toBe("other");
    } finally {
      await close(server);
    }
  });
});

describe("fsCode: only an errno code is the file system's", () => {
  const thrown = (e: unknown): unknown => {
    try {
      fsCode(e);
    } catch (caught) {
      return caught;
    }
    return "returned";
  };

  test("an errno code is returned", () => {
    expect(fsCode(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("EACCES");
  });

  test("null, an error without a code, a Node ERR_ code and a non-string code are rethrown as they are", () => {
    expect(thrown(null)).toBe(null);
    expect(thrown(undefined)).toBe(undefined);
    const plain = new TypeError("bug");
    expect(thrown(plain)).toBe(plain);
    const argument = Object.assign(new Error("bad"), { code: "ERR_INVALID_ARG_TYPE" });
    expect(thrown(argument)).toBe(argument);
    const numeric = { code: 2 };
    expect(thrown(numeric)).toBe(numeric);
  });
});

/** Far above any real wait for an fs event: only a missed one reaches it (as in the watch tests). */
const LIMIT_MS = 10_000;

describe("manifest reads at the edges", () => {
  // mknod needs root (CAP_MKNOD): run as root, as CI is, the test makes its block device or fails; an
  // unprivileged run has no block device it may open, and skips, saying so in the title.
  const asRoot = process.getuid?.() === 0;
  const blockTitle = "a block device is refused by name";
  (asRoot ? test : test.skip)(asRoot ? blockTitle : `${blockTitle} [skipped: mknod needs root]`, () => {
    const at = path.join(tempDir(), "SKILL.md");
    execFileSync("mknod", [at, "b", "7", "0"], { stdio: "pipe" });
    expect(runSync(readManifest(at, false))).toEqual({ kind: "not_regular", what: "a block device" });
  });

  test("a character device and a directory are refused by name", () => {
    expect(runSync(readManifest("/dev/null", false))).toEqual({
      kind: "not_regular",
      what: "a character device",
    });
    expect(runSync(readManifest(tempDir(), false))).toEqual({ kind: "not_regular", what: "a directory" });
  });

  test("a sparse file larger than any Buffer is too_large from fstat alone, never read", () => {
    const at = path.join(tempDir(), "SKILL.md");
    const size = 2 ** 32 + 1; // past buffer.constants.MAX_LENGTH on Node 20: a read would throw
    fs.writeFileSync(at, "");
    fs.truncateSync(at, size);
    expect(runSync(readManifest(at, true))).toEqual({ kind: "too_large", size });
  });

  test("a file whose fstat size is 0 but which holds more is read by doubling, not into a 1 MiB buffer", () => {
    // /proc files report size 0; this process's memory map is tens of KiB.
    const read = runSync(readManifest("/proc/self/maps", false));
    if (read.kind !== "ok") throw new Error(read.kind);
    expect(read.bytes.length).toBeGreaterThan(8192);
    expect(read.bytes.length).toBeLessThan(MAX_MANIFEST_BYTES);
    expect(read.bytes.buffer.byteLength).toBeLessThanOrEqual(2 * read.bytes.length);
    expect(read.bytes.toString("latin1")).toMatch(/^[0-9a-f]+-[0-9a-f]+ /);
  });
});

describe("the async driver's turn budget", () => {
  // performance.now is pinned: the budget is CPU time, and only a fixed clock makes "spent" exact.
  let now = 0;
  const pinClock = () => vi.spyOn(performance, "now").mockImplementation(() => now);

  /** Whether an in-place read of `at` at the current clock waits for the next turn of the event loop. */
  async function readWaits(at: string): Promise<boolean> {
    let checkPhasePassed = false;
    setImmediate(() => {
      checkPhasePassed = true;
    });
    return await runAsync(
      (function* () {
        yield* readManifest(at, true, true);
        return checkPhasePassed;
      })(),
    );
  }

  test("an opened manifest waits for a fresh turn once exactly the budget (4 ms) is spent", async () => {
    const at = path.join(writeTree({ "SKILL.md": "x" }), "SKILL.md");
    const clock = pinClock();
    try {
      now = 1e9;
      expect(await readWaits(at)).toBe(true); // the turn started long before: it waits, and one starts at 1e9
      expect(await readWaits(at)).toBe(false); // 0 ms spent
      now = 1e9 + 3.9;
      expect(await readWaits(at)).toBe(false); // under 4 ms spent
      now = 1e9 + 4;
      expect(await readWaits(at)).toBe(true); // 4 ms spent: waits, and a turn starts at 1e9 + 4
      expect(await readWaits(at)).toBe(false);
    } finally {
      await leaveTurnReal(clock, () => readWaits(at));
    }
  });
});

describe("the watch block", () => {
  test("each look-up passes the seam under its own watch name", async () => {
    const dir = writeTree({ f: "x", l: { symlink: "f" } });
    const ops = recordOps();
    expect(await isDirectory(dir)).toBe(true);
    expect(await readdirAsync(dir)).toEqual([
      { name: "f", type: "file" },
      { name: "l", type: "symlink" },
    ]);
    expect(await realpathAsync(path.join(dir, "l"))).toBe(path.join(dir, "f"));
    expect(await readlinkAsync(path.join(dir, "l"))).toBe("f");
    watchPath(
      dir,
      false,
      () => {},
      () => {},
    ).close();
    expect(ops).toEqual(["watchStat", "watchReaddir", "watchRealpath", "watchReadlink", "watch"]);
  });

  test("isDirectory is false, not undefined, for a file, nothing, and a fault", async () => {
    const dir = writeTree({ f: "x" });
    expect(await isDirectory(path.join(dir, "f"))).toBe(false);
    expect(await isDirectory(path.join(dir, "missing"))).toBe(false);
    setFaultHook(() => {
      throw Object.assign(new Error("EIO"), { code: "EIO" });
    });
    expect(await isDirectory(dir)).toBe(false);
  });

  test("a watch holds the event loop open only when persistent", () => {
    const dir = tempDir();
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = count();
    const loose = watchPath(
      dir,
      false,
      () => {},
      () => {},
    );
    expect(count()).toBe(before);
    const held = watchPath(
      dir,
      true,
      () => {},
      () => {},
    );
    expect(count()).toBe(before + 1);
    loose.close();
    held.close();
  });

  test("an error on an open handle goes to onLost, and an event names its entry", async () => {
    const dir = tempDir();
    const lost: unknown[] = [];
    const named: (string | null)[] = [];
    const h = watchPath(
      dir,
      false,
      (n) => named.push(n),
      (e) => lost.push(e),
    );
    try {
      // The OS gives no way to fail an inotify handle on demand: emit what Node would.
      const failure = Object.assign(new Error("EIO"), { code: "EIO" });
      (h as unknown as EventEmitter).emit("error", failure);
      expect(lost).toEqual([failure]);
      fs.writeFileSync(path.join(dir, "new.txt"), "x");
      await vi.waitFor(() => expect(named).toContain("new.txt"), { timeout: LIMIT_MS, interval: 10 });
      expect(named.every((n) => n === "new.txt")).toBe(true);
    } finally {
      h.close();
    }
  });
});
