// WatchSet on its own: which paths a sync watches, what hint events yield, what close() releases.
// Real folders and real fs events; every wait is on a promise with a generous bound, never a duration
// asserted. Where an event needs no particular order, a later "sentinel" change is awaited instead: one
// watcher's events arrive in the order they happened, so once the sentinel is seen, so is all before it.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { setFaultHook } from "../src/fsx.js";
import type { ScanHint } from "../src/scan.js";
import { Degraded, WatchSet } from "../src/watchset.js";
import { errnoError } from "./helpers/faults.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";
import { waiter } from "./helpers/wait.js";

/** Far above any real wait: only a missed event reaches it. */
const LIMIT_MS = 10_000;

const made: WatchSet[] = [];
afterEach(() => {
  setFaultHook(null);
  for (const set of made.splice(0)) set.close();
});

/** One turn of the event loop, twice: closed handles are gone from the active list after it. */
const settle = async () => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The open fs.watch handles of this process (persistent ones: the sets below are persistent). */
function openWatchers(): { emit(event: string, ...args: unknown[]): boolean }[] {
  const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
  return handles.filter(
    (h) => h.constructor.name === "FSWatcher" && (h as { _handle: unknown })._handle !== null,
  ) as { emit(event: string, ...args: unknown[]): boolean }[];
}

interface Probe {
  readonly set: WatchSet;
  /** Paths watched since the last `take()`, in call order. */
  take(): string[];
  /** Everything events said since the probe began (or `undefined` until the first hint is taken). */
  readonly seen: { roots: Set<string>; dirs: Set<string>; wholeRoots: Set<string> };
  /** How many times an event called `onDirty`. */
  readonly dirtied: () => number;
  /** Resolves once `check` holds after an event, rejects after LIMIT_MS naming `what`. */
  until(what: string, check: () => boolean): Promise<void>;
}

/**
 * A persistent WatchSet over `roots`; every fs call goes through `fault` too. Unless `fresh`, its first
 * hint is taken at once (as the watcher's first cycle does) and every later one on each event.
 */
function probe(
  roots: string[],
  o: { followSymlinks?: boolean; fresh?: boolean; fault?: (op: string, p: string) => void } = {},
): Probe {
  const config = resolveConfig({
    roots: roots.map((p) => ({ path: p })),
    followSymlinks: o.followSymlinks ?? true,
  });
  let watched: string[] = [];
  setFaultHook((op, p) => {
    if (op === "watch") watched.push(p);
    o.fault?.(op, p);
  });
  const seen = { roots: new Set<string>(), dirs: new Set<string>(), wholeRoots: new Set<string>() };
  const waits = waiter(LIMIT_MS);
  let dirtied = 0;
  const merge = (hint: ScanHint | undefined) => {
    for (const key of ["roots", "dirs", "wholeRoots"] as const)
      for (const p of hint?.[key] ?? []) seen[key].add(p);
  };
  const set = new WatchSet(config, true, () => {
    dirtied++;
    if (!o.fresh) merge(set.takeHint());
    waits.wake();
  });
  made.push(set);
  if (!o.fresh) set.takeHint();
  return {
    set,
    seen,
    dirtied: () => dirtied,
    take: () => {
      const out = watched;
      watched = [];
      return out;
    },
    until: (what, check) => waits.until(check, () => `not seen within ${LIMIT_MS} ms: ${what}`),
  };
}

/** The folders above `p`, nearest first, up to the file system's root: each is watched for the one below. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let up = path.dirname(p); up !== p; p = up, up = path.dirname(up)) out.push(up);
  return out;
}

/** A fresh folder holding `root` (with `tree` in it): [parent, root]. */
function rootIn(tree: Record<string, string | { dir: true } | { symlink: string }>): [string, string] {
  const parent = tempDir();
  const root = path.join(parent, "root");
  fs.mkdirSync(root);
  writeTree(tree, root);
  return [parent, root];
}

describe("Degraded and hints", () => {
  test("Degraded names the path and code in its message and keeps the cause", () => {
    const cause = errnoError("ENOSPC", "watch", "/x");
    const e = new Degraded("ENOSPC", "/x", cause);
    expect([e.name, e.message, e.code, e.path, e.cause]).toEqual([
      "Degraded",
      "cannot watch /x (ENOSPC)",
      "ENOSPC",
      "/x",
      cause,
    ]);
  });

  test("the first hint is undefined (look everywhere), the next ones say what events touched", () => {
    const [, root] = rootIn({});
    const { set } = probe([root], { fresh: true });
    expect(set.takeHint()).toBeUndefined();
    expect(set.takeHint()).toEqual({ roots: new Set(), dirs: new Set(), wholeRoots: new Set() });
  });
});

describe("what a sync watches", () => {
  test("the folder above, every folder further up, the root, then each skill directory; files in the root are not watched", async () => {
    const [parent, root] = rootIn({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), "notes.md": "x" });
    const p = probe([root]);
    await p.set.sync();
    const watched = p.take();
    const above = [parent, ...ancestors(parent)];
    expect(watched.slice(0, above.length + 1)).toEqual([...above, root]);
    expect(watched.slice(above.length + 1).sort()).toEqual([path.join(root, "a"), path.join(root, "b")]);
    // Nothing changed: the next sync sets no watch.
    await p.set.sync();
    expect(p.take()).toEqual([]);
  });

  test("a new skill directory re-watches the root and only that directory; a removed one is closed", async () => {
    const [parent, root] = rootIn({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    const before = openWatchers().length;
    const p = probe([root]);
    await p.set.sync();
    const above = [parent, ...ancestors(parent)];
    expect(openWatchers().length - before).toBe(above.length + 3);
    p.take();
    fs.mkdirSync(path.join(root, "c"));
    await p.until("root/c", () => p.seen.dirs.has(path.join(root, "c")));
    await p.set.sync();
    expect(p.take()).toEqual([...above, root, path.join(root, "c")]);
    for (const seen of Object.values(p.seen)) seen.clear();
    fs.rmSync(path.join(root, "b"), { recursive: true });
    await p.until(
      "root/b in the root",
      () => p.seen.dirs.has(path.join(root, "b")) && p.seen.roots.has(root),
    );
    await p.set.sync();
    expect(p.take()).toEqual([...above, root]);
    await settle();
    expect(openWatchers().length - before).toBe(above.length + 3);
    p.set.close();
    await settle();
    expect(openWatchers().length - before).toBe(0);
  });

  test("a root replaced by another folder of the same entries has every directory watched again", async () => {
    const [parent, root] = rootIn({ "a/SKILL.md": skill("a") });
    const p = probe([root]);
    await p.set.sync();
    p.take();
    fs.renameSync(root, path.join(parent, "old"));
    writeTree({ "a/SKILL.md": skill("a") }, root);
    await p.until("root/s", () => p.seen.wholeRoots.has(root));
    await p.set.sync();
    expect(p.take()).toEqual([parent, ...ancestors(parent), root, path.join(root, "a")]);
  });

  test("a root whose parents do not exist yet is watched from its nearest existing ancestor, once", async () => {
    const base = tempDir();
    const p = probe([path.join(base, "x", "y", "root")]);
    await p.set.sync();
    expect(p.take()).toEqual([base, ...ancestors(base)]);
  });

  test("a root 65 missing folders below anything is not climbed to: the climb stops after 64", async () => {
    const base = tempDir();
    const p = probe([path.join(base, ...Array.from({ length: 65 }, () => "m"))]);
    await p.set.sync();
    expect(p.take()).toEqual([]);
  });

  test("a root at / has no folder above it: only / itself is watched", async () => {
    const p = probe(["/"], { fault: (op, q) => void (op === "watchReaddir" && q === "/" && fail(op, q)) });
    await p.set.sync();
    expect(p.take()).toEqual(["/"]);
  });

  test("a root whose own watch is refused is not listed: none of its directories is watched", async () => {
    const [parent, root] = rootIn({ "a/SKILL.md": skill("a") });
    const p = probe([root], { fault: (op, q) => void (op === "watch" && q === root && fail(op, q)) });
    await p.set.sync();
    expect(p.take()).toEqual([parent, ...ancestors(parent), root]);
  });

  test("followSymlinks: false does not watch where a symlinked manifest really lives", async () => {
    const store = writeTree({ "SKILL.md": skill("a") });
    const [parent, root] = rootIn({ "a/SKILL.md": { symlink: path.join(store, "SKILL.md") } });
    const p = probe([root], { followSymlinks: false });
    await p.set.sync();
    expect(p.take()).toEqual([parent, ...ancestors(parent), root, path.join(root, "a")]);
  });

  test("a sync sets up at most 16 directories at once", async () => {
    const store = writeTree({ "SKILL.md": skill("s") });
    const tree: Record<string, { symlink: string }> = {};
    for (let i = 0; i < 17; i++)
      tree[`d${String(i).padStart(2, "0")}/SKILL.md`] = { symlink: path.join(store, "SKILL.md") };
    const [, root] = rootIn(tree);
    const calls: string[] = [];
    const p = probe([root], { fault: (op, q) => void calls.push(`${op} ${q}`) });
    await p.set.sync();
    // The 17th directory waits for one of the first 16 to finish: its manifest link is resolved first.
    const seventeenth = calls.indexOf(`watch ${path.join(root, "d16")}`);
    const firstResolve = calls.findIndex((c) => c.startsWith("watchRealpath "));
    expect(firstResolve).toBeGreaterThan(-1);
    expect(seventeenth).toBeGreaterThan(firstResolve);
  });
});

/** Throw EACCES for `op` on `q`. */
function fail(op: string, q: string): never {
  throw errnoError("EACCES", op, q);
}

describe("what events say", () => {
  test("an entry created in the root names that directory; a sibling of the root says nothing", async () => {
    const [parent, root] = rootIn({});
    const p = probe([root]);
    await p.set.sync();
    fs.mkdirSync(path.join(parent, "sibling"));
    fs.mkdirSync(path.join(root, "s"));
    await p.until("root/s", () => p.seen.dirs.has(path.join(root, "s")));
    expect(p.seen.roots).toEqual(new Set([root]));
    expect(p.seen.wholeRoots).toEqual(new Set());
  });

  test("a change to the root itself, seen from above, makes the whole root suspect", async () => {
    const [, root] = rootIn({});
    const p = probe([root]);
    await p.set.sync();
    fs.utimesSync(root, new Date(0), new Date(0));
    // Named after that: the root's names were reset to "any", and adding to them must still work.
    fs.mkdirSync(path.join(root, "s"));
    await p.until("root/s", () => p.seen.dirs.has(path.join(root, "s")));
    expect(p.seen.wholeRoots).toEqual(new Set([root]));
  });

  test("a manifest edit names its directory, not its root; another file in it says nothing", async () => {
    const [, root] = rootIn({ "a/SKILL.md": skill("a"), "a/notes.md": "x" });
    const p = probe([root]);
    await p.set.sync();
    fs.writeFileSync(path.join(root, "a", "notes.md"), "y");
    fs.mkdirSync(path.join(root, "s"));
    await p.until("root/s", () => p.seen.dirs.has(path.join(root, "s")));
    expect(p.seen.dirs).toEqual(new Set([path.join(root, "s")]));
    p.seen.roots.clear();
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "Edited."));
    await p.until("root/a", () => p.seen.dirs.has(path.join(root, "a")));
    expect(p.seen.roots).toEqual(new Set());
  });

  test("an edit in a linked directory's target also names its root (the link may no longer lead to a directory)", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [, root] = rootIn({ l: { symlink: path.join(store, "x") } });
    const p = probe([root]);
    await p.set.sync();
    fs.writeFileSync(path.join(store, "x", "SKILL.md"), skill("x", "Edited."));
    await p.until("root/l", () => p.seen.dirs.has(path.join(root, "l")));
    expect(p.seen.roots).toEqual(new Set([root]));
  });

  test("a linked directory whose target's folder cannot be watched still reports a change to the target itself", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [, root] = rootIn({ l: { symlink: path.join(store, "x") } });
    const p = probe([root], { fault: (op, q) => void (op === "watch" && q === store && fail(op, q)) });
    await p.set.sync();
    fs.utimesSync(path.join(store, "x"), new Date(0), new Date(0));
    await p.until("root/l", () => p.seen.dirs.has(path.join(root, "l")));
    // Its failed watch left nothing to close.
    expect(() => p.set.close()).not.toThrow();
  });

  // One probe per change: the change's first event is then the first one the probe gets.
  for (const [what, change] of [
    ["the folder above and the root itself", (root: string) => fs.utimesSync(root, new Date(0), new Date(0))],
    ["a new entry in the root", (root: string) => fs.mkdirSync(path.join(root, "s"))],
    [
      "a linked directory's manifest",
      (_: string, store: string) => fs.writeFileSync(path.join(store, "x", "SKILL.md"), "x"),
    ],
  ] as const) {
    test(`an event before the first hint is taken still counts: ${what}`, async () => {
      const store = writeTree({ "x/SKILL.md": skill("x") });
      const [, root] = rootIn({ l: { symlink: path.join(store, "x") } });
      const p = probe([root], { fresh: true });
      await p.set.sync();
      change(root, store);
      await p.until(what, () => p.dirtied() > 0);
      expect(p.set.takeHint()).toBeUndefined();
    });
  }

  test("a target folder's other entries say nothing; the target replaced by a rename names its directory", async () => {
    const store = writeTree({ "SKILL.md": skill("a") });
    const [, root] = rootIn({ "a/SKILL.md": { symlink: path.join(store, "SKILL.md") } });
    const p = probe([root]);
    await p.set.sync();
    fs.writeFileSync(path.join(store, "other.md"), "x");
    fs.mkdirSync(path.join(root, "s"));
    await p.until("root/s", () => p.seen.dirs.has(path.join(root, "s")));
    expect(p.seen.dirs).toEqual(new Set([path.join(root, "s")]));
    fs.renameSync(path.join(store, "other.md"), path.join(store, "SKILL.md"));
    await p.until("root/a", () => p.seen.dirs.has(path.join(root, "a")));
  });

  test("a skill directory replaced by a link is watched as a link (its target's folder too), and the old directory's watch is closed", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [parent, root] = rootIn({ "a/SKILL.md": skill("a") });
    const before = openWatchers().length;
    const p = probe([root]);
    await p.set.sync();
    p.take();
    fs.rmSync(path.join(root, "a"), { recursive: true });
    fs.symlinkSync(path.join(store, "x"), path.join(root, "a"));
    await p.until(
      "root/a in the root",
      () => p.seen.dirs.has(path.join(root, "a")) && p.seen.roots.has(root),
    );
    await p.set.sync();
    expect(p.take()).toEqual([parent, ...ancestors(parent), root, store, path.join(root, "a")]);
    p.set.close();
    await settle();
    expect(openWatchers().length).toBe(before);
  });

  test("a link replaced by a directory: the watch of the link's target folder is closed", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [parent, root] = rootIn({ a: { symlink: path.join(store, "x") } });
    const before = openWatchers().length;
    const p = probe([root]);
    await p.set.sync();
    p.take();
    fs.rmSync(path.join(root, "a"));
    fs.mkdirSync(path.join(root, "a"));
    await p.until(
      "root/a in the root",
      () => p.seen.dirs.has(path.join(root, "a")) && p.seen.roots.has(root),
    );
    await p.set.sync();
    expect(p.take()).toEqual([parent, ...ancestors(parent), root, path.join(root, "a")]);
    expect(openWatchers().length - before).toBe(ancestors(parent).length + 3);
    p.set.close();
    await settle();
    expect(openWatchers().length).toBe(before);
  });

  test("close() while the root is being listed looks at none of its directories", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [, root] = rootIn({ l: { symlink: path.join(store, "x") } });
    const calls: string[] = [];
    let set: WatchSet | undefined;
    const p = probe([root], {
      fault: (op, q) => {
        calls.push(`${op} ${q}`);
        if (op === "watchReaddir" && q === root) set?.close();
      },
    });
    set = p.set;
    await p.set.sync();
    expect(calls.slice(calls.indexOf(`watchReaddir ${root}`))).toEqual([`watchReaddir ${root}`]);
  });

  test("events without a name, or a watch's error, make the whole root and each directory suspect", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x") });
    const [, root] = rootIn({ a: { dir: true }, l: { symlink: path.join(store, "x") } });
    const before = new Set(openWatchers());
    const p = probe([root]);
    await p.set.sync();
    // Created in this order: above (the folder above, then each further up), root, a, then for l: the
    // folder of its target, then l itself.
    const mine = openWatchers().filter((w) => !before.has(w));
    const up = [path.dirname(root), ...ancestors(path.dirname(root))];
    expect(p.take()).toEqual([...up, root, path.join(root, "a"), store, path.join(root, "l")]);
    type Handle = (typeof mine)[0];
    const [above, a, target] = [mine[0], mine[up.length + 1], mine[up.length + 2]] as [
      Handle,
      Handle,
      Handle,
    ];
    above.emit("change", "rename", null);
    await p.until("whole root", () => p.seen.wholeRoots.has(root));
    a.emit("change", "rename", null);
    await p.until("root/a", () => p.seen.dirs.has(path.join(root, "a")));
    target.emit("change", "rename", null);
    await p.until("root/l", () => p.seen.dirs.has(path.join(root, "l")));
    p.seen.wholeRoots.clear();
    above.emit("error", errnoError("EIO", "watch", root));
    await p.until("whole root after an error", () => p.seen.wholeRoots.has(root));
  });
});

describe("close", () => {
  test("close() before any sync throws nothing, and a sync after it watches nothing", async () => {
    const [, root] = rootIn({ "a/SKILL.md": skill("a") });
    const p = probe([root]);
    p.set.close();
    await p.set.sync();
    expect(p.take()).toEqual([]);
  });

  test("a sync after close() skips the directories events marked", async () => {
    const [, root] = rootIn({ "a/SKILL.md": skill("a") });
    const before = openWatchers().length;
    const p = probe([root]);
    await p.set.sync();
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "Edited."));
    await p.until("root/a", () => p.seen.dirs.has(path.join(root, "a")));
    p.set.close();
    await p.set.sync();
    await settle();
    expect(openWatchers().length).toBe(before);
  });

  test("close() while a directory's watch is being set leaves no handle open", async () => {
    const store = writeTree({ "SKILL.md": skill("a") });
    const [, root] = rootIn({ "a/SKILL.md": { symlink: path.join(store, "SKILL.md") } });
    const before = openWatchers().length;
    let set: WatchSet | undefined;
    const p = probe([root], {
      fault: (op, q) => void (op === "watch" && q === path.join(root, "a") && set?.close()),
    });
    set = p.set;
    await p.set.sync();
    await settle();
    expect(openWatchers().length).toBe(before);
  });

  test("a watch that fails with something other than an fs error rejects the sync with it", async () => {
    const [, root] = rootIn({});
    const bug = new Error("not an fs error");
    let p = probe([root], { fault: (op) => void (op === "watch" && throwIt(bug)) });
    await expect(p.set.sync()).rejects.toBe(bug);
    p = probe([root], { fault: (op) => void (op === "watch" && throwIt(null)) });
    await expect(p.set.sync()).rejects.toBe(null);
  });
});

function throwIt(e: unknown): never {
  throw e;
}
