// SPEC §6: in-root duplicates, cross-root override, strict vs lenient, and explain's verdicts.
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills, SkillError } from "../src/index.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";

describe("duplicates within one root", () => {
  const root = () =>
    writeTree({
      "b-dir/SKILL.md": skill("same", "from b"),
      "a-dir/SKILL.md": skill("same", "from a"),
      "c-dir/SKILL.md": skill("same", "from c"),
    });

  test("lenient keeps the first by sorted directory order and warns for each other", () => {
    const r = root();
    const s = createAgentSkills({ roots: [{ path: r }] });
    expect(s.getSkill("same")?.description).toBe("from a");
    const dups = s.warnings.filter((w) => w.code === "duplicate_skill");
    expect(dups.map((w) => [w.path, w.skill])).toEqual([
      [path.join(r, "b-dir", "SKILL.md"), "same"],
      [path.join(r, "c-dir", "SKILL.md"), "same"],
    ]);
    expect(dups[0]?.message).toBe(
      `${path.join(r, "b-dir", "SKILL.md")}: skill "same" is declared again in the same root; ${path.join(r, "a-dir", "SKILL.md")} comes first and is kept`,
    );
  });

  test("strict throws duplicate_skill for the first duplicate", () => {
    const r = root();
    try {
      createAgentSkills({ roots: [{ path: r }], strict: true });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SkillError);
      expect((e as SkillError).code).toBe("duplicate_skill");
      expect((e as SkillError).path).toBe(path.join(r, "b-dir", "SKILL.md"));
      expect((e as SkillError).skill).toBe("same");
    }
  });

  test("strict throws the first problem met in root order and sorted directory order", () => {
    const first = writeTree({ "z/SKILL.md": skill("dup"), "y/SKILL.md": skill("dup") });
    const second = writeTree({ "a/SKILL.md": "not a manifest" });
    expect(() => createAgentSkills({ roots: [{ path: first }, { path: second }], strict: true })).toThrow(
      expect.objectContaining({ code: "duplicate_skill", path: path.join(first, "z", "SKILL.md") }),
    );
    expect(() => createAgentSkills({ roots: [{ path: second }, { path: first }], strict: true })).toThrow(
      expect.objectContaining({ code: "invalid_skill", path: path.join(second, "a", "SKILL.md") }),
    );
  });
});

describe("across roots: the last root wins", () => {
  test("a later root replaces an earlier one: no warning, not even under strict", () => {
    const low = writeTree({ "x/SKILL.md": skill("x", "low"), "only-low/SKILL.md": skill("only-low") });
    const high = writeTree({ "x/SKILL.md": skill("x", "high") });
    for (const strict of [false, true]) {
      const s = createAgentSkills({ roots: [{ path: low }, { path: high, source: "hi" }], strict });
      expect(s.getSkill("x")?.description).toBe("high");
      expect(s.getSkill("x")?.source).toBe("hi");
      expect(s.listSkills().map((k) => k.name)).toEqual(["only-low", "x"]);
      expect(s.warnings).toEqual([]);
    }
  });

  test("an invalid copy in a later root does not hide a valid earlier one", () => {
    const low = writeTree({ "x/SKILL.md": skill("x", "low") });
    const high = writeTree({ "x/SKILL.md": manifest("name: x") });
    const s = createAgentSkills({ roots: [{ path: low }, { path: high }] });
    expect(s.getSkill("x")?.description).toBe("low");
    expect(s.warnings.map((w) => w.code)).toEqual(["invalid_skill"]);
  });

  test("explain gives every candidate in precedence order with its verdict", () => {
    const r0 = writeTree({ "x/SKILL.md": skill("x", "r0") });
    const r1 = writeTree({ "a/SKILL.md": skill("x", "r1 first"), "b/SKILL.md": skill("x", "r1 dup") });
    const r2 = writeTree({ "x/SKILL.md": manifest("name: x") });
    const s = createAgentSkills({
      roots: [{ path: r0, scope: "user" }, { path: r1, source: "s1" }, { path: r2 }],
    });
    const ex = s.explain("x");
    expect(ex.map((c) => [c.rootIndex, c.path, c.verdict])).toEqual([
      [0, path.join(r0, "x", "SKILL.md"), "overridden"],
      [1, path.join(r1, "a", "SKILL.md"), "winner"],
      [1, path.join(r1, "b", "SKILL.md"), "duplicate"],
      [2, path.join(r2, "x", "SKILL.md"), "invalid"],
    ]);
    expect(ex[0]).toMatchObject({ name: "x", root: r0, scope: "user", source: "", dir: path.join(r0, "x") });
    expect(ex[0]?.reason).toBe(
      `overridden by ${path.join(r1, "a", "SKILL.md")}: root 1 comes later than root 0, and the last root wins`,
    );
    expect(ex[1]?.reason).toBe('wins: no later root declares "x"');
    expect(ex[3]?.reason).toBe(`${path.join(r2, "x", "SKILL.md")}: frontmatter "description" is missing`);
    expect(s.explain("nobody")).toEqual([]);
  });
});
