// Inputs that fuzzing found to hang or break the library, kept as fixed cases; each runs in a time box.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { MAX_FRONTMATTER_LENGTH, parseFrontmatter, repairYaml } from "../src/frontmatter.js";
import { createAgentSkills, createAgentSkillsAsync, type SkillWarning, setWarnSink } from "../src/index.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";
import { timeBoxed } from "./helpers/timebox.js";

test("repair stays linear on a line with a long run of blanks (it backtracked quadratically: minutes on 1 MiB)", () => {
  const blanks = " \t".repeat(500_000);
  const text = `description: use: it\nz: q${blanks}w\n`;
  expect(timeBoxed("repairYaml, 1 MiB of blanks", () => repairYaml(text))).toBe(
    `description: "use: it"\nz: q${blanks}w\n`,
  );
});

describe("frontmatter length", () => {
  // 90,000 distinct keys in under 1 MiB: the YAML parser's duplicate-key check took minutes over them.
  const keys = Array.from({ length: 90_000 }, (_, i) => `k${i}: v`).join("\n");
  const limit = MAX_FRONTMATTER_LENGTH;

  test("a frontmatter over the limit is an invalid skill, at once", () => {
    const root = writeTree({
      "big/SKILL.md": manifest(`name: big\ndescription: Big.\n${keys}`),
      "ok/SKILL.md": skill("ok"),
    });
    const file = path.join(root, "big", "SKILL.md");
    const skills = timeBoxed("1 MiB of distinct keys", () => createAgentSkills({ roots: [{ path: root }] }));
    expect(skills.listSkills().map((s) => s.name)).toEqual(["ok"]);
    const length = `name: big\ndescription: Big.\n${keys}\n`.length;
    expect(skills.warnings).toEqual([
      {
        code: "invalid_skill",
        message: `${file}: frontmatter is ${length} characters long, over the limit of ${limit}; skipped`,
        path: file,
      },
    ]);
  });

  test("a frontmatter of exactly the limit loads", () => {
    const head = "name: edge\ndescription: At the limit.\n# ";
    const text = `${head}${"x".repeat(limit - head.length - 1)}\n`;
    expect(text.length).toBe(limit);
    const root = writeTree({ "edge/SKILL.md": `---\n${text}---\nBody.\n` });
    expect(createAgentSkills({ roots: [{ path: root }] }).getSkill("edge")?.description).toBe(
      "At the limit.",
    );
  });
});

describe("deep nesting gets one verdict, whatever the caller's stack", () => {
  /** Call `fn` from `frames` frames deeper than here. */
  const deeper = <T>(frames: number, fn: () => T): T => (frames === 0 ? fn() : deeper(frames - 1, fn));
  const tooDeep = { ok: false, message: "frontmatter nests deeper than 64 levels" };

  // The parser overflowed its stack sooner when called from deeper down, and the overflow was reported
  // as a located YAML error that the repair then "fixed": the same text loaded or not by call depth.
  // (3000 levels no longer fit the full parser's 4 KiB: the length refuses them first.)
  test.each([65, 700, 2000])(
    "a mapping holding %i nested lists is refused from any call depth, never repaired",
    (levels) => {
      const text = `name: x\ndescription: y\nn: ${"[".repeat(levels)}${"]".repeat(levels)}\n`;
      for (const frames of [0, 2000, 4000, 6000]) {
        expect(
          deeper(frames, () => parseFrontmatter(text, true)),
          `${frames} frames down`,
        ).toEqual(tooDeep);
      }
    },
  );

  test("the sync and async scans agree on it", async () => {
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const root = writeTree({
      "a/SKILL.md": manifest(`name: a\ndescription: A.\nn: ${nest(800)}`),
      // The deepest allowed: the mapping and 63 lists inside it make 64 levels.
      "b/SKILL.md": manifest(`name: b\ndescription: B.\nn: ${nest(63)}`),
    });
    const sync = createAgentSkills({ roots: [{ path: root }] });
    const async = await createAgentSkillsAsync({ roots: [{ path: root }] });
    expect(sync.listSkills().map((s) => s.name)).toEqual(["b"]);
    expect(async.listSkills()).toEqual(sync.listSkills());
    expect(async.warnings).toEqual(sync.warnings);
    expect(sync.warnings.map((w) => w.message)).toEqual([
      `${path.join(root, "a", "SKILL.md")}: frontmatter nests deeper than 64 levels; skipped`,
    ]);
  });
});

describe("resources", () => {
  afterEach(() => setWarnSink(null));

  // resourcePath reads "\\" as a separator, so "back\\slash/a" was listed but answered not_found.
  test("a name with a backslash is left out of the list, with a warning: every listed entry resolves", () => {
    const root = writeTree({
      "s/SKILL.md": skill("s"),
      "s/back\\slash/a": "a",
      "s/ok.txt": "ok",
      "s/x\\y.md": "xy",
    });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const warnings: SkillWarning[] = [];
    setWarnSink((w) => warnings.push(w));
    const resources = skills.loadSkill("s")?.resources;
    expect(resources).toEqual(["ok.txt"]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ["resource_skipped", path.join(root, "s", "back\\slash")],
      ["resource_skipped", path.join(root, "s", "x\\y.md")],
    ]);
    expect(warnings[0]?.message).toContain("has a backslash in its name");
    expect(skills.resourcePath("s", "ok.txt")).toBe(path.join(root, "s", "ok.txt"));
  });
});

test("without following symlinks, `x/..` in a resource path is resolved lexically: x need not exist", () => {
  // Found by `npm run fuzz` (the property's own check lstat'ed the missing x); the library was right.
  const root = writeTree({ "s/SKILL.md": skill("s"), "s/ref.md": "ref", "s/link.md": { symlink: "ref.md" } });
  const skills = createAgentSkills({ roots: [{ path: root }], followSymlinks: false });
  expect(skills.resourcePath("s", "⁄/../ref.md//")).toBe(path.join(root, "s", "ref.md"));
  expect(() => skills.resourcePath("s", "missing/../link.md")).toThrow(
    expect.objectContaining({
      code: "not_found",
      message: expect.stringContaining("goes through a symlink"),
    }),
  );
});
