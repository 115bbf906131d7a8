// Issue 10, finding 2: the confinement base is the skill directory's real path recorded at discovery;
// a skill directory re-pointed since (here: replaced by a symlink to /) is refused, never followed.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills, SkillError, type SkillWarning } from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

function caught(fn: () => unknown): SkillError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SkillError);
    return e as SkillError;
  }
  throw new Error("did not throw");
}

describe.each([true, false])("a skill directory replaced after discovery (followSymlinks %s)", (follow) => {
  test("resourcePath and loadSkill refuse it instead of serving /", () => {
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/ok.txt": "x" });
    const seen: SkillWarning[] = [];
    const skills = createAgentSkills({
      roots: [{ path: root }],
      followSymlinks: follow,
      onWarning: (w) => seen.push(w),
    });
    const dir = path.join(root, "s");
    expect(skills.resourcePath("s", "ok.txt")).toBe(path.join(dir, "ok.txt"));
    fs.renameSync(dir, path.join(root, "moved"));
    fs.symlinkSync("/", dir);
    const e = caught(() => skills.resourcePath("s", "etc/passwd"));
    expect(e.code).toBe("path_escape");
    expect(e.message).toBe(
      `resource "etc/passwd" of skill "s" cannot be served: the skill directory now resolves to /, not ${dir} as discovered`,
    );
    const content = skills.loadSkill("s");
    expect(content?.resources).toEqual([]);
    expect(content?.warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      [
        "resource_skipped",
        dir,
        `skill directory ${dir} has changed since discovery: it now resolves to /, not ${dir}; not listed`,
      ],
    ]);
  });

  test("a directory that is gone is not_found; once a refresh sees the change, the snapshot follows it", () => {
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/ok.txt": "x" });
    const skills = createAgentSkills({
      roots: [{ path: root }],
      followSymlinks: follow,
      onWarning: () => {},
    });
    fs.rmSync(path.join(root, "s"), { recursive: true });
    expect(caught(() => skills.resourcePath("s", "ok.txt")).code).toBe("not_found");
    expect(skills.loadSkill("s")?.warnings.map((w) => w.code)).toEqual(["resource_skipped"]);
    writeTree({ "s/SKILL.md": skill("s"), "s/ok.txt": "y" }, root);
    skills.refresh();
    expect(skills.resourcePath("s", "ok.txt")).toBe(path.join(root, "s", "ok.txt"));
  });
});

test("a symlinked skill directory is confined to the target recorded at discovery", () => {
  const store = writeTree({ "real/SKILL.md": skill("s"), "real/a.txt": "a", "other/SKILL.md": skill("s") });
  const root = writeTree({ s: { symlink: path.join(store, "real") } });
  const skills = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
  expect(skills.resourcePath("s", "a.txt")).toBe(path.join(store, "real", "a.txt"));
  fs.rmSync(path.join(root, "s"));
  fs.symlinkSync(path.join(store, "other"), path.join(root, "s"));
  expect(caught(() => skills.resourcePath("s", "SKILL.md")).code).toBe("path_escape");
});

test("a root reached through a symlink records its skills under the root's real path", () => {
  const store = writeTree({ "s/SKILL.md": skill("s"), "s/a.txt": "a" });
  const link = path.join(writeTree({}), "root-link");
  fs.symlinkSync(store, link);
  const skills = createAgentSkills({ roots: [{ path: link }], onWarning: () => {} });
  expect(skills.getSkill("s")?.dir).toBe(path.join(link, "s"));
  expect(skills.resourcePath("s", "a.txt")).toBe(path.join(store, "s", "a.txt"));
  expect(skills.loadSkill("s")?.resources).toEqual(["a.txt"]);
});
