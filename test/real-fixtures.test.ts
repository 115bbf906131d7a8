// The vendored real skills (test/fixtures/real-skills): every category of the corpus report, exact counts,
// on any clone. The same checks on the full 2,360-skill corpus are in corpus.test.ts (CI).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills, SkillError, validateSkills } from "../src/index.js";
import { FIXTURES, fixtureRoots, manifestFiles } from "./helpers/fixture.js";

const countCodes = (codes: string[]) => {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
};

const roots = fixtureRoots();
const openclaw = () => createAgentSkills({ roots: roots.filter((r) => r.source === "openclaw__skills") });
/** The manifest's path relative to the fixtures folder, "/"-separated. */
const rel = (file: string | undefined) =>
  path
    .relative(FIXTURES, file ?? "")
    .split(path.sep)
    .join("/");

describe("the vendored real skills", () => {
  test("three repository folders, 59 skill folders, 59 manifests", () => {
    expect(roots.map((r) => r.source)).toEqual(["anthropics__skills", "openai__skills", "openclaw__skills"]);
    expect(roots.map((r) => fs.readdirSync(r.path).length)).toEqual([4, 3, 52]);
    expect(manifestFiles(roots)).toHaveLength(59);
  });

  test("each repository alone: loaded skills and warnings", () => {
    const rows = roots.map((root) => {
      const s = createAgentSkills({ roots: [root] });
      return [root.source, s.listSkills().length, countCodes(s.warnings.map((w) => w.code))];
    });
    expect(rows).toEqual([
      ["anthropics__skills", 4, {}],
      ["openai__skills", 3, {}],
      [
        "openclaw__skills",
        31,
        { invalid_skill: 15, name_mismatch: 17, yaml_repaired: 8, duplicate_skill: 6, tools_ignored: 2 },
      ],
    ]);
  });

  test("all three together: 36 skills, skill-creator from the last root", () => {
    const s = createAgentSkills({ roots });
    expect(s.listSkills()).toHaveLength(36);
    expect(s.explain("skill-creator").map((c) => [c.source, c.verdict])).toEqual([
      ["anthropics__skills", "overridden"],
      ["openai__skills", "overridden"],
      ["openclaw__skills", "winner"],
    ]);
    expect(rel(s.getSkill("skill-creator")?.path)).toBe("openclaw__skills/skill-creator-2/SKILL.md");
  });

  test("strict mode stops at the first invalid manifest, in root then directory order", () => {
    try {
      createAgentSkills({ roots, strict: true });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SkillError);
      expect((e as SkillError).code).toBe("invalid_skill");
      expect((e as SkillError).message).toContain("openclaw__skills/agentchan/skill.md:1:");
    }
  });

  test("every skip, with its reason", () => {
    const s = openclaw();
    const skips = s.warnings
      .filter((w) => w.code === "invalid_skill")
      .map((w) => [rel(w.path), w.message.slice(w.message.indexOf(": ") + 2)]);
    const fence = "does not start with a --- frontmatter fence;";
    const unclosed = "has no closing --- fence for its frontmatter";
    expect(skips.map(([p, m]) => [p, m?.slice(0, 44)])).toEqual([
      ["openclaw__skills/agentchan/skill.md", fence],
      ["openclaw__skills/apple-docs-mcp/SKILL.md", fence],
      ["openclaw__skills/brainstorming-studio/SKILL.md", fence], // BOM, then a heading
      ["openclaw__skills/echo-agent/Skill.md", fence],
      ["openclaw__skills/gogcli/SKILL.md", unclosed],
      ["openclaw__skills/hvac-estimate-takeoff/SKILL.md", fence], // `key:` lines, no fences
      ["openclaw__skills/mcporter-skill/SKILL.md", unclosed],
      ["openclaw__skills/morning-briefing/SKILL.md", unclosed],
      ["openclaw__skills/obsidian-daily/SKILL.md", "invalid YAML: Implicit keys need to be on a "],
      ["openclaw__skills/parcel-package-tracking/SKILL.md", 'frontmatter "name" is missing; skipped'],
      ["openclaw__skills/polymarket-traiding-bot/SKILL.md", fence], // BOM, then a heading
      ["openclaw__skills/ralph-loop-writer/SKILL.md", fence], // a blank line before the fence
      ["openclaw__skills/tesrtastasra-asdasd/SKILL.md", fence],
      ["openclaw__skills/therapy-mode/SKILL.md", 'frontmatter "name" is missing; skipped'],
      ["openclaw__skills/tin-test/SKILL.md", fence],
    ]);
  });

  test("repaired, duplicated and MCP-tool manifests", () => {
    const s = openclaw();
    const paths = (code: string) => s.warnings.filter((w) => w.code === code).map((w) => rel(w.path));
    expect(paths("yaml_repaired")).toEqual(
      [
        "clawdgle",
        "factory-ai",
        "feishu-leave-request",
        "food-order",
        "harpa-ai-crafting-exceptional-prompts-for-midjourn-05e5faa9",
        "host-ping-detect",
        "novafon",
        "trmnl-display",
      ].map((d) => `openclaw__skills/${d}/SKILL.md`),
    );
    expect(paths("duplicate_skill")).toEqual([
      "openclaw__skills/clawslist-skill/skill.md",
      "openclaw__skills/clawslist__2/skill.md",
      "openclaw__skills/instagram-cli/SKILL.md",
      "openclaw__skills/qmd/SKILL.md",
      "openclaw__skills/qmd-local-search/SKILL.md",
      "openclaw__skills/qmd-markdown-search/SKILL.md",
    ]);
    expect(rel(s.getSkill("qmd")?.path)).toBe("openclaw__skills/anshumanbh-qmd/SKILL.md");
    expect(paths("tools_ignored")).toEqual([
      "openclaw__skills/gold-price-mcp/SKILL.md",
      "openclaw__skills/pepsi-or-coke-mcp/SKILL.md",
    ]);
    const mcp = s.getSkill("pepsi_or_coke");
    expect(mcp?.allowedTools).toBeUndefined();
    expect(Array.isArray(mcp?.metadata.tools)).toBe(true);
  });

  test("hand-checked samples of each shape", () => {
    const s = openclaw();
    // Repaired: an unquoted "IP: …" inside the description.
    expect(s.getSkill("host-ping")?.description).toMatch(/^Detect if a host \(IP: 39\.106\.7\.8\) is online/);
    // CRLF: no \r in the values; the body keeps its line ends as written.
    const crlf = s.loadSkill("Docker Manager");
    expect(fs.readFileSync(crlf?.path ?? "", "latin1")).toContain("\r\n");
    expect(crlf?.description).toBe("Enables the bot to manage Docker containers, images, and stacks.");
    expect(crlf?.body).toContain("\r\n");
    expect(crlf?.metadata.bins).toEqual(["docker"]);
    // A folded block scalar over CRLF lines: one line, the final line break kept ("clip").
    expect(s.getSkill("adaptive-suite")?.description).toMatch(
      /^A continuously adaptive skill suite that empowers Clawdbot to act as a versatile coder, business analyst, [^\n\r]* domains\.\n$/,
    );
    // List-form allowed-tools, string allowed-tools, a flow list.
    expect(s.getSkill("vibes")?.allowedTools).toEqual(["mcp__vibes__vibes"]);
    expect(s.getSkill("flux-image")?.allowedTools).toEqual(["Bash(infsh *)"]);
    expect(s.getSkill("git-sync")?.metadata.tags).toEqual(["git", "sync", "backup", "version-control"]);
    // A lower-case manifest name, and a large body read whole.
    expect(rel(s.getSkill("npm-search")?.path)).toBe("openclaw__skills/npm-search/skill.md");
    expect(s.loadSkill("proton-pass")?.body).toHaveLength(31139);
    const anthropic = createAgentSkills({ roots: [roots[0] ?? { path: "" }] });
    expect(anthropic.loadSkill("claude-api")?.body).toHaveLength(72142);
    expect(anthropic.loadSkill("mcp-builder")?.resources).toContain("scripts/evaluation.py");
  });

  test("validateSkills: the counts by rule", () => {
    const report = validateSkills(roots.map((r) => r.path));
    expect(report.skills).toBe(59);
    expect(report.ok).toBe(false);
    expect(Object.fromEntries(report.rules.map((r) => [r.rule, r.count]))).toEqual({
      "metadata-strings": 20,
      "name-matches-dir": 17,
      "frontmatter-fence": 12,
      duplicate_skill: 6,
      "name-format": 6,
      "frontmatter-schema": 2,
      "description-length": 1,
      "yaml-syntax": 1,
      "unknown-field": 26,
      yaml_repaired: 8,
      "manifest-name": 6,
      tools_ignored: 2,
    });
  });
});
