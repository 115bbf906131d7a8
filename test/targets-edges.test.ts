// The --target client rules at their edges: each exact finding (rule, key, message, hint), the 500-character
// limit of Codex's short description at and just over it, its whitespace folding, and its three spellings.
import { describe, expect, test } from "vitest";
import type { RuleFinding } from "../src/rules.js";
import { checkClientRules } from "../src/targets.js";

const MANIFEST = "/skills/ok/SKILL.md";

/** The client findings for `fields` over a valid name and description. */
function check(
  fields: Record<string, unknown>,
  target: "agentskills" | "claude" | "codex",
  manifest = MANIFEST,
): RuleFinding[] {
  return checkClientRules({ name: "ok", description: "Does a thing.", ...fields }, manifest, target);
}

/** The codex-short-description finding for a short description of `length` code points. */
const tooLong = (length: number): RuleFinding => ({
  rule: "codex-short-description",
  key: "metadata",
  message: `metadata.short-description is ${length} characters, over Codex's limit of 500`,
  hint: "shorten it to one line of at most 500 characters",
});

describe("agentskills", () => {
  test("a client's key is not a field of the specification: the exact finding", () => {
    expect(check({ model: "x" }, "agentskills")).toEqual([
      {
        rule: "agentskills-fields",
        key: "model",
        message: 'top-level key "model" is not a field of the Agent Skills specification',
        hint: "move it under metadata: (a map of strings), or remove it",
      },
    ]);
  });
});

describe("claude", () => {
  test("a reserved word in the name: the exact finding", () => {
    expect(check({ name: "Claude-tools" }, "claude")).toEqual([
      {
        rule: "claude-reserved-word",
        key: "name",
        message: 'name "Claude-tools" contains the reserved word "claude"',
        hint: "choose a name without anthropic or claude",
      },
    ]);
  });

  test("an XML tag in the name and in the description: one finding each, in that order", () => {
    const hint = "write the text without <tags>; describe the format in words";
    expect(check({ name: "a<b>", description: "Use </out> here." }, "claude")).toEqual([
      { rule: "claude-xml-tags", key: "name", message: 'name contains the XML tag "<b>"', hint },
      {
        rule: "claude-xml-tags",
        key: "description",
        message: 'description contains the XML tag "</out>"',
        hint,
      },
    ]);
  });
});

describe("codex", () => {
  test("a manifest not named exactly SKILL.md: the exact finding, with no key to point at", () => {
    expect(check({}, "codex", "/skills/ok/Skill.md")).toEqual([
      {
        rule: "codex-manifest-name",
        key: "",
        message: 'the manifest is named "Skill.md"; Codex reads only a file named exactly SKILL.md',
        hint: "rename Skill.md to SKILL.md",
      },
    ]);
  });

  test("500 characters pass, 501 do not; counted in code points", () => {
    expect(check({ metadata: { "short-description": "x".repeat(500) } }, "codex")).toEqual([]);
    expect(check({ metadata: { "short-description": "😀".repeat(500) } }, "codex")).toEqual([]);
    expect(check({ metadata: { "short-description": "x".repeat(501) } }, "codex")).toEqual([tooLong(501)]);
  });

  test("whitespace is counted as on one line: runs are one space, the ends are trimmed", () => {
    // 250 words: 499 characters once folded, however they are spaced.
    const spaced = `\n\t ${Array(250).fill("a").join(" \n\t ")} \n`;
    expect(check({ metadata: { "short-description": spaced } }, "codex")).toEqual([]);
    // 251 words: 501 characters; the raw text's length (1,261) is not what is counted.
    const over = `  ${Array(251).fill("a").join("\n\n  ")}  `;
    expect(check({ metadata: { "short-description": over } }, "codex")).toEqual([tooLong(501)]);
  });

  test("each of the three spellings is read; the first string among them counts", () => {
    for (const key of ["short-description", "shortDescription", "short_description"]) {
      expect(check({ metadata: { [key]: "x".repeat(600) } }, "codex")).toEqual([tooLong(600)]);
    }
    const notString = { "short-description": 7, shortDescription: "y".repeat(502), short_description: "z" };
    expect(check({ metadata: notString }, "codex")).toEqual([tooLong(502)]);
  });

  test("metadata that is not a map (null, a string, absent) has no short description", () => {
    for (const metadata of [null, "x".repeat(600), undefined]) {
      expect(check({ metadata }, "codex")).toEqual([]);
    }
  });
});
