// SPEC §7 (resource enumeration) and §8 (resourcePath confinement, in its exact order of checks).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  type AgentSkills,
  createAgentSkills,
  SkillError,
  type SkillWarning,
  setWarnSink,
} from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setWarnSink(null));

function build() {
  const base = writeTree({
    "outside/secret.txt": "secret",
    "store/shared/SKILL.md": skill("shared"),
    "store/shared/scripts/x.sh": "x",
    "root/s/SKILL.md": skill("s"),
    "root/s/scripts/run.sh": "run",
    "root/s/references/guide.md": "guide",
    "root/s/assets": { dir: true },
    "root/s/deep/a/b/c.txt": "c",
    "root/s/deep/a/esc": { symlink: "placeholder" },
    "root/s/link-in": { symlink: "scripts/run.sh" },
    "root/s/link-dir-in": { symlink: "references" },
    "root/s/link-out": { symlink: "../../outside/secret.txt" },
    "root/s/link-dir-out": { symlink: "../../outside" },
    "root/s/link-sibling": { symlink: "../other/SKILL.md" },
    "root/s/link-dangling": { symlink: "nope.txt" },
    "root/s/loop": { symlink: "loop" },
    "root/s/fifo": { fifo: true },
    "root/other/SKILL.md": skill("other"),
  });
  // An absolute out-of-tree link two levels down.
  fs.rmSync(path.join(base, "root/s/deep/a/esc"));
  fs.symlinkSync(path.join(base, "outside", "secret.txt"), path.join(base, "root/s/deep/a/esc"));
  fs.symlinkSync(path.join(base, "store", "shared"), path.join(base, "root", "shared"));
  return { base, skillDir: path.join(base, "root", "s") };
}

function codeOf(s: AgentSkills, name: string, rel: unknown): string {
  try {
    return `ok:${s.resourcePath(name, rel as string)}`;
  } catch (e) {
    if (!(e instanceof SkillError)) throw e;
    return e.code;
  }
}

describe("resourcePath", () => {
  const { base, skillDir } = build();
  const follow = createAgentSkills({ roots: [{ path: path.join(base, "root") }] });
  const noFollow = createAgentSkills({ roots: [{ path: path.join(base, "root") }], followSymlinks: false });
  const real = (rel: string) => `ok:${path.join(skillDir, rel)}`;

  const cases: [string, AgentSkills, string, unknown, string][] = [
    ["unknown skill", follow, "nope", "scripts/run.sh", "not_found"],
    ["unknown skill before bad input", follow, "nope", "/etc/passwd", "not_found"],
    ["unknown skill before an empty path", follow, "nope", "", "not_found"],
    ["unknown skill before a path that is no string", follow, "nope", 42, "not_found"],
    ["a NUL byte before an escape", follow, "s", "../x\0", "invalid_input"],
    ["an absolute path before an escape", follow, "s", "/../x", "invalid_input"],
    ["not a string", follow, "s", 42, "invalid_input"],
    ["undefined", follow, "s", undefined, "invalid_input"],
    ["empty", follow, "s", "", "invalid_input"],
    ["absolute POSIX", follow, "s", "/etc/passwd", "invalid_input"],
    [
      "absolute inside the skill still refused",
      follow,
      "s",
      path.join(skillDir, "scripts/run.sh"),
      "invalid_input",
    ],
    ["Windows drive", follow, "s", "C:\\Windows\\win.ini", "invalid_input"],
    ["Windows drive, forward slash", follow, "s", "c:/x", "invalid_input"],
    ["drive-relative", follow, "s", "C:x", "invalid_input"],
    ["UNC", follow, "s", "\\\\server\\share\\x", "invalid_input"],
    ["leading backslash", follow, "s", "\\x", "invalid_input"],
    ["NUL byte", follow, "s", "scripts/run.sh\0.png", "invalid_input"],
    ["parent", follow, "s", "..", "path_escape"],
    ["parent then sibling", follow, "s", "../other/SKILL.md", "path_escape"],
    ["escape after descending", follow, "s", "scripts/../../other/SKILL.md", "path_escape"],
    ["escape to a missing file", follow, "s", "../does-not-exist", "path_escape"],
    ["escape with backslashes", follow, "s", "..\\other\\SKILL.md", "path_escape"],
    ["escape deep", follow, "s", "a/b/../../../x", "path_escape"],
    ["missing file", follow, "s", "missing.txt", "not_found"],
    ["missing in a dir", follow, "s", "scripts/missing.sh", "not_found"],
    ["through a file", follow, "s", "SKILL.md/x", "not_found"],
    ["dangling symlink", follow, "s", "link-dangling", "not_found"],
    ["symlink loop", follow, "s", "loop", "not_found"],
    ["out-of-tree file symlink", follow, "s", "link-out", "path_escape"],
    ["out-of-tree dir symlink", follow, "s", "link-dir-out/secret.txt", "path_escape"],
    ["sibling skill symlink", follow, "s", "link-sibling", "path_escape"],
    ["absolute out-of-tree symlink two levels down", follow, "s", "deep/a/esc", "path_escape"],
    ["a directory", follow, "s", "scripts", "not_a_file"],
    ["a directory with slash", follow, "s", "scripts/", "not_a_file"],
    ["the skill dir itself", follow, "s", ".", "not_a_file"],
    ["an empty dir", follow, "s", "assets", "not_a_file"],
    ["a FIFO", follow, "s", "fifo", "not_a_file"],
    ["a regular file", follow, "s", "scripts/run.sh", real("scripts/run.sh")],
    ["dots and double slashes", follow, "s", "./scripts//run.sh", real("scripts/run.sh")],
    ["in-tree parent steps", follow, "s", "scripts/../references/guide.md", real("references/guide.md")],
    ["backslash separator", follow, "s", "scripts\\run.sh", real("scripts/run.sh")],
    ["the manifest", follow, "s", "SKILL.md", real("SKILL.md")],
    ["deep file", follow, "s", "deep/a/b/c.txt", real("deep/a/b/c.txt")],
    ["in-tree file symlink gives the canonical target", follow, "s", "link-in", real("scripts/run.sh")],
    ["in-tree dir symlink", follow, "s", "link-dir-in/guide.md", real("references/guide.md")],
    [
      "symlinked skill dir: confined to its own realpath",
      follow,
      "shared",
      "scripts/x.sh",
      `ok:${path.join(base, "store/shared/scripts/x.sh")}`,
    ],
    ["symlinked skill dir: still no escape", follow, "shared", "../../outside/secret.txt", "path_escape"],
    ["no-follow: in-tree file symlink", noFollow, "s", "link-in", "not_found"],
    ["no-follow: in-tree dir symlink", noFollow, "s", "link-dir-in/guide.md", "not_found"],
    ["no-follow: escaping symlink is still path_escape", noFollow, "s", "link-out", "path_escape"],
    ["no-follow: dangling", noFollow, "s", "link-dangling", "not_found"],
    ["no-follow: regular file", noFollow, "s", "scripts/run.sh", real("scripts/run.sh")],
    ["no-follow: a directory", noFollow, "s", "scripts", "not_a_file"],
  ];

  test.each(cases)("%s", (_, s, name, rel, expected) => {
    expect(codeOf(s, name, rel)).toBe(expected);
  });

  test("errors name the skill, the value and the path", () => {
    try {
      follow.resourcePath("s", "../other/SKILL.md");
      expect.unreachable();
    } catch (e) {
      const err = e as SkillError;
      expect(err.name).toBe("SkillError");
      expect(err.message).toBe('resource "../other/SKILL.md" of skill "s" leads outside the skill directory');
      expect(err.skill).toBe("s");
      expect(err.path).toBe(path.join(base, "root", "other", "SKILL.md"));
    }
    expect(() => follow.resourcePath("ghost", "x")).toThrow('no skill named "ghost" is loaded');
  });
});

describe("resource enumeration", () => {
  test("regular files, recursively, sorted; in-tree links listed; others dropped with resource_skipped", () => {
    const { base } = build();
    const seen: SkillWarning[] = [];
    setWarnSink((w) => seen.push(w));
    const s = createAgentSkills({ roots: [{ path: path.join(base, "root") }] });
    // link-dir-in leads to references/, which is walked once, under its own name.
    expect(s.loadSkill("s")?.resources).toEqual([
      "deep/a/b/c.txt",
      "link-in",
      "references/guide.md",
      "scripts/run.sh",
    ]);
    expect(seen.map((w) => [w.code, path.basename(w.path ?? ""), w.skill])).toEqual([
      ["resource_skipped", "esc", "s"],
      ["resource_skipped", "link-dangling", "s"],
      ["resource_skipped", "link-dir-out", "s"],
      ["resource_skipped", "link-out", "s"],
      ["resource_skipped", "link-sibling", "s"],
      ["resource_skipped", "loop", "s"],
    ]);
    expect(seen[3]?.message).toBe(
      `symlink ${path.join(base, "root/s/link-out")} points outside the skill directory, to ${path.join(base, "outside/secret.txt")}; not listed`,
    );
    expect(s.warnings).toEqual([]);
    expect(s.loadSkill("shared")?.resources).toEqual(["scripts/x.sh"]);
  });

  test("followSymlinks false lists no symlink, silently", () => {
    const { base } = build();
    const seen: SkillWarning[] = [];
    setWarnSink((w) => seen.push(w));
    const s = createAgentSkills({ roots: [{ path: path.join(base, "root") }], followSymlinks: false });
    expect(s.loadSkill("s")?.resources).toEqual(["deep/a/b/c.txt", "references/guide.md", "scripts/run.sh"]);
    expect(seen).toEqual([]);
  });

  test("a symlink cycle inside the skill is walked once", () => {
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/d/f.txt": "f", "s/d/again": { symlink: ".." } });
    const s = createAgentSkills({ roots: [{ path: root }] });
    expect(s.loadSkill("s")?.resources).toEqual(["d/f.txt"]);
  });

  test("stops after 10,000 files with resource_limit", () => {
    // more/ comes after many/: once the limit is met it is not walked, so the limit warns once.
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/more/x.txt": "x" });
    const dir = path.join(root, "s", "many");
    fs.mkdirSync(dir);
    // Hard links to one empty file: an entry each, without a write each (a fresh clone's suite is timed).
    const seed = path.join(root, "seed");
    fs.writeFileSync(seed, "");
    for (let i = 0; i < 10_005; i++) fs.linkSync(seed, path.join(dir, `f${String(i).padStart(5, "0")}`));
    const seen: SkillWarning[] = [];
    setWarnSink((w) => seen.push(w));
    const s = createAgentSkills({ roots: [{ path: root }] });
    const resources = s.loadSkill("s")?.resources ?? [];
    expect(resources).toHaveLength(10_000);
    expect(resources[9_999]).toBe("many/f09999");
    expect(seen.map((w) => w.code)).toEqual(["resource_limit"]);
    expect(seen[0]?.message).toBe(`${path.join(root, "s")} has more than 10000 files; listing stopped there`);
  });

  test("entries skipped with a warning count toward the 10,000 too (audit D, finding 6)", () => {
    // 10,005 dangling symlinks and backslash names: each warned and none counted, so the listing (and
    // its warnings) never stopped: 60,000 entries gave 60,000 warnings on every loadSkill.
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/zz.txt": "z", seed: "" });
    const seed = path.join(root, "seed");
    const dir = path.join(root, "s", "many");
    fs.mkdirSync(dir);
    for (let i = 0; i < 10_005; i++) {
      const name = `f${String(i).padStart(5, "0")}`;
      if (i % 2 === 0) fs.symlinkSync("nowhere", path.join(dir, name));
      else fs.linkSync(seed, path.join(dir, `${name}\\x`));
    }
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
    const loaded = s.loadSkill("s");
    expect(loaded?.resources).toEqual([]);
    const codes = loaded?.warnings.map((w) => w.code) ?? [];
    expect(codes.filter((c) => c === "resource_skipped")).toHaveLength(10_000);
    expect(codes.at(-1)).toBe("resource_limit");
    expect(codes).toHaveLength(10_001);
  });

  test("does not descend below 32 levels, with resource_limit", () => {
    const deep = Array.from({ length: 34 }, (_, i) => `d${i}`).join("/");
    const root = writeTree({ "s/SKILL.md": skill("s"), [`s/${deep}/f.txt`]: "f", "s/d0/top.txt": "t" });
    const seen: SkillWarning[] = [];
    setWarnSink((w) => seen.push(w));
    const s = createAgentSkills({ roots: [{ path: root }] });
    expect(s.loadSkill("s")?.resources).toEqual(["d0/top.txt"]);
    expect(seen.map((w) => [w.code, path.basename(w.path ?? "")])).toEqual([["resource_limit", "d32"]]);
  });
});
