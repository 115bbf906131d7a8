// Resource enumeration and confinement at their edges: where each limit stops, what is listed after it,
// depth through links, the final sort, dot parts in a path, and the exact text of every message.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { type AgentSkills, createAgentSkills, SkillError } from "../src/index.js";
import { MAX_DEPTH, MAX_DIRECTORIES } from "../src/resources.js";
import { errnoError } from "./helpers/faults.js";
import { skill, type Tree, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

function open(tree: Tree): { root: string; skills: AgentSkills } {
  const root = writeTree({ "s/SKILL.md": skill("s"), ...tree });
  return { root, skills: createAgentSkills({ roots: [{ path: root }], onWarning: () => {} }) };
}

/** The resources of skill `s` and its warnings as `[code, message]`. */
function listing(skills: AgentSkills): { resources: readonly string[]; warnings: string[][] } {
  const content = skills.loadSkill("s");
  if (content === undefined) throw new Error("skill s is not loaded");
  return { resources: content.resources, warnings: content.warnings.map((w) => [w.code, w.message]) };
}

/** The SkillError `resourcePath("s", rel)` throws, as `code: message`. */
function refusal(skills: AgentSkills, rel: string): string {
  try {
    skills.resourcePath("s", rel);
  } catch (e) {
    if (e instanceof SkillError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "served";
}

describe("limits: once one is met, nothing more is listed", () => {
  test("a file after the directory that met the directory limit is not listed", () => {
    const { root, skills } = open({ "s/z.txt": "z" });
    for (let i = 0; i < MAX_DIRECTORIES; i++)
      fs.mkdirSync(path.join(root, "s", "d", `e${i}`), { recursive: true });
    expect(listing(skills)).toEqual({
      resources: [],
      warnings: [
        [
          "resource_limit",
          `${path.join(root, "s")} has more than ${MAX_DIRECTORIES} directories; listing stopped there`,
        ],
      ],
    });
  });

  test("a linked directory waiting its turn is not walked once the directory limit is met", () => {
    const { root, skills } = open({ "s/a-link": { symlink: "z" }, "s/z/f.txt": "f" });
    for (let i = 0; i < MAX_DIRECTORIES; i++)
      fs.mkdirSync(path.join(root, "s", "b", `e${i}`), { recursive: true });
    const { resources, warnings } = listing(skills);
    expect(resources).toEqual([]);
    expect(warnings.map(([code]) => code)).toEqual(["resource_limit"]);
  });

  test("the depth limit names the directory it leaves out", () => {
    const deep = Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `d${i}`).join("/");
    const { root, skills } = open({ [`s/${deep}/f.txt`]: "f" });
    expect(listing(skills).warnings).toEqual([
      [
        "resource_limit",
        `${path.join(root, "s", ...deep.split("/"))} is nested deeper than ${MAX_DEPTH} levels; not listed`,
      ],
    ]);
  });

  test("depth below a linked directory counts from the link's own depth", () => {
    // The link's target lies below the depth limit, so only the link reaches it; below it, 31 more levels
    // are listed (the link is level 1) and the 32nd is not.
    const chain = Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `d${i}`).join("/");
    const below = Array.from({ length: MAX_DEPTH - 1 }, (_, i) => `e${i + 1}`).join("/");
    const { root, skills } = open({
      [`s/${chain}/${below}/f.txt`]: "f",
      [`s/${chain}/${below}/e${MAX_DEPTH}/g.txt`]: "g",
      "s/l": { symlink: chain },
    });
    const { resources, warnings } = listing(skills);
    expect(resources).toEqual([`l/${below}/f.txt`]);
    expect(warnings).toEqual([
      [
        "resource_limit",
        `${path.join(root, "s", ...chain.split("/"))} is nested deeper than ${MAX_DEPTH} levels; not listed`,
      ],
      [
        "resource_limit",
        `${path.join(root, "s", "l", ...below.split("/"), `e${MAX_DEPTH}`)} is nested deeper than ${MAX_DEPTH} levels; not listed`,
      ],
    ]);
  });
});

describe("what is listed", () => {
  test("sorted as a whole, not directory by directory: a.txt before a/x.txt", () => {
    const { skills } = open({ "s/a/x.txt": "x", "s/a.txt": "a", "s/a-b.txt": "ab" });
    expect(listing(skills).resources).toEqual(["a-b.txt", "a.txt", "a/x.txt"]);
  });

  test("only the skill's own manifest is left out: a SKILL.md below it is a resource", () => {
    const { skills } = open({ "s/templates/SKILL.md": skill("template") });
    expect(listing(skills).resources).toEqual(["templates/SKILL.md"]);
  });

  test("a link to a FIFO is neither a file nor a directory: not listed, silently", () => {
    const { skills } = open({ "s/pipe": { fifo: true }, "s/pipe-link": { symlink: "pipe" }, "s/f.txt": "f" });
    expect(listing(skills)).toEqual({ resources: ["f.txt"], warnings: [] });
  });

  test("a directory that cannot be read is named with its errno", () => {
    const { root, skills } = open({ "s/sub/x.txt": "x", "s/y.txt": "y" });
    const sub = path.join(root, "s", "sub");
    setFaultHook((op, p) => {
      if (op === "readdir" && p === sub) throw errnoError("EACCES");
    });
    expect(listing(skills)).toEqual({
      resources: ["y.txt"],
      warnings: [["resource_skipped", `${sub} cannot be read (EACCES)`]],
    });
  });
});

describe("resourcePath: dot parts and the text of each refusal", () => {
  const { root, skills } = open({ "s/scripts/run.sh": "run" });
  const at = (rel: string) => path.join(root, "s", rel);

  test.each([
    ["./../x", "a `.` part is no directory to climb out of"],
    ["scripts//../../x", "an empty part is no directory to climb out of"],
    ["scripts/./../../x", "nor is a `.` part in the middle"],
  ])("%s is path_escape: %s", (rel) => {
    expect(refusal(skills, rel)).toBe(
      `path_escape: resource "${rel}" of skill "s" leads outside the skill directory`,
    );
  });

  test("a NUL byte", () => {
    expect(refusal(skills, "run.sh\0.png")).toBe(
      'invalid_input: resource "run.sh\\u0000.png" of skill "s" contains a NUL byte',
    );
  });

  test("a missing file, and a path through a file", () => {
    expect(refusal(skills, "missing.txt")).toBe(
      `not_found: resource "missing.txt" of skill "s" does not exist: ${at("missing.txt")} (ENOENT)`,
    );
    expect(refusal(skills, "SKILL.md/x")).toBe(
      `not_found: resource "SKILL.md/x" of skill "s" does not exist: ${at("SKILL.md/x")} (ENOTDIR)`,
    );
  });

  test("a file that cannot be read is not_found saying so, with its errno", () => {
    setFaultHook((op, p) => {
      if (op === "realpath" && p === at("scripts/run.sh")) throw errnoError("EACCES");
    });
    expect(refusal(skills, "scripts/run.sh")).toBe(
      `not_found: resource "scripts/run.sh" of skill "s" cannot be read: ${at("scripts/run.sh")} (EACCES)`,
    );
  });

  test("a file gone between its realpath and its stat does not exist, with no errno to name", () => {
    setFaultHook((op, p) => {
      if (op === "stat" && p === at("scripts/run.sh")) throw errnoError("ENOENT");
    });
    expect(refusal(skills, "scripts/run.sh")).toBe(
      `not_found: resource "scripts/run.sh" of skill "s" does not exist: ${at("scripts/run.sh")}`,
    );
  });
});
