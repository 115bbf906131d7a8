// The real-skills corpus through discovery, each repository folder a root: exact counts, checked by hand on samples.
import { describe, expect } from "vitest";
import { createAgentSkills, SkillError } from "../src/index.js";
import { corpusRoots, corpusTest, HAS_CORPUS } from "./helpers/fixture.js";

const countCodes = (codes: string[]) => {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
};

describe("the real corpus", () => {
  const roots = HAS_CORPUS ? corpusRoots() : [];

  corpusTest("each repository alone: loaded skills and warnings", () => {
    const rows = roots.map((root) => {
      const s = createAgentSkills({ roots: [root] });
      return [root.source, s.listSkills().length, countCodes(s.warnings.map((w) => w.code))];
    });
    expect(rows).toEqual([
      ["K-Dense-AI__claude-scientific-skills", 107, {}],
      ["anthropics__knowledge-work-plugins", 193, { name_mismatch: 40, duplicate_skill: 7 }],
      ["anthropics__skills", 12, {}],
      ["github__awesome-copilot", 406, { name_mismatch: 15 }],
      ["obra__superpowers", 14, {}],
      ["openai__skills", 10, {}],
      [
        "openclaw__skills",
        837,
        { name_mismatch: 224, yaml_repaired: 44, invalid_skill: 138, duplicate_skill: 36, tools_ignored: 2 },
      ],
      ["sickn33__antigravity-awesome-skills", 345, { name_mismatch: 21 }],
      ["trailofbits__skills", 74, {}],
      ["wshobson__agents", 181, { name_mismatch: 1 }],
    ]);
  });

  corpusTest(
    "all ten roots together: last root wins across repositories, nothing throws in lenient mode",
    () => {
      const s = createAgentSkills({ roots });
      expect(s.listSkills()).toHaveLength(2106);
      expect(countCodes(s.warnings.map((w) => w.code))).toEqual({
        name_mismatch: 301,
        duplicate_skill: 43,
        yaml_repaired: 44,
        invalid_skill: 138,
        tools_ignored: 2,
      });
      // "skill-creator" is in three repositories: the last of them wins, the others are overridden.
      expect(s.explain("skill-creator").map((c) => [c.source, c.verdict])).toEqual([
        ["anthropics__skills", "overridden"],
        ["openai__skills", "overridden"],
        ["openclaw__skills", "winner"],
      ]);
      expect(s.getSkill("skill-creator")?.source).toBe("openclaw__skills");
    },
  );

  corpusTest("strict mode stops at the first problem in root order", () => {
    try {
      createAgentSkills({ roots, strict: true });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SkillError);
      expect((e as SkillError).code).toBe("duplicate_skill");
      expect((e as SkillError).skill).toBe("account-research");
    }
  });

  corpusTest("hand-checked samples", () => {
    const byName = (source: string) => createAgentSkills({ roots: roots.filter((r) => r.source === source) });
    const openclaw = byName("openclaw__skills");
    // Repaired: an unquoted "Use …: …" description.
    expect(
      openclaw.warnings.some((w) => w.code === "yaml_repaired" && w.path?.endsWith("/genlayer/SKILL.md")),
    ).toBe(true);
    expect(openclaw.getSkill("genlayer-claw-skill")?.description).toMatch(
      /^Understand and explain GenLayer - the AI-native blockchain/,
    );
    // Skipped: a file that starts with a markdown heading, and one with a git merge conflict in its frontmatter.
    const invalid = openclaw.warnings.filter((w) => w.code === "invalid_skill").map((w) => w.message);
    expect(invalid.find((m) => m.includes("/agent-memory/"))).toMatch(
      /SKILL\.md:1: does not start with a --- frontmatter fence/,
    );
    expect(invalid.find((m) => m.includes("/obsidian-daily/"))).toMatch(
      /SKILL\.md:4:1: invalid YAML: Implicit keys need to be on a single line/,
    );
    // Loaded under a lower-case manifest name, with its resources.
    const lower = openclaw.listSkills().find((k) => k.path.endsWith("/skill.md"));
    expect(lower).toBeDefined();
    const anthropic = byName("anthropics__skills");
    expect(anthropic.loadSkill("mcp-builder")?.resources).toContain("scripts/evaluation.py");
  });
});
