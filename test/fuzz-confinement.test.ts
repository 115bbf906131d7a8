// Property: resourcePath and loadSkill().resources only ever give regular files inside the skill's real directory.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { SKILL_ERROR_CODES } from "../src/errors.js";
import { type AgentSkills, createAgentSkills, SkillError } from "../src/index.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";
import { fuzzParams, inCaseDir } from "./helpers/fuzz.js";
import { timeBoxed } from "./helpers/timebox.js";

/**
 * Symlinks every tree holds, by name: to a file and a dir inside the tree, to a file and a dir of a sibling whose name has the skill dir's
 * as prefix (`s-evil` starts with `s`), outside, to itself, to the parent, and nowhere. Every tree
 * also holds `out-abs`, an absolute symlink to the outside dir.
 */
const TRAPS: Record<string, string> = {
  "link-file": "docs/real.md",
  "link-dir": "docs",
  evil: "../s-evil/x.txt",
  "evil-dir": "../s-evil",
  out: "../../outside/secret.txt",
  self: "self",
  parent: "..",
  dangling: "missing",
};

/** Names for entries of the skill tree, and segments of requested paths. */
// biome-ignore format: a table reads better packed
const NAMES = [
  "a", "b.txt", "dir", "sub", ".hidden", "...", "a b", "ü", "SKILL.md", "skill.md", "back\\slash", "ｄir",
  "x".repeat(255), "pipe", "docs", "real.md", "out-abs", "s", ...Object.keys(TRAPS),
];
/** Segments only a request holds: dots, separators, NUL, look-alikes of `.` and `/`, absolute starts, huge names. */
// biome-ignore format: a table reads better packed
const TRICKS = [
  "..", ".", "", "/", "\\", "\0", "\u2024", "\u2025", "\uFF0E\uFF0E", "\u2215", "\u2044", "\uFF0F", "%2e%2e",
  "..%2f", "C:", "c:\\", "\\\\host\\share", "//", "~", " ", "..\u200B", "y".repeat(5000),
];

/**
 * Where a random entry's symlink may point: in the tree (relative and absolute), the skill dir and
 * above, the sibling, outside, nowhere, itself. `{ws}` and `{s}` stand for the workspace and the skill dir.
 */
// biome-ignore format: a table reads better packed
const TARGETS = [
  "a", "dir", "dir/b.txt", "sub/a", ".", "..", "../..", "../s", "../s-evil", "../s-evil/x.txt", "../../outside",
  "../../outside/secret.txt", "{ws}/outside/secret.txt", "{ws}/outside", "{s}/a", "{s}/dir", "/", "missing",
  "self", "pipe", "SKILL.md", "evil", "parent",
];

const entry = fc.record({
  at: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  kind: fc.oneof(
    { weight: 2, arbitrary: fc.constant({ file: true as const }) },
    { weight: 1, arbitrary: fc.constant({ dir: true as const }) },
    { weight: 4, arbitrary: fc.constantFrom(...TARGETS).map((symlink) => ({ symlink })) },
  ),
});

const shape = fc.record({
  entries: fc.array(entry, { maxLength: 30 }),
  /** How the root reaches the skill: its own dir, a symlinked root, or a symlinked skill dir. */
  reach: fc.constantFrom("direct", "root-link", "dir-link"),
  follow: fc.boolean(),
  manifestLink: fc.boolean(),
});
type Shape = typeof shape extends fc.Arbitrary<infer S> ? S : never;

/** Write the tree; entries whose place is taken or whose parent is not a directory are left out. */
function build(ws: string, s: Shape): { skills: AgentSkills; dir: string; real: string } {
  writeTree(
    {
      "outside/secret.txt": "secret",
      "outside/inner/x.txt": "x",
      "skills/s-evil/x.txt": "sibling",
      "skills/s/pipe": { fifo: true },
      "skills/s/docs/real.md": skill("s"),
      ...Object.fromEntries(Object.entries(TRAPS).map(([name, to]) => [`skills/s/${name}`, { symlink: to }])),
      "skills/s/SKILL.md": s.manifestLink ? { symlink: "docs/real.md" } : skill("s"),
    },
    ws,
  );
  const real = path.join(ws, "skills", "s");
  fs.symlinkSync(path.join(ws, "outside"), path.join(real, "out-abs"));
  for (const { at, kind } of s.entries) {
    const abs = path.join(real, ...at);
    try {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      if ("file" in kind) fs.writeFileSync(abs, at.join("/"), { flag: "wx" });
      else if ("dir" in kind) fs.mkdirSync(abs);
      else fs.symlinkSync(kind.symlink.replace("{ws}", ws).replace("{s}", real), abs);
    } catch {
      // The place is taken, or a parent is a file or a symlink: this entry does not fit the tree.
    }
  }
  let root = path.join(ws, "skills");
  if (s.reach === "root-link") {
    fs.symlinkSync(root, path.join(ws, "root-link"));
    root = path.join(ws, "root-link");
  } else if (s.reach === "dir-link") {
    fs.mkdirSync(path.join(ws, "dir-link"));
    fs.symlinkSync(real, path.join(ws, "dir-link", "s"));
    root = path.join(ws, "dir-link");
  }
  const skills = createAgentSkills({ roots: [{ path: root }], followSymlinks: s.follow });
  return { skills, dir: path.join(root, "s"), real };
}

/** Without following symlinks, a symlinked skill dir or manifest is ignored: then there is no skill. */
function discovered(s: Shape): boolean {
  return s.follow || (s.reach !== "dir-link" && !s.manifestLink);
}

/** The spec's order for what it can decide without the file system: invalid_input, then path_escape. */
function lexical(rel: string): "invalid_input" | "path_escape" | undefined {
  if (rel === "" || rel.includes("\0") || /^(?:[\\/]|[A-Za-z]:)/.test(rel)) return "invalid_input";
  let depth = 0;
  for (const part of rel.split(/[\\/]/)) {
    if (part === "..") depth--;
    else if (part !== "" && part !== ".") depth++;
    if (depth < 0) return "path_escape";
  }
  return undefined;
}

/**
 * resourcePath either refuses with a SkillError of the spec's codes, or gives a regular file inside the
 * real skill dir; true when it gave one.
 */
function checkRequest(skills: AgentSkills, dir: string, real: string, follow: boolean, rel: string): boolean {
  let got: string;
  try {
    got = timeBoxed({ dir, rel }, () => skills.resourcePath("s", rel));
  } catch (e) {
    expect(e).toBeInstanceOf(SkillError);
    const code = (e as SkillError).code;
    expect(SKILL_ERROR_CODES).toContain(code);
    expect(["invalid_input", "path_escape", "not_found", "not_a_file"]).toContain(code);
    const early = lexical(rel);
    if (early !== undefined) expect(code).toBe(early);
    return false;
  }
  expect(lexical(rel)).toBeUndefined();
  expect(path.isAbsolute(got)).toBe(true);
  expect(fs.lstatSync(got).isFile()).toBe(true);
  expect(fs.realpathSync(got)).toBe(got);
  expect(got.startsWith(real + path.sep)).toBe(true);
  if (!follow) {
    // Not through any symlink inside the skill, along the path as resolved lexically: `x/..` never
    // touches x, which need not exist (a fuzz run found `⁄/../SKILL.md` served, and this check failing).
    const parts: string[] = [];
    for (const p of rel.split(/[\\/]/)) {
      if (p === "..") parts.pop();
      else if (p !== "" && p !== ".") parts.push(p);
    }
    parts.forEach((_, i) => {
      expect(fs.lstatSync(path.join(dir, ...parts.slice(0, i + 1))).isSymbolicLink()).toBe(false);
    });
  }
  return true;
}

const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const request = fc.oneof(
  { weight: 4, arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/")) },
  { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
);

describe("confinement in a skill tree full of symlinks", () => {
  test("resourcePath gives a regular file inside the real skill dir, or a SkillError of the spec's codes", async () => {
    const base = tempDir();
    // Every name, alone and as a dir, besides the random requests: each trap is tried in each tree.
    const every = NAMES.flatMap((n) => [n, `${n}/real.md`, `${n}/x.txt`]);
    // A resourcePath that refused everything would pass every check: the files that are there must be served.
    let trees = 0;
    let served = 0;
    await fc.assert(
      fc.asyncProperty(shape, fc.array(request, { minLength: 10, maxLength: 40 }), (s, rels) =>
        inCaseDir(base, (ws) => {
          const { skills, dir, real } = build(ws, s);
          if (!discovered(s)) {
            expect(skills.getSkill("s")).toBeUndefined();
            return;
          }
          trees++;
          // docs/real.md is a regular file in every tree (no entry can take its place).
          expect(skills.resourcePath("s", "docs/real.md")).toBe(path.join(real, "docs", "real.md"));
          for (const rel of [...rels, ...every]) if (checkRequest(skills, dir, real, s.follow, rel)) served++;
        }),
      ),
      fuzzParams(60),
    );
    expect(trees).toBeGreaterThan(0);
    expect(served).toBeGreaterThan(trees);
  });

  test("every entry of loadSkill().resources resolves to a regular file inside the real skill dir", async () => {
    const base = tempDir();
    await fc.assert(
      fc.asyncProperty(shape, (s) =>
        inCaseDir(base, (ws) => {
          const { skills, real } = build(ws, s);
          const content = timeBoxed(s, () => skills.loadSkill("s"));
          if (!discovered(s)) return;
          const resources = content?.resources ?? [];
          expect(resources).toContain("docs/real.md");
          expect([...resources].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(resources);
          expect(new Set(resources).size).toBe(resources.length);
          expect(resources).not.toContain("SKILL.md");
          for (const rel of resources) {
            expect(rel.split("/").every((p) => p !== "" && p !== "." && p !== "..")).toBe(true);
            const got = skills.resourcePath("s", rel);
            expect(fs.lstatSync(got).isFile()).toBe(true);
            expect(got.startsWith(real + path.sep)).toBe(true);
            if (!s.follow) expect(got).toBe(path.join(real, ...rel.split("/")));
          }
        }),
      ),
      fuzzParams(80),
    );
  });
});
