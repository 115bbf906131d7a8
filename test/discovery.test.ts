// SPEC §4: roots, candidates, manifest names, symlinks, one level deep, loops.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills } from "../src/index.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";

const load = (roots: string[], extra: { followSymlinks?: boolean; strict?: boolean } = {}) =>
  createAgentSkills({ roots: roots.map((p) => ({ path: p })), ...extra });
const names = (s: ReturnType<typeof load>) => s.listSkills().map((x) => x.name);
const codes = (s: ReturnType<typeof load>) => s.warnings.map((w) => w.code);

describe("roots", () => {
  test("a missing root contributes nothing, silently, even under strict", () => {
    const s = load([path.join(tempDir(), "missing")], { strict: true });
    expect(names(s)).toEqual([]);
    expect(s.warnings).toEqual([]);
  });

  test("a root below a file is missing, silently", () => {
    const base = writeTree({ file: "x" });
    expect(load([path.join(base, "file", "skills")]).warnings).toEqual([]);
  });

  test("a root that is a file warns root_not_directory, even under strict", () => {
    const base = writeTree({ file: "x" });
    const s = load([path.join(base, "file")], { strict: true });
    expect(s.warnings).toEqual([
      {
        code: "root_not_directory",
        message: `root ${path.join(base, "file")} is not a directory`,
        path: path.join(base, "file"),
      },
    ]);
  });

  // Root reads a chmod 000 folder anyway (CI runs as root), so this checks that the skill simply loads; an
  // unprivileged run skips it, saying so in its title. The unreadable root itself, as an unprivileged user
  // sees it, is checked in faults-privileges.test.ts.
  const asRoot = process.getuid?.() === 0;
  const rootTitle = "run as root, a chmod 000 root is still read: its skill loads, no warning";
  (asRoot ? test : test.skip)(asRoot ? rootTitle : `${rootTitle} [skipped: not run as root]`, () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    fs.chmodSync(root, 0o000);
    try {
      const s = load([root]);
      expect(names(s)).toEqual(["a"]);
      expect(s.warnings).toEqual([]);
    } finally {
      fs.chmodSync(root, 0o755);
    }
  });

  test("a symlinked root is always followed, even with followSymlinks false", () => {
    const real = writeTree({ "a/SKILL.md": skill("a") });
    const link = path.join(tempDir(), "root-link");
    fs.symlinkSync(real, link);
    const s = load([link], { followSymlinks: false });
    expect(names(s)).toEqual(["a"]);
    expect(s.listSkills()[0]?.root).toBe(link);
    expect(s.listSkills()[0]?.dir).toBe(path.join(link, "a"));
  });
});

describe("candidates and manifests", () => {
  test("only direct subdirectories with a manifest are skills; files, plain dirs and nested skills are not", () => {
    const root = writeTree({
      "a/SKILL.md": skill("a"),
      "SKILL.md": skill("top"),
      "notes.md": "x",
      "empty/README.md": "x",
      "group/inner/SKILL.md": skill("inner"),
    });
    const s = load([root]);
    expect(names(s)).toEqual(["a"]);
    expect(s.warnings).toEqual([]);
  });

  test("the manifest name is matched case-insensitively", () => {
    const root = writeTree({ "a/skill.md": skill("a"), "b/Skill.MD": skill("b"), "c/SKILL.md": skill("c") });
    const s = load([root]);
    expect(s.listSkills().map((x) => path.basename(x.path))).toEqual(["skill.md", "Skill.MD", "SKILL.md"]);
  });

  test("several manifests: SKILL.md wins, with multiple_manifests", () => {
    const root = writeTree({
      "a/skill.md": skill("lower"),
      "a/SKILL.md": skill("a"),
      "a/Skill.md": skill("mixed"),
    });
    const s = load([root]);
    expect(names(s)).toEqual(["a"]);
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        "multiple_manifests",
        `${path.join(root, "a")} has several manifests (SKILL.md, Skill.md, skill.md); using SKILL.md`,
      ],
    ]);
  });

  test("a dangling SKILL.md beside another manifest: both warnings (audit C, finding 7: the first was lost)", () => {
    const root = writeTree({ "a/SKILL.md": { symlink: "nowhere" }, "a/skill.md": skill("a") });
    const s = load([root]);
    expect(names(s)).toEqual([]);
    expect(s.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        "multiple_manifests",
        `${path.join(root, "a")} has several manifests (SKILL.md, skill.md); using SKILL.md`,
      ],
      [
        "dangling_symlink",
        `manifest symlink ${path.join(root, "a", "SKILL.md")} points to nothing usable (ENOENT); skipped`,
      ],
    ]);
  });

  test("several manifests without SKILL.md: the first in code-unit order", () => {
    const root = writeTree({ "a/skill.md": skill("lower"), "a/Skill.md": skill("mixed") });
    const s = load([root]);
    expect(names(s)).toEqual(["mixed"]);
    expect(codes(s)).toEqual(["multiple_manifests", "name_mismatch"]);
  });

  test("directories are visited in code-unit order (warnings follow it)", () => {
    const root = writeTree({
      "b/SKILL.md": skill("x"),
      "B/SKILL.md": skill("y"),
      "a/SKILL.md": skill("z"),
      "é/SKILL.md": skill("w"),
    });
    const s = load([root]);
    expect(s.warnings.map((w) => path.basename(path.dirname(w.path ?? "")))).toEqual(["B", "a", "b", "é"]);
  });

  test("each SkillInfo field", () => {
    const root = writeTree({ "pdf/SKILL.md": skill("pdf", "Read PDFs", "allowed-tools: Read") });
    const s = createAgentSkills({ roots: [{ path: root, scope: "user", source: "mine" }] });
    expect(s.listSkills()).toEqual([
      {
        name: "pdf",
        description: "Read PDFs",
        metadata: { name: "pdf", description: "Read PDFs", "allowed-tools": "Read" },
        allowedTools: ["Read"],
        userInvocable: true,
        scope: "user",
        source: "mine",
        root,
        dir: path.join(root, "pdf"),
        path: path.join(root, "pdf", "SKILL.md"),
      },
    ]);
    expect(Object.isFrozen(s.listSkills()[0])).toBe(true);
    expect(Object.isFrozen(s.listSkills())).toBe(true);
  });
});

describe("symlinks", () => {
  const tree = () => {
    const store = writeTree({ "shared/SKILL.md": skill("shared"), "file.md": skill("linked-manifest") });
    const root = writeTree({
      shared: { symlink: path.join(store, "shared") },
      "own/SKILL.md": { symlink: path.join(store, "file.md") },
      "plain/SKILL.md": skill("plain"),
    });
    return { store, root };
  };

  test("followed by default: a symlinked skill dir and a symlinked manifest load, paths as found", () => {
    const { root } = tree();
    const s = load([root]);
    expect(names(s)).toEqual(["linked-manifest", "plain", "shared"]);
    expect(s.getSkill("shared")?.dir).toBe(path.join(root, "shared"));
    expect(s.getSkill("shared")?.path).toBe(path.join(root, "shared", "SKILL.md"));
    expect(codes(s)).toEqual(["name_mismatch"]);
  });

  test("followSymlinks false ignores both, silently", () => {
    const { root } = tree();
    const s = load([root], { followSymlinks: false });
    expect(names(s)).toEqual(["plain"]);
    expect(s.warnings).toEqual([]);
  });

  test("a dangling skill-dir symlink and a dangling manifest symlink warn, even under strict", () => {
    const root = writeTree({
      gone: { symlink: "/nonexistent/agent-skills-test" },
      "half/SKILL.md": { symlink: "missing-target.md" },
      "ok/SKILL.md": skill("ok"),
    });
    const s = load([root], { strict: true });
    expect(names(s)).toEqual(["ok"]);
    expect(s.warnings.map((w) => [w.code, w.path])).toEqual([
      ["dangling_symlink", path.join(root, "gone")],
      ["dangling_symlink", path.join(root, "half", "SKILL.md")],
    ]);
    expect(s.warnings[0]?.message).toBe(
      `symlink ${path.join(root, "gone")} points to nothing usable (ENOENT); skipped`,
    );
  });

  test("a symlink to a file under the root is not a candidate", () => {
    const root = writeTree({ "f.md": "x", link: { symlink: "f.md" } });
    expect(load([root]).warnings).toEqual([]);
  });

  test("symlink loops and directory cycles never hang", () => {
    const root = writeTree({
      "loop-a": { symlink: "loop-b" },
      "loop-b": { symlink: "loop-a" },
      "self/SKILL.md": skill("self"),
      "self/again": { symlink: ".." },
      up: { symlink: "." },
    });
    const s = load([root]);
    expect(names(s)).toEqual(["self"]);
    expect(s.warnings.map((w) => [w.code, path.basename(w.path ?? "")])).toEqual([
      ["dangling_symlink", "loop-a"],
      ["dangling_symlink", "loop-b"],
    ]);
    expect(s.warnings[0]?.message).toContain("(ELOOP)");
    expect(s.loadSkill("self")?.resources).toEqual([]);
  });
});
