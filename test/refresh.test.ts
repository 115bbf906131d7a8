// Incremental refresh: what is reused while signatures hold, and every kind of change that must still be seen.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { createAgentSkills } from "../src/index.js";
import { callSites } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

const age = pastTrustWindow;

/** The fs calls `fn` makes, by kind. */
function opsOf(fn: () => void): Record<string, number> {
  const ops: Record<string, number> = {};
  setFaultHook((op) => {
    ops[op] = (ops[op] ?? 0) + 1;
  });
  try {
    fn();
  } finally {
    setFaultHook(null);
  }
  return ops;
}

/** Rewrite a file with new content of the same length. */
function sameSizeEdit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, "utf8");
  expect(to.length).toBe(from.length);
  fs.writeFileSync(file, text.replace(from, to));
}

const NOTHING = { added: [], removed: [], changed: [] };

/** An instance past its first refresh, which takes the directory signatures that later ones compare. */
function watched(options: Parameters<typeof createAgentSkills>[0]) {
  const s = createAgentSkills(options);
  expect(s.refresh()).toEqual(NOTHING);
  return s;
}

describe("refresh reuses what did not change", () => {
  test("an unchanged store costs one stat per root and two per skill, and nothing is listed or read", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), "c/notes.txt": "x" });
    await age(path.join(root, "b/SKILL.md"));
    const s = createAgentSkills({ roots: [{ path: root }] });
    // Discovery takes the roots' signatures but not the skill directories'; the first refresh does, and
    // lists again only the directory without a manifest: the others' listings are vouched for by their
    // age and by their manifest, unchanged since discovery.
    expect(opsOf(() => s.refresh())).toEqual({ readdir: 1, stat: 6 });
    let result: unknown;
    expect(opsOf(() => (result = s.refresh()))).toEqual({ stat: 6 });
    expect(result).toEqual(NOTHING);
    expect(s.listSkills().map((x) => x.description)).toEqual(["The a skill.", "The b skill."]);
  });

  test("the first refresh lists a directory again once its manifest changed since discovery", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "First words."), "b/SKILL.md": skill("b") });
    const file = path.join(root, "a/SKILL.md");
    await age(file);
    const s = createAgentSkills({ roots: [{ path: root }] });
    await age(file);
    sameSizeEdit(file, "First words.", "Other words.");
    // a's directory is as old as before, but its manifest is not the file read: list it and read it.
    // Its manifest is stat'ed once, to vouch for the listing: seen changed there, it is not stat'ed again
    // before the read. The root and each directory are stat'ed, and b's manifest.
    expect(opsOf(() => expect(s.refresh()).toEqual({ ...NOTHING, changed: ["a"] }))).toEqual({
      readdir: 1,
      readManifest: 1,
      stat: 5,
    });
    expect(s.getSkill("a")?.description).toBe("Other words.");
  });

  test("the first refresh sees a directory changed since discovery, however soon", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    await age(path.join(root, "a/SKILL.md"));
    const s = createAgentSkills({ roots: [{ path: root }] });
    // A second manifest beside the first changes the directory, not the manifest read.
    fs.writeFileSync(path.join(root, "a/skill.md"), skill("a", "Lower case."));
    expect(s.refresh()).toEqual(NOTHING);
    expect(s.warnings.map((w) => w.code)).toEqual(["multiple_manifests"]);
  });

  test("a missing root that cannot be checked reports why, instead of seeming absent", () => {
    const missing = path.join(writeTree({}), "nope");
    setFaultHook((op, p) => {
      if (op === "stat" && p === missing) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    });
    const s = createAgentSkills({ roots: [{ path: missing }] });
    setFaultHook(null);
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([
      ["root_unreadable", `root ${missing} cannot be read (EIO)`],
    ]);
    expect(createAgentSkills({ roots: [{ path: missing }] }).warnings).toEqual([]);
  });

  test("a manifest changed too recently to trust its signature is read again at every refresh", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    // Both old enough to be trusted, so b is not read again: only a's future timestamp makes a read.
    await age(path.join(root, "b/SKILL.md"));
    const a = path.join(root, "a/SKILL.md");
    // A timestamp in the future is never older than the trust window.
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(a, later, later);
    const s = createAgentSkills({ roots: [{ path: root }] });
    const reads = () => callSites(() => s.refresh()).filter(([op]) => op === "readManifest");
    expect(reads()).toEqual([["readManifest", a]]);
    expect(reads()).toEqual([["readManifest", a]]);
  });
});

describe("refresh sees every change", () => {
  // A warning item that says the same as the last scan's counts as no change (a watcher repeated them
  // all at each poll); one that says something else must still replace it.
  test("a warning that changes is the one kept: a dangling link become a loop, a second manifest gone", async () => {
    const root = writeTree({
      "a/SKILL.md": skill("a"),
      gone: { symlink: "nowhere" },
      "m/SKILL.md": { symlink: "nowhere" },
      "m/skill.md": skill("m"),
    });
    // Old enough to be trusted: unchanged skills are then carried over, not read again (a new read
    // would make the scan differ anyway, whatever its warnings).
    await age(path.join(root, "a", "SKILL.md"));
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
    const shown = () =>
      s.warnings.map((w) => `${w.code} ${w.message.includes("ELOOP") ? "ELOOP" : "ENOENT"}`);
    expect(shown()).toEqual([
      "dangling_symlink ENOENT",
      "multiple_manifests ENOENT",
      "dangling_symlink ENOENT",
    ]);
    fs.unlinkSync(path.join(root, "gone"));
    fs.symlinkSync("gone", path.join(root, "gone"));
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: [] });
    expect(shown()).toEqual([
      "dangling_symlink ELOOP",
      "multiple_manifests ENOENT",
      "dangling_symlink ENOENT",
    ]);
    fs.unlinkSync(path.join(root, "m", "skill.md"));
    s.refresh();
    expect(shown()).toEqual(["dangling_symlink ELOOP", "dangling_symlink ENOENT"]);
  });

  test("an edit that keeps the file's size", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "First words."), "b/SKILL.md": skill("b") });
    const file = path.join(root, "a/SKILL.md");
    await age(file);
    const s = watched({ roots: [{ path: root }] });
    sameSizeEdit(file, "First words.", "Other words.");
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: ["a"] });
    expect(s.getSkill("a")?.description).toBe("Other words.");
  });

  test("forty manifests edited at once: each is listed as changed and serves its new description", async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 40; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`, `Old words ${i}.`);
    const root = writeTree(tree);
    await age(path.join(root, "s39/SKILL.md"));
    const s = watched({ roots: [{ path: root }] });
    for (let i = 0; i < 40; i++) {
      fs.writeFileSync(path.join(root, `s${i}/SKILL.md`), skill(`s${i}`, `New words, number ${i}.`));
    }
    const names = Array.from({ length: 40 }, (_, i) => `s${i}`).sort();
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: names });
    expect(names.map((name) => s.getSkill(name)?.description)).toEqual(
      names.map((name) => `New words, number ${name.slice(1)}.`),
    );
  });

  test("a file replaced by another one renamed over it, even with the old mtime", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "First words.") });
    const file = path.join(root, "a/SKILL.md");
    await age(file);
    const s = watched({ roots: [{ path: root }] });
    const { mtime } = fs.statSync(file);
    const next = path.join(root, "a/.SKILL.md.new");
    fs.writeFileSync(next, skill("a", "Other words."));
    fs.utimesSync(next, mtime, mtime);
    fs.renameSync(next, file);
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: ["a"] });
    expect(s.getSkill("a")?.description).toBe("Other words.");
  });

  test("a renamed skill directory", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    await age(path.join(root, "b/SKILL.md"));
    const s = watched({ roots: [{ path: root }] });
    fs.renameSync(path.join(root, "b"), path.join(root, "b2"));
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: ["b"] });
    expect(s.getSkill("b")?.dir).toBe(path.join(root, "b2"));
    expect(s.warnings.map((w) => w.code)).toEqual(["name_mismatch"]);
  });

  test("a skill symlink pointed at another directory, the manifest path staying the same", async () => {
    const base = writeTree({
      "one/SKILL.md": skill("x", "First words."),
      "two/SKILL.md": skill("x", "Other words."),
      "root/x": { symlink: "../one" },
    });
    const root = path.join(base, "root");
    await age(path.join(base, "two/SKILL.md"));
    const s = watched({ roots: [{ path: root }] });
    fs.unlinkSync(path.join(root, "x"));
    fs.symlinkSync("../two", path.join(root, "x"));
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: ["x"] });
    expect(s.getSkill("x")?.description).toBe("Other words.");
    expect(s.getSkill("x")?.path).toBe(path.join(root, "x", "SKILL.md"));
  });

  test("a dangling skill symlink whose target appears, the root itself untouched", async () => {
    const base = writeTree({
      "root/a/SKILL.md": skill("a"),
      "root/later": { symlink: "../elsewhere/later" },
    });
    const root = path.join(base, "root");
    await age(path.join(root, "a/SKILL.md"));
    const s = watched({ roots: [{ path: root }] });
    expect(s.warnings.map((w) => w.code)).toEqual(["dangling_symlink"]);
    writeTree({ "elsewhere/later/SKILL.md": skill("later") }, base);
    expect(s.refresh()).toEqual({ added: ["later"], removed: [], changed: [] });
    expect(s.warnings).toEqual([]);
  });

  test("an added and a removed skill, and a name that a later root takes over", async () => {
    const first = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    const second = writeTree({ "z/SKILL.md": skill("z") });
    await age(path.join(second, "z/SKILL.md"));
    const s = watched({ roots: [{ path: first }, { path: second }] });
    fs.rmSync(path.join(first, "a"), { recursive: true });
    writeTree({ "c/SKILL.md": skill("c"), "b/SKILL.md": skill("b", "From the later root.") }, second);
    expect(s.refresh()).toEqual({ added: ["c"], removed: ["a"], changed: ["b"] });
    expect(s.getSkill("b")?.root).toBe(second);
  });

  test("a second manifest appearing beside the first in an otherwise untouched directory", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    await age(path.join(root, "a/SKILL.md"));
    const s = watched({ roots: [{ path: root }] });
    fs.writeFileSync(path.join(root, "a/skill.md"), skill("a", "Lower case."));
    expect(s.refresh()).toEqual(NOTHING);
    expect(s.warnings.map((w) => w.code)).toEqual(["multiple_manifests"]);
    expect(s.getSkill("a")?.description).toBe("The a skill.");
  });

  test("a manifest that becomes invalid, and valid again", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    const file = path.join(root, "a/SKILL.md");
    await age(file);
    const s = watched({ roots: [{ path: root }] });
    const good = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, "no fences here\n");
    expect(s.refresh()).toEqual({ added: [], removed: ["a"], changed: [] });
    expect(s.warnings.map((w) => w.code)).toEqual(["invalid_skill"]);
    fs.writeFileSync(file, good);
    expect(s.refresh()).toEqual({ added: ["a"], removed: [], changed: [] });
    expect(s.warnings).toEqual([]);
  });
});
