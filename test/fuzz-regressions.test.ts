// Inputs that fuzzing found to hang or break the library, kept as fixed cases; each runs in a time box.
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { MAX_FRONTMATTER_LENGTH, repairYaml } from "../src/frontmatter.js";
import { createAgentSkills } from "../src/index.js";
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
