// Issue 10, finding 4: resource listing is bounded in directories too, and walks each real directory once.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { createAgentSkills } from "../src/index.js";
import { MAX_DIRECTORIES } from "../src/resources.js";
import { skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

/** The directories `run` reads, each with how many times. */
function readdirs(run: () => unknown): Map<string, number> {
  const seen = new Map<string, number>();
  setFaultHook((op, p) => {
    if (op === "readdir") seen.set(p, (seen.get(p) ?? 0) + 1);
  });
  try {
    run();
  } finally {
    setFaultHook(null);
  }
  return seen;
}

test("empty directories count: past the limit the listing stops with resource_limit", () => {
  const root = writeTree({ "s/SKILL.md": skill("s"), "s/z.txt": "z" });
  for (let i = 0; i < MAX_DIRECTORIES + 5; i++)
    fs.mkdirSync(path.join(root, "s", "d", `e${i}`), { recursive: true });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  const dirs = readdirs(() => skills.loadSkill("s"));
  const content = skills.loadSkill("s");
  expect(content?.warnings.map((w) => [w.code, w.message])).toEqual([
    [
      "resource_limit",
      `${path.join(root, "s")} has more than ${MAX_DIRECTORIES} directories; listing stopped there`,
    ],
  ]);
  expect([...dirs.values()].reduce((a, b) => a + b, 0)).toBe(MAX_DIRECTORIES);
});

test("a directory reached directly and through several links is read once, listed under its own path", () => {
  const root = writeTree({
    "s/SKILL.md": skill("s"),
    "s/data/x.txt": "x",
    "s/data/sub/y.txt": "y",
    "s/a-link": { symlink: "data" },
    "s/b-link": { symlink: "data" },
    "s/data/sub/up": { symlink: "../.." },
  });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  const dirs = readdirs(() => skills.loadSkill("s"));
  expect([...dirs.values()].every((n) => n === 1)).toBe(true);
  expect([...dirs.keys()].sort()).toEqual(
    [path.join(root, "s"), path.join(root, "s", "data"), path.join(root, "s", "data", "sub")].sort(),
  );
  expect(skills.loadSkill("s")?.resources).toEqual(["data/sub/y.txt", "data/x.txt"]);
});

test("a link to an in-skill directory lists its files once, under the directory's own path", () => {
  const root = writeTree({
    "s/SKILL.md": skill("s"),
    "s/.hidden/inner/f.txt": "f",
    "s/shown": { symlink: ".hidden/inner" },
  });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  expect(skills.loadSkill("s")?.resources).toEqual([".hidden/inner/f.txt"]);
});
