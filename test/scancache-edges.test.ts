// The scan cache's rules on their own: when a watcher's hint lets a directory or a root be taken from
// the last scan without a look, and when a signature is old enough to trust.
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import type { Stat } from "../src/fsx.js";
import {
  type Candidate,
  type Context,
  context,
  type DirMemo,
  NO_CACHE,
  type ScanCache,
  type ScanHint,
  settled,
  trusted,
  unhinted,
  unhintedRoot,
} from "../src/scancache.js";

const ROOT = path.resolve("/skills");
const DIR = path.join(ROOT, "a");
const config = resolveConfig({ roots: [{ path: ROOT }] });

/** A hint naming the given roots, directories and whole roots. */
function hint(roots: string[] = [], dirs: string[] = [], wholeRoots: string[] = []): ScanHint {
  return { roots: new Set(roots), dirs: new Set(dirs), wholeRoots: new Set(wholeRoots) };
}

const item = { kind: "candidate", dirName: "a", dir: DIR, path: path.join(DIR, "SKILL.md") } as Candidate;

/** What a scan remembers of DIR: by default a trusted listing with SKILL.md and a trusted manifest. */
/** A signature: device 1, the given inode, its size and times. */
const sig = (ino: number, t = 5): Stat => ({ type: "file", dev: 1, ino, size: 3, mtimeMs: t, ctimeMs: t });

function memo(over: Partial<DirMemo> = {}): DirMemo {
  return {
    dirStat: sig(2),
    listing: { chosen: { name: "SKILL.md", symlink: undefined }, warnings: [] },
    fileStat: sig(6),
    item,
    listedAfter: [0, 0],
    ...over,
  };
}

function ctxWith(m: DirMemo | undefined, h: ScanHint | undefined): Context {
  const previous: ScanCache = { dirs: new Map(m === undefined ? [] : [[DIR, m]]), roots: new Map() };
  return context(config, previous, h);
}

describe("unhinted: a skill directory taken from the last scan", () => {
  test("a directory the hint does not name, which the last scan vouched for, is carried over as it was", () => {
    const m = memo();
    const ctx = ctxWith(m, hint([ROOT], [path.join(ROOT, "b")]));
    expect(unhinted(ctx, DIR)).toBe(m);
    expect(ctx.next.dirs.get(DIR)).toBe(m);
  });

  test("so is one without a manifest, whose empty manifest signature says nothing", () => {
    const m = memo({ listing: { chosen: undefined, warnings: [] }, fileStat: undefined, item: undefined });
    const ctx = ctxWith(m, hint());
    expect(unhinted(ctx, DIR)).toBe(m);
    expect(ctx.next.dirs.get(DIR)).toBe(m);
  });

  test.each([
    ["there is no hint (no watcher: look at everything)", memo(), undefined],
    ["the hint names the directory", memo(), hint([], [DIR])],
    ["the hint names its root as a whole", memo(), hint([], [], [ROOT])],
    ["the last scan did not see it", undefined, hint()],
    ["the last scan's listing was too recent to vouch for", memo({ dirStat: undefined }), hint()],
    ["the last scan's manifest was too recent to vouch for", memo({ fileStat: undefined }), hint()],
  ])("it must be inspected when %s", (_, m, h) => {
    const ctx = ctxWith(m, h);
    expect(unhinted(ctx, DIR)).toBe(false);
    expect(ctx.next.dirs.size).toBe(0);
  });
});

describe("unhintedRoot: a root's listing taken from the last scan", () => {
  test("a root the hint does not name, with a trusted signature, is not listed again", () => {
    expect(unhintedRoot(context(config, NO_CACHE, hint([path.join(ROOT, "other")])), ROOT, sig(2))).toBe(
      true,
    );
  });

  test.each([
    ["there is no hint", undefined, sig(2)],
    ["the hint names the root", hint([ROOT]), sig(2)],
    ["its signature was too recent to trust", hint(), undefined],
  ])("it is listed again when %s", (_, h, st) => {
    expect(unhintedRoot(context(config, NO_CACHE, h), ROOT, st)).toBe(false);
  });
});

describe("settled: how old a change must be to trust a signature", () => {
  const at = (changed: number): Stat => sig(1, changed);

  test("fine-grained timestamps are judged by the first instant, up to and including it", () => {
    expect(settled([1001, 0], at(1001))).toBe(true);
    expect(settled([1001, 0], at(1000.5))).toBe(true);
    expect(settled([1001, 5000], at(1001.25))).toBe(false);
    expect(settled([1001, 5000], at(1002))).toBe(false);
  });

  test("whole-second timestamps are judged by the second instant, up to and including it", () => {
    expect(settled([0, 2000], at(2000))).toBe(true);
    expect(settled([5000, 1999], at(2000))).toBe(false);
  });

  test("the later of mtime and ctime is the change judged, whichever it is", () => {
    const st = (mtimeMs: number, ctimeMs: number): Stat => ({ ...sig(1), mtimeMs, ctimeMs });
    expect(settled([1001, 0], st(1001, 1002.5))).toBe(false);
    expect(settled([1001, 0], st(1002.5, 1001))).toBe(false);
    expect(settled([1001, 0], st(1000.5, 1001))).toBe(true);
  });

  test("trusted gives the very stat when settled, else none", () => {
    const ctx = context(config, NO_CACHE);
    const old = sig(1, ctx.after[0] - 1);
    expect(trusted(ctx, old)).toBe(old);
    expect(trusted(ctx, sig(1, ctx.after[0] + 1))).toBeUndefined();
  });

  test("a scan's instants are 100 ms and 2 s before it starts", () => {
    const before = Date.now();
    const ctx = context(config, NO_CACHE);
    const after = Date.now();
    expect(ctx.after[0]).toBeGreaterThanOrEqual(before - 100);
    expect(ctx.after[0]).toBeLessThanOrEqual(after - 100);
    expect(ctx.after[1]).toBeGreaterThanOrEqual(before - 2000);
    expect(ctx.after[1]).toBeLessThanOrEqual(after - 2000);
    expect(ctx.hint).toBeUndefined();
    expect(ctx.previous).toBe(NO_CACHE);
    expect(ctx.next.dirs.size + ctx.next.roots.size).toBe(0);
  });
});
