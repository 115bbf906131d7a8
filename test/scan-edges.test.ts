// The scan at its edges: a watcher's hint that lets a root or skill directory be taken from the last
// scan without a look, a root that cannot be resolved or checked, a symlink that cannot be followed,
// what a root listing with symlinks reuses, and how many directories the async scan inspects at once.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { setFaultHook } from "../src/fsx.js";
import { NO_CACHE, type ScanHint, type ScanItem, scanAsync, scanSync } from "../src/scan.js";
import { failAt } from "./helpers/faults.js";
import { skill, type Tree, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

/** A hint naming the given roots, directories and whole roots. */
function hint(roots: string[] = [], dirs: string[] = [], wholeRoots: string[] = []): ScanHint {
  return { roots: new Set(roots), dirs: new Set(dirs), wholeRoots: new Set(wholeRoots) };
}

const configOf = (root: string, followSymlinks = true) =>
  resolveConfig({ roots: [{ path: root }], followSymlinks });

/** Each item as `name: description` (a candidate) or `code: message` (a warning). */
function shown(items: readonly ScanItem[]): string[] {
  return items.map((i) =>
    i.kind === "warning"
      ? i.warnings.map((w) => `${w.code}: ${w.message}`).join("\n")
      : i.outcome.ok
        ? `${i.outcome.fields.name}: ${i.outcome.fields.description}`
        : `${i.dirName}: invalid`,
  );
}

/** Every fs call `run` makes, as `op path`, in order. */
async function opsOf(run: () => unknown): Promise<string[]> {
  const ops: string[] = [];
  setFaultHook((op, p) => {
    ops.push(`${op} ${p}`);
  });
  try {
    await run();
  } finally {
    setFaultHook(null);
  }
  return ops;
}

// Trees whose signatures a scan must trust: written once, then left to age past the trust window
// (100 ms; 2 s where timestamps are whole seconds).
let hinted = "";
let linked = "";
beforeAll(async () => {
  hinted = writeTree({ "a/SKILL.md": skill("a", "First."), "b/SKILL.md": skill("b"), "n/notes.txt": "x" });
  linked = writeTree({ "a/SKILL.md": skill("a"), l: { symlink: "a" } });
  await pastTrustWindow(hinted);
});

describe("a watcher's hint", () => {
  test("what it does not name is taken from the last scan without a look; what it names is looked at", async () => {
    const config = configOf(hinted);
    // The second scan takes the directories' signatures, which the first does not.
    const last = scanSync(config, scanSync(config).cache);
    expect(shown(last.roots[0] ?? [])).toEqual(["a: First.", "b: The b skill."]);
    expect(last.cache.dirs.get(path.join(hinted, "a"))?.dirStat).toBeDefined();
    // Changes no event reported: a's manifest, a manifest in n, a new skill c.
    const changes: Tree = {
      "a/SKILL.md": skill("a", "Second."),
      "n/SKILL.md": skill("n"),
      "c/SKILL.md": skill("c"),
    };
    writeTree(changes, hinted);

    let quiet: ScanItem[] = [];
    expect(
      await opsOf(async () => (quiet = [...((await scanAsync(config, last.cache, hint())).roots[0] ?? [])])),
    ).toEqual([]);
    expect(quiet).toEqual(last.roots[0]);
    expect(quiet[0]).toBe(last.roots[0]?.[0]);

    // The root and a named: c is new, so inspected; n is not named, so still what it was.
    const named = await scanAsync(config, last.cache, hint([hinted], [path.join(hinted, "a")]));
    expect(shown(named.roots[0] ?? [])).toEqual(["a: Second.", "b: The b skill.", "c: The c skill."]);
    const everything = ["a: Second.", "b: The b skill.", "c: The c skill.", "n: The n skill."];
    const whole = await scanAsync(config, last.cache, hint([hinted], [], [hinted]));
    expect(shown(whole.roots[0] ?? [])).toEqual(everything);
    expect(shown((await scanAsync(config, last.cache)).roots[0] ?? [])).toEqual(everything);
  });
});

describe("faults of a root and its entries", () => {
  test("a root that cannot be resolved: a warning, and each skill directory resolved on its own", () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    failAt("realpath", root, "EACCES");
    const items = scanSync(configOf(root)).roots[0] ?? [];
    expect(shown(items)).toEqual([
      `unreadable: root ${root} cannot be resolved (EACCES); its skill directories are resolved one by one`,
      "a: The a skill.",
    ]);
    expect(items[0]?.kind === "warning" && items[0].warnings[0]?.path).toBe(root);
    expect(items[1]?.kind === "candidate" && items[1].real).toBe(path.join(root, "a"));
  });

  test("a root whose signature cannot be taken is listed all the same, with a warning first", () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    failAt("stat", root, "EACCES");
    const items = scanSync(configOf(root)).roots[0] ?? [];
    expect(shown(items)).toEqual([
      `unreadable: root ${root} cannot be checked for changes (EACCES); listed again`,
      "a: The a skill.",
    ]);
    expect(items[0]?.kind === "warning" && items[0].warnings[0]?.path).toBe(root);
  });

  test("a symlinked entry that cannot be followed for another reason than absence: unreadable, skipped", () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), l: { symlink: "a" } });
    const link = path.join(root, "l");
    failAt("stat", link, "EACCES");
    const items = scanSync(configOf(root)).roots[0] ?? [];
    expect(shown(items)).toEqual([
      "a: The a skill.",
      `unreadable: symlink ${link} cannot be followed (EACCES); skipped`,
    ]);
    expect(items[1]?.kind === "warning" && items[1].warnings[0]?.path).toBe(link);
  });
});

describe("what a root listing costs and keeps", () => {
  test("a regular file in a root is not stat'ed, and does not count as a symlink", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "README.md": "x" });
    let memo: { links: boolean } | undefined;
    const ops = await opsOf(() => {
      memo = scanSync(configOf(root)).cache.roots.get(root);
    });
    expect(ops).not.toContain(`stat ${path.join(root, "README.md")}`);
    expect(memo?.links).toBe(false);
  });

  test("an unchanged root with a symlink is not listed again; its symlink is followed again", async () => {
    const config = configOf(linked);
    const first = scanSync(config);
    expect(first.cache.roots.get(linked)?.links).toBe(true);
    let again: ScanItem[] = [];
    const ops = await opsOf(() => {
      again = [...(scanSync(config, first.cache).roots[0] ?? [])];
    });
    expect(ops).not.toContain(`readdir ${linked}`);
    expect(ops).toContain(`stat ${path.join(linked, "l")}`);
    expect(again.map((i) => i.kind === "candidate" && i.dirName)).toEqual(["a", "l"]);
  });
});

describe("the async scan", () => {
  test("at most 64 skill directories are inspected at once", async () => {
    const tree: Tree = {};
    for (let i = 100; i < 200; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`);
    const root = writeTree(tree);
    // Workers start together in one synchronous stretch, each with its first fs call, before any call
    // completes: count the skill directories listed by the end of that stretch.
    let started = -1;
    let listed = 0;
    setFaultHook((op, p) => {
      if (op !== "readdir" || p === root) return;
      if (listed++ === 0) queueMicrotask(() => (started = listed));
    });
    const scan = await scanAsync(configOf(root), { dirs: new Map(), roots: new Map() });
    setFaultHook(null);
    expect(scan.roots[0]?.length).toBe(100);
    expect(listed).toBe(100);
    expect(started).toBe(64);
  });

  test("roots with nothing to show give no items, async as sync", async () => {
    const empty = writeTree({ "n/notes.txt": "x" });
    const config = resolveConfig({ roots: [{ path: path.join(empty, "missing") }, { path: empty }] });
    expect((await scanAsync(config, NO_CACHE)).roots).toEqual([[], []]);
    expect(scanSync(config).roots).toEqual([[], []]);
  });
});

test("a root whose check fails on every scan is listed again on every scan", () => {
  // The failed check leaves the root without a signature, so no two scans can call it unchanged.
  const root = writeTree({ "a/SKILL.md": skill("a") });
  failAt("stat", root, "EIO");
  const config = configOf(root);
  const first = scanSync(config);
  const check = `unreadable: root ${root} cannot be checked for changes (EIO); listed again`;
  expect(shown(first.roots[0] ?? [])).toEqual([check, "a: The a skill."]);
  fs.mkdirSync(path.join(root, "b"));
  fs.writeFileSync(path.join(root, "b", "SKILL.md"), skill("b"));
  const second = shown(scanSync(config, first.cache).roots[0] ?? []);
  expect(second).toEqual([check, "a: The a skill.", "b: The b skill."]);
});

describe("one file behind several manifest paths (audit D, finding 5)", () => {
  // 1,000 links to one 1 MiB SKILL.md read it 1,000 times and held 1 GB at the peak of a scan.
  test.each([true, false])(
    "is read and parsed once per scan (async %s); every path shares its outcome",
    async (async) => {
      const root = writeTree({ "a/SKILL.md": skill("shared"), "b/SKILL.md": { symlink: "../a/SKILL.md" } });
      fs.mkdirSync(path.join(root, "c"));
      fs.linkSync(path.join(root, "a", "SKILL.md"), path.join(root, "c", "SKILL.md"));
      const config = configOf(root);
      const scan = async ? await scanAsync(config, NO_CACHE) : scanSync(config);
      const items = scan.roots[0] as readonly ScanItem[];
      expect(shown(items)).toEqual([
        "shared: The shared skill.",
        "shared: The shared skill.",
        "shared: The shared skill.",
      ]);
      const [a, b, c] = items.map((i) => (i.kind === "candidate" ? i.outcome : undefined));
      expect(b).toBe(a);
      expect(c).toBe(a);
      // Each keeps its own path and directory.
      expect(items.map((i) => (i.kind === "candidate" ? path.relative(root, i.path) : ""))).toEqual([
        "a/SKILL.md",
        "b/SKILL.md",
        "c/SKILL.md",
      ]);
    },
  );

  test.each([true, false])(
    "is read and parsed once per scan across roots too (async %s): a hard link in a later root",
    async (async) => {
      const first = writeTree({ "a/SKILL.md": skill("shared") });
      const second = writeTree({ "z/keep": "" });
      fs.linkSync(path.join(first, "a", "SKILL.md"), path.join(second, "z", "SKILL.md"));
      const config = resolveConfig({ roots: [{ path: first }, { path: second }] });
      const scan = async ? await scanAsync(config, NO_CACHE) : scanSync(config);
      const [a, z] = scan.roots.map((items) => (items[0]?.kind === "candidate" ? items[0] : undefined));
      expect(z?.path).toBe(path.join(second, "z", "SKILL.md"));
      expect(z?.outcome).toBe(a?.outcome);
    },
  );

  test("a symlinked skill directory sorted before the plain one it points to shares its outcome", () => {
    // The link is looked at in the last pass, one directory at a time, after the plain directory's
    // manifest was read in the pass before but not yet parsed: that read answers for the file.
    const root = writeTree({ "z/SKILL.md": skill("shared"), "a-link": { symlink: "z" } });
    const items = scanSync(configOf(root)).roots[0] as readonly ScanItem[];
    expect(items.map((i) => (i.kind === "candidate" ? path.relative(root, i.path) : i.kind))).toEqual([
      path.join("a-link", "SKILL.md"),
      path.join("z", "SKILL.md"),
    ]);
    const [link, plain] = items.map((i) => (i.kind === "candidate" ? i.outcome : undefined));
    expect(link?.ok).toBe(true);
    expect(link).toBe(plain);
  });

  test("a file changed between two of its reads is read again", () => {
    const root = writeTree({ "a/SKILL.md": skill("one"), "b/SKILL.md": { symlink: "../a/SKILL.md" } });
    const file = path.join(root, "a", "SKILL.md");
    let edited = false;
    setFaultHook((op, p) => {
      if (op === "readManifest" && p === path.join(root, "b", "SKILL.md") && !edited) {
        edited = true;
        fs.writeFileSync(file, skill("two-is-longer"));
      }
    });
    const items = scanSync(configOf(root)).roots[0] as readonly ScanItem[];
    expect(shown(items)).toEqual(["one: The one skill.", "two-is-longer: The two-is-longer skill."]);
  });
});
