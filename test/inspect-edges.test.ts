// inspect() on one skill directory, driven directly with a scan context of the test's own: the manifest
// chosen, what a failed read becomes, and the memo one scan hands the next (what it reuses, what it
// stats again, which memo object it keeps). Real files in temp dirs; a signature is made untrusted by
// moving its mtime an hour ahead, and the fs calls of a scan are read through the fault seam.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { child } from "../src/candidate.js";
import { runSync, setFaultHook } from "../src/fsx.js";
import { inspect } from "../src/inspect.js";
import {
  type Candidate,
  type Context,
  type DirMemo,
  NO_CACHE,
  type ScanCache,
  type ScanItem,
} from "../src/scancache.js";
import { parseManifest } from "../src/skill.js";
import { errnoError, failAt } from "./helpers/faults.js";
import { manifest, skill, tempDir, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

type After = readonly [number, number];

/**
 * Instants after everything written so far (a signature is settled when its change is not after them).
 * A second ahead: ctime has a fraction of a millisecond that Date.now() drops; a test changes a path
 * "after a scan" with {@link changedLater}, an hour ahead.
 */
const now = (): After => {
  const t = Date.now() + 1000;
  return [t, t];
};

interface Scan {
  readonly item: ScanItem | undefined;
  readonly memo: DirMemo | undefined;
  readonly next: ScanCache;
  readonly after: After;
}

/** One inspect of `dir` as a scan would run it, handing `previous` (a scan's `next`) in. */
function scan(
  dir: string,
  { previous = NO_CACHE, after = now(), follow = true, known = undefined as string | undefined } = {},
): Scan {
  const next = { dirs: new Map<string, DirMemo>(), roots: new Map() };
  const ctx: Context = { follow, strict: false, previous, hint: undefined, next, after, read: new Map() };
  const item = runSync(inspect(ctx, path.basename(dir), dir, known));
  return { item, memo: next.dirs.get(dir), next, after };
}

/** Every fs call (op, path) of `run` in order; `act` runs before each (and may throw a fault there). */
function traced(run: () => void, act: (op: string, p: string) => void = () => {}): [string, string][] {
  const calls: [string, string][] = [];
  setFaultHook((op, p) => {
    calls.push([op, p]);
    act(op, p);
  });
  try {
    run();
  } finally {
    setFaultHook(null);
  }
  return calls;
}

/** An act for {@link traced} that runs `fn` once, before the first call `op` on `p`. */
function once(op: string, p: string, fn: () => void): (o: string, q: string) => void {
  let done = false;
  return (o, q) => {
    if (done || o !== op || q !== p) return;
    done = true;
    fn();
  };
}

/** Make `p` look changed after any scan so far: its mtime an hour ahead. */
function changedLater(p: string): void {
  const t = Date.now() / 1000 + 3600;
  fs.utimesSync(p, t, t);
}

function candidate(item: ScanItem | undefined): Candidate {
  if (item?.kind !== "candidate") throw new Error(`expected a candidate, got ${JSON.stringify(item)}`);
  return item;
}

/** A skill directory `dir` under a fresh root holding `tree` (paths relative to the skill directory). */
function skillDir(tree: Record<string, string | { symlink: string } | { dir: true }>, name = "demo"): string {
  const root = tempDir();
  const prefixed = Object.fromEntries(Object.entries(tree).map(([k, v]) => [`${name}/${k}`, v]));
  writeTree(prefixed, root);
  return path.join(root, name);
}

describe("child", () => {
  test("joins with one separator, also under a directory that ends with one", () => {
    expect(child(`${path.sep}tmp`, "SKILL.md")).toBe(`${path.sep}tmp${path.sep}SKILL.md`);
    expect(child(path.sep, "x")).toBe(`${path.sep}x`);
    expect(child(`${path.sep}a${path.sep}`, "b")).toBe(`${path.sep}a${path.sep}b`);
  });
});

describe("the manifest chosen", () => {
  test("SKILL.md wins over a variant that sorts before it (SKILL.MD), with a warning naming both", () => {
    for (const follow of [true, false]) {
      const dir = skillDir({ "SKILL.MD": skill("upper"), "SKILL.md": skill("demo") });
      const item = candidate(scan(dir, { follow }).item);
      expect(item.path).toBe(path.join(dir, "SKILL.md"));
      expect(item.warnings).toEqual([
        {
          code: "multiple_manifests",
          message: `${dir} has several manifests (SKILL.MD, SKILL.md); using SKILL.md`,
          path: path.join(dir, "SKILL.md"),
        },
      ]);
    }
  });

  test("without SKILL.md the first variant in code-unit order wins, whatever order the listing gives", () => {
    // Sixteen spellings written in a shuffled order. Node lists a directory sorted by strcmp on POSIX
    // (libuv's scandir), which for these names is code-unit order already; the sort in list() is for
    // a platform whose listing comes in the file system's own order.
    const spellings = [
      "sKiLl.md",
      "skill.MD",
      "Skill.md",
      "skILL.md",
      "SkIlL.Md",
      "skill.md",
      "SKILl.md",
      "sKILL.md",
      "skiLL.mD",
      "SKill.md",
      "sKill.Md",
      "skIll.md",
      "SkiLL.md",
      "skilL.md",
      "SKIll.md",
      "Skill.MD",
    ];
    const dir = skillDir(Object.fromEntries(spellings.map((s) => [s, skill("demo")])));
    const sorted = [...spellings].sort();
    const item = candidate(scan(dir, { follow: true }).item);
    expect(item.path).toBe(path.join(dir, sorted[0] as string));
    expect(item.warnings.map((w) => w.message)).toEqual([
      `${dir} has several manifests (${sorted.join(", ")}); using ${sorted[0]}`,
    ]);
  });

  test("a dangling SKILL.md symlink beside other files is reported as a dangling symlink (follow)", () => {
    const dir = skillDir({ "SKILL.md": { symlink: "missing.md" }, "README.md": "read me" });
    const file = path.join(dir, "SKILL.md");
    expect(scan(dir, { follow: true }).item).toEqual({
      kind: "warning",
      warnings: [
        {
          code: "dangling_symlink",
          message: `manifest symlink ${file} points to nothing usable (ENOENT); skipped`,
          path: file,
        },
      ],
    });
  });

  test("a manifest that vanishes before its read, symlinks not followed: vanished, without an lstat", () => {
    const dir = skillDir({ "skill.md": skill("demo") });
    const file = path.join(dir, "skill.md");
    let item: ScanItem | undefined;
    const calls = traced(
      () => {
        item = scan(dir, { follow: false }).item;
      },
      once("readManifest", file, () => fs.rmSync(file)),
    );
    expect(item).toEqual({
      kind: "warning",
      warnings: [
        {
          code: "unreadable",
          message: `manifest ${file} vanished during the scan (ENOENT); skipped`,
          path: file,
        },
      ],
    });
    expect(calls).toEqual([
      ["readdir", dir],
      ["readManifest", file],
    ]);
  });
});

describe("what a read gives", () => {
  test("a valid manifest's real path is resolved when the root gave none, and taken as given when it did", () => {
    const root = writeTree({ "target/SKILL.md": skill("target"), link: { symlink: "target" } });
    const dir = path.join(root, "link");
    let item: ScanItem | undefined;
    const calls = traced(() => {
      item = scan(dir).item;
    });
    expect(candidate(item).real).toBe(path.join(root, "target"));
    expect(calls).toEqual([
      ["readdir", dir],
      ["readManifest", path.join(dir, "SKILL.md")],
      ["realpath", dir],
    ]);
    expect(candidate(scan(dir, { known: "/given" }).item).real).toBe("/given");
  });

  test("an invalid manifest keeps no real path, and none is resolved", () => {
    const dir = skillDir({ "SKILL.md": manifest("description: no name") });
    let item: ScanItem | undefined;
    const calls = traced(() => {
      item = scan(dir).item;
    });
    const c = candidate(item);
    expect(c.outcome.ok).toBe(false);
    expect(c.real).toBe("");
    expect(calls.map(([op]) => op)).toEqual(["readdir", "readManifest"]);
  });

  test("a SKILL.md that is a directory: no signature kept, in the candidate or the memo", () => {
    const dir = skillDir({ "SKILL.md": { dir: true } });
    const { item, memo, after } = scan(dir);
    const c = candidate(item);
    expect(c.outcome).toEqual({ ok: false, problem: "file", message: "is a directory, not a regular file" });
    expect([c.stat, c.revision, c.real]).toEqual([undefined, 0, ""]);
    expect(memo).toEqual({
      dirStat: undefined,
      listing: memo?.listing,
      fileStat: undefined,
      item: c,
      listedAfter: after,
    });
  });

  test("a manifest that cannot be opened (EACCES) becomes a file problem with the errno in its message", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    failAt("readManifest", path.join(dir, "SKILL.md"), "EACCES");
    const { item, memo } = scan(dir);
    const c = candidate(item);
    expect(c.outcome).toEqual({ ok: false, problem: "file", message: "cannot be read (EACCES)" });
    expect([c.stat, c.real, memo?.fileStat]).toEqual([undefined, "", undefined]);
  });

  test("a bug (not an errno error) in the lstat after a manifest vanished surfaces", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const file = path.join(dir, "SKILL.md");
    setFaultHook((op, p) => {
      if (op === "readManifest" && p === file) throw errnoError("ENOENT", op, p);
      if (op === "lstat" && p === file) throw new TypeError("a bug");
    });
    expect(() => scan(dir)).toThrow(new TypeError("a bug"));
  });

  test("a manifest gone by the lstat too is reported as vanished", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const file = path.join(dir, "SKILL.md");
    setFaultHook((op, p) => {
      if ((op === "readManifest" || op === "lstat") && p === file) throw errnoError("ENOENT", op, p);
    });
    expect(scan(dir).item).toEqual({
      kind: "warning",
      warnings: [
        {
          code: "unreadable",
          message: `manifest ${file} vanished during the scan (ENOENT); skipped`,
          path: file,
        },
      ],
    });
  });

  test('a "tools" that is not a string or a list of strings: the exact warning', () => {
    const dir = skillDir({ "SKILL.md": skill("demo", "Demo.", "tools: 5") });
    const file = path.join(dir, "SKILL.md");
    expect(candidate(scan(dir).item).warnings).toEqual([
      {
        code: "tools_ignored",
        message: `${file}: "tools" is not a string or a list of strings, so it does not set allowedTools; kept in metadata`,
        path: file,
        skill: "demo",
      },
    ]);
  });

  test("candidates without warnings share one frozen empty list", () => {
    const a = candidate(scan(skillDir({ "SKILL.md": skill("demo") })).item);
    const b = candidate(scan(skillDir({ "SKILL.md": skill("demo") })).item);
    expect(a.warnings).toEqual([]);
    expect(a.warnings).toBe(b.warnings);
    expect(Object.isFrozen(a.warnings)).toBe(true);
  });
});

describe("the memo and the next scan", () => {
  test("a re-read under the last read's signature: other content gets a signature of its own (audit F, finding 10)", () => {
    // Nothing trusted: each scan reads the manifest again, as within a change's timestamp granularity.
    const untrusted: After = [0, 0];
    const dir = skillDir({ "SKILL.md": skill("demo", "First.") });
    const first = scan(dir, { after: untrusted });
    const read = first.item as Candidate;
    expect(first.memo?.fileStat).toBeUndefined();
    expect([read.stat?.ino, read.revision]).toEqual([fs.statSync(path.join(dir, "SKILL.md")).ino, 0]);
    // The same content under the same signature keeps its revision: the catalog entry, and `changed`, stay.
    const same = scan(dir, { previous: first.next, after: untrusted }).item as Candidate;
    expect([same.stat, same.revision]).toEqual([read.stat, 0]);
    // A coarse file system gives a same-size edit within its granularity the very same signature:
    // a last read of other content under this signature stands for it.
    const other = parseManifest(Buffer.from(skill("demo", "Other.")), true);
    const memo = first.memo as DirMemo;
    const previous: ScanCache = {
      dirs: new Map([[dir, { ...memo, item: { ...read, outcome: other } }]]),
      roots: new Map(),
    };
    const again = scan(dir, { previous, after: untrusted }).item as Candidate;
    expect(again.stat).toEqual(read.stat);
    // The revision counts on from the last one's, so it always differs from it.
    expect(again.revision).toBe(1);
    const bumped = { ...memo, item: { ...again, outcome: other } };
    const twice = scan(dir, {
      previous: { dirs: new Map([[dir, bumped]]), roots: new Map() },
      after: untrusted,
    });
    expect((twice.item as Candidate).revision).toBe(2);
    // Other body alone, or the same fields read only after the repair, are other content too.
    const repaired = { ...read.outcome, repaired: true } as Candidate["outcome"];
    for (const outcome of [
      parseManifest(Buffer.from(manifest("name: demo\ndescription: First.", "Another body.")), true),
      repaired,
    ]) {
      const differs = { ...read, outcome };
      const got = scan(dir, {
        previous: { dirs: new Map([[dir, { ...memo, item: differs }]]), roots: new Map() },
        after: untrusted,
      });
      expect((got.item as Candidate).revision).toBe(1);
    }
    // And the next read of that content keeps the new one.
    const next = scan(dir, {
      previous: { dirs: new Map([[dir, { ...memo, item: again }]]), roots: new Map() },
      after: untrusted,
    });
    expect((next.item as Candidate).revision).toBe(again.revision);
    // A file touched since (a new raw signature) takes it, whatever the content.
    fs.utimesSync(path.join(dir, "SKILL.md"), new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    const touched = scan(dir, {
      previous: { dirs: new Map([[dir, { ...memo, item: again }]]), roots: new Map() },
      after: untrusted,
    }).item as Candidate;
    expect(touched.stat?.mtimeMs).toBe(2_000_000_000_000);
    expect(touched.revision).toBe(0);
  });

  test("a directory without a manifest: its memo has no item and no manifest signature", () => {
    const dir = skillDir({ "README.md": "no manifest" });
    const { item, memo, after } = scan(dir);
    expect(item).toBeUndefined();
    expect(memo).toEqual({
      dirStat: undefined,
      listing: { chosen: undefined, warnings: [] },
      fileStat: undefined,
      item: undefined,
      listedAfter: after,
    });
  });

  test("a directory that cannot be stat'ed at the next scan: skipped with a warning, nothing remembered", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const first = scan(dir);
    failAt("stat", dir, "EACCES");
    const second = scan(dir, { previous: first.next });
    expect(second.item).toEqual({
      kind: "warning",
      warnings: [
        {
          code: "unreadable",
          message: `skill directory ${dir} cannot be read (EACCES); skipped`,
          path: dir,
        },
      ],
    });
    expect(second.memo).toBeUndefined();
  });

  test("first refresh of a settled directory: no listing, the same candidate, the memo now with the directory's signature", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const file = path.join(dir, "SKILL.md");
    const first = scan(dir);
    expect(first.memo?.dirStat).toBeUndefined();
    let second: Scan | undefined;
    const calls = traced(() => {
      second = scan(dir, { previous: first.next });
    });
    expect(calls).toEqual([
      ["stat", dir],
      ["stat", file],
    ]);
    expect(second?.item).toBe(first.item);
    const dirStat = fs.statSync(dir);
    expect(second?.memo).toEqual({
      ...first.memo,
      dirStat: {
        type: "dir",
        dev: dirStat.dev,
        ino: dirStat.ino,
        size: dirStat.size,
        mtimeMs: dirStat.mtimeMs,
        ctimeMs: dirStat.ctimeMs,
      },
    });
    // Nothing changed at the next: the very memo is kept.
    const third = scan(dir, { previous: second?.next });
    expect(third.item).toBe(first.item);
    expect(third.memo).toBe(second?.memo);
  });

  test("a directory changed after a vouched-for listing is listed again, though its manifest is the same", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const first = scan(dir);
    const second = scan(dir, { previous: first.next });
    expect(second.memo?.dirStat).toBeDefined();
    writeTree({ "Skill.md": skill("other") }, dir);
    changedLater(dir);
    const third = scan(dir, { previous: second.next });
    expect(candidate(third.item).warnings.map((w) => w.code)).toEqual(["multiple_manifests"]);
  });

  test("a manifest read with an untrusted signature is read again without a stat first", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const file = path.join(dir, "SKILL.md");
    changedLater(file);
    const first = scan(dir);
    expect(first.memo?.fileStat).toBeUndefined();
    // The directory is settled, so its listing could be reused; but not with an unchecked manifest.
    let second: Scan | undefined;
    const calls = traced(() => {
      second = scan(dir, { previous: first.next });
    });
    expect(calls).toEqual([
      ["stat", dir],
      ["readdir", dir],
      ["readManifest", file],
      ["realpath", dir],
    ]);
    expect(second?.item).not.toBe(first.item);
    expect(second?.memo?.item).toBe(second?.item);
  });

  test("when another manifest is chosen, the old one's signature is not checked against it", () => {
    const dir = skillDir({ "skill.md": skill("demo") });
    const first = scan(dir);
    writeTree({ "SKILL.md": skill("demo") }, dir);
    changedLater(dir);
    const calls = traced(() => {
      scan(dir, { previous: first.next });
    });
    expect(calls).toEqual([
      ["stat", dir],
      ["readdir", dir],
      ["readManifest", path.join(dir, "SKILL.md")],
      ["realpath", dir],
    ]);
  });

  test("listed again with a new listing, the unchanged manifest's outcome is reused without a read", () => {
    const dir = skillDir({ "skill.md": skill("demo") });
    const file = path.join(dir, "skill.md");
    const first = scan(dir, { follow: false });
    writeTree({ "README.md": "new" }, dir);
    changedLater(dir);
    let second: Scan | undefined;
    const calls = traced(() => {
      second = scan(dir, { previous: first.next, follow: false });
    });
    expect(calls).toEqual([
      ["stat", dir],
      ["readdir", dir],
      ["stat", file],
    ]);
    const [a, b] = [candidate(first.item), candidate(second?.item)];
    expect(b).not.toBe(a);
    expect(b.outcome).toBe(a.outcome);
    expect([b.stat, b.revision, b.real]).toEqual([a.stat, a.revision, a.real]);
    expect(second?.memo?.fileStat).toBe(first.memo?.fileStat);
  });

  test("a lone SKILL.md listed again (symlinks not followed) gives the very same candidate", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    changedLater(dir);
    const first = scan(dir, { follow: false });
    const second = scan(dir, { previous: first.next, follow: false });
    expect(second.item).toBe(first.item);
    expect(second.memo?.listing).toBe(first.memo?.listing);
    // Listed again under a later scan: the memo takes that scan's instants.
    expect(second.memo?.listedAfter).toBe(second.after);
    expect(second.memo).not.toBe(first.memo);
  });

  test("a manifest rewritten in a vouched-for directory: read again, and the memo holds the new candidate", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const first = scan(dir);
    const second = scan(dir, { previous: first.next });
    writeTree({ "SKILL.md": skill("demo", "A longer description than before.") }, dir);
    const third = scan(dir, { previous: second.next });
    const c = candidate(third.item);
    expect(c).not.toBe(second.item);
    expect(c.outcome.ok && c.outcome.fields.description).toBe("A longer description than before.");
    expect(third.memo?.item).toBe(c);
    expect(third.memo?.dirStat).toEqual(second.memo?.dirStat);
  });

  test("a bug (not an errno error) in the check of the previous manifest surfaces", () => {
    const dir = skillDir({ "SKILL.md": skill("demo") });
    const file = path.join(dir, "SKILL.md");
    const first = scan(dir);
    let thrown = false;
    setFaultHook((op, p) => {
      if (op === "stat" && p === file && !thrown) {
        thrown = true;
        throw new TypeError("a bug");
      }
    });
    expect(() => scan(dir, { previous: first.next })).toThrow(new TypeError("a bug"));
  });
});
