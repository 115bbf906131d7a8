// SPEC §5: fences, YAML errors with locations, the lenient repair, the schema and field normalisation.
import { describe, expect, test } from "vitest";
import { repairYaml } from "../src/frontmatter.js";
import {
  createAgentSkills,
  type SkillError,
  type SkillWarning,
  skillFrontmatterSchema,
} from "../src/index.js";
import { splitTools } from "../src/schema.js";
import { manifest, writeTree } from "./helpers/fixture.js";

/** Load one manifest text as `<root>/s/SKILL.md`, leniently. */
function loadOne(text: string | Buffer) {
  const root = writeTree({ "s/SKILL.md": text });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  const codes = skills.warnings.map((w) => w.code);
  return {
    root,
    skills,
    skill: skills.loadSkill(skills.listSkills()[0]?.name ?? ""),
    warnings: skills.warnings,
    codes,
  };
}

/** The error strict discovery throws for one manifest text. */
function strictError(text: string | Buffer): SkillError {
  const root = writeTree({ "s/SKILL.md": text });
  try {
    createAgentSkills({ roots: [{ path: root }], strict: true });
  } catch (e) {
    return e as SkillError;
  }
  throw new Error("strict discovery did not throw");
}

describe("malformed manifests: skipped with invalid_skill (lenient), thrown (strict)", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["no opening fence", "# Title\nname: x\n", /s\/SKILL\.md:1: does not start with a --- frontmatter fence/],
    [
      "blank line before the fence",
      "\n---\nname: x\ndescription: y\n---\n",
      /does not start with a --- frontmatter fence/,
    ],
    [
      "no closing fence",
      "---\nname: x\ndescription: y\n",
      /has no closing --- frontmatter fence|has no closing --- fence/,
    ],
    ["only an opening fence", "---", /has no closing --- fence/],
    ["empty frontmatter", "---\n---\nbody\n", /frontmatter is empty, not a mapping/],
    ["a list", "---\n- a\n- b\n---\n", /frontmatter is a list, not a mapping/],
    ["a scalar", "---\njust text\n---\n", /frontmatter is a string, not a mapping/],
    [
      "YAML error with line and column",
      "---\nname: x\ndescription: d\n  indented: wrong\n---\n",
      /s\/SKILL\.md:3:14: invalid YAML: Nested mappings are not allowed in compact mappings/,
    ],
    [
      "duplicate keys",
      "---\nname: x\nname: y\ndescription: d\n---\n",
      /s\/SKILL\.md:3:1: invalid YAML: Map keys must be unique/,
    ],
    ["name missing", manifest("description: d"), /s\/SKILL\.md: frontmatter "name" is missing/],
    ["description missing", manifest("name: s"), /frontmatter "description" is missing/],
    [
      "name empty",
      manifest('name: ""\ndescription: d'),
      /s\/SKILL\.md:2: frontmatter "name" must be a non-empty string, received an empty string/,
    ],
    [
      "name blank",
      manifest('name: "  "\ndescription: d'),
      /"name" must be a non-empty string, received a string of white space only/,
    ],
    [
      "name a number",
      manifest("name: 42\ndescription: d"),
      /"name" must be a non-empty string, received number 42/,
    ],
    [
      "description a list",
      manifest("name: s\ndescription:\n  - a"),
      /s\/SKILL\.md:3: frontmatter "description" must be a non-empty string, received a list/,
    ],
    [
      "allowed-tools a number",
      manifest("name: s\ndescription: d\nallowed-tools: 3"),
      /"allowed-tools" must be a string or a list of strings, received number 3/,
    ],
    [
      "allowed-tools a list with a map",
      manifest("name: s\ndescription: d\nallowed-tools:\n  - a: b"),
      /"allowed-tools" must be a string or a list of strings, received a list/,
    ],
    [
      "user-invocable not boolean-like",
      manifest("name: s\ndescription: d\nuser-invocable: maybe"),
      /"user-invocable" must be a boolean, received a string/,
    ],
    [
      "user-invocable a number",
      manifest("name: s\ndescription: d\nuser-invocable: 1"),
      /"user-invocable" must be a boolean, received number 1/,
    ],
    [
      "invalid UTF-8",
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
      /s\/SKILL\.md: is not valid UTF-8/,
    ],
  ];

  test.each(cases)("%s (lenient)", (_, text, message) => {
    const { skills, warnings } = loadOne(text);
    expect(skills.listSkills()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe("invalid_skill");
    expect(warnings[0]?.message).toMatch(message);
    expect(warnings[0]?.path).toMatch(/\/s\/SKILL\.md$/);
  });

  test.each(cases)("%s (strict)", (_, text, message) => {
    const e = strictError(text);
    expect(e.name).toBe("SkillError");
    expect(e.code).toBe("invalid_skill");
    expect(e.message).toMatch(message);
    expect(e.path).toMatch(/\/s\/SKILL\.md$/);
  });
});

describe("fences and encodings", () => {
  test.each([
    ["LF", "---\nname: s\ndescription: d\n---\n\nHello\n", "Hello"],
    ["CRLF", "---\r\nname: s\r\ndescription: d\r\n---\r\n\r\nHello\r\nWorld\r\n", "Hello\r\nWorld"],
    ["BOM", "\uFEFF---\nname: s\ndescription: d\n---\nHello", "Hello"],
    ["fence trailing spaces", "---  \nname: s\ndescription: d\n--- \t\nHello", "Hello"],
    ["closing fence at end of file", "---\nname: s\ndescription: d\n---", ""],
    ["body keeps later rules", "---\nname: s\ndescription: d\n---\nA\n---\nB\n", "A\n---\nB"],
    ["indented --- is not a fence", "---\nname: s\ndescription: |\n  a\n  ---\n---\nbody", "body"],
  ])("%s", (_, text, body) => {
    const { skill, codes } = loadOne(text);
    expect(codes).toEqual([]);
    expect(skill?.name).toBe("s");
    expect(skill?.body).toBe(body);
  });

  test("---- is not a fence", () => {
    expect(loadOne("----\nname: s\ndescription: d\n----\n").codes).toEqual(["invalid_skill"]);
  });
});

describe("lenient YAML repair", () => {
  test("an unquoted value containing ': ' loads with yaml_repaired", () => {
    const { skill, warnings } = loadOne(manifest("name: s\ndescription: Use when: the user asks"));
    expect(skill?.description).toBe("Use when: the user asks");
    expect(warnings.map((w) => [w.code, w.skill])).toEqual([["yaml_repaired", "s"]]);
    expect(warnings[0]?.message).toMatch(/s\/SKILL\.md: frontmatter is not valid YAML; loaded after quoting/);
  });

  test("values starting with a reserved indicator are quoted, quotes and backslashes escaped", () => {
    const { skill } = loadOne(manifest('name: s\ndescription: `cmd` runs "x" \\ y: z\nother: @handle'));
    expect(skill?.description).toBe('`cmd` runs "x" \\ y: z');
    expect(skill?.metadata.other).toBe("@handle");
  });

  test("continuation lines move inside the quotes; CRLF kept working", () => {
    const { skill, codes } = loadOne(
      manifest("name: s\r\ndescription: Use when: a\r\n  and b\r\nlicense: MIT\r"),
    );
    expect(codes).toEqual(["yaml_repaired"]);
    expect(skill?.description).toBe("Use when: a and b");
    expect(skill?.metadata.license).toBe("MIT");
  });

  test("block scalars and quoted values are left alone", () => {
    const text = "description: |\n  Use when: x\nsummary: 'a: b'\nkey: v: w";
    expect(repairYaml(text)).toBe("description: |\n  Use when: x\nsummary: 'a: b'\nkey: \"v: w\"");
  });

  test("nested values are not repaired", () => {
    expect(repairYaml("metadata:\n  note: a: b")).toBeUndefined();
  });

  test("when the repair does not parse either, the original error stands", () => {
    const { warnings } = loadOne(manifest('name: s\ndescription: a: b\nbad: "open'));
    expect(warnings.map((w) => w.code)).toEqual(["invalid_skill"]);
    expect(warnings[0]?.message).toMatch(
      /SKILL\.md:3:14: invalid YAML: Nested mappings are not allowed in compact mappings; skipped$/,
    );
  });

  test("strict mode never repairs", () => {
    const e = strictError(manifest("name: s\ndescription: Use when: the user asks"));
    expect(e.code).toBe("invalid_skill");
    expect(e.message).toMatch(/SKILL\.md:3:\d+: invalid YAML: Nested mappings are not allowed/);
  });
});

describe("fields", () => {
  test.each([
    ["Bash(git add:*) Read", ["Bash(git add:*)", "Read"]],
    ["Read, Write,Edit", ["Read", "Write", "Edit"]],
    ["  Read  ,, Grep  ", ["Read", "Grep"]],
    [
      "Bash(npm run test, lint) WebFetch(domain: x.com)",
      ["Bash(npm run test, lint)", "WebFetch(domain: x.com)"],
    ],
    ["Bash(a (b) c) d", ["Bash(a (b) c)", "d"]],
    ["", []],
    ["Read)\tWrite", ["Read)", "Write"]],
  ])("splitTools(%j)", (input, expected) => {
    expect(splitTools(input)).toEqual(expected);
  });

  test.each([
    ["allowed-tools: Read Grep", ["Read", "Grep"]],
    ["allowed-tools:\n  - Bash(git add:*)\n  - ' Read '\n  - ''", ["Bash(git add:*)", "Read"]],
    ["tools: Read, Write", ["Read", "Write"]],
    ["allowed-tools: Read\ntools: Write", ["Read"]],
    ["allowed-tools: []", []],
    ["", undefined],
  ])("allowedTools from %j", (extra, expected) => {
    const { skill } = loadOne(manifest(`name: s\ndescription: d${extra === "" ? "" : `\n${extra}`}`));
    expect(skill?.allowedTools).toEqual(expected);
    expect(skill !== undefined && "allowedTools" in skill).toBe(expected !== undefined);
  });

  test("tools in another shape is ignored with tools_ignored, kept in metadata", () => {
    const { skill, warnings } = loadOne(
      manifest("name: s\ndescription: d\ntools:\n  - name: get_price\n    description: x"),
    );
    expect(skill?.allowedTools).toBeUndefined();
    expect(skill?.metadata.tools).toEqual([{ name: "get_price", description: "x" }]);
    expect(warnings.map((w) => w.code)).toEqual(["tools_ignored"]);
  });

  test.each([
    ["", true],
    ["user-invocable: false", false],
    ["user-invocable: true", true],
    ["user-invocable: 'no'", false],
    ["user-invocable: YES", true],
    ["user-invocable: Off", false],
    ["user-invocable: on", true],
  ])("userInvocable from %j is %s", (extra, expected) => {
    const { skill } = loadOne(manifest(`name: s\ndescription: d${extra === "" ? "" : `\n${extra}`}`));
    expect(skill?.userInvocable).toBe(expected);
    if (extra !== "") expect(skill?.metadata["user-invocable"]).toBe(expected);
  });

  test("metadata keeps every key, deep-frozen; YAML 1.2 scalars", () => {
    const { skill } = loadOne(
      manifest(
        "name: s\ndescription: d\nlicense: MIT\nversion: 1.10\ncreated: 2024-01-02\nflag: yes\nmetadata:\n  author: me\n  tags: [a, b]",
      ),
    );
    expect(skill?.metadata).toEqual({
      name: "s",
      description: "d",
      license: "MIT",
      version: 1.1,
      created: "2024-01-02",
      flag: "yes",
      metadata: { author: "me", tags: ["a", "b"] },
    });
    expect(Object.isFrozen(skill?.metadata)).toBe(true);
    expect(Object.isFrozen((skill?.metadata.metadata as { tags: string[] } | undefined)?.tags)).toBe(true);
  });

  test("skillFrontmatterSchema is loose and coerces user-invocable", () => {
    const ok = skillFrontmatterSchema.safeParse({
      name: "a",
      description: "b",
      extra: { x: 1 },
      "user-invocable": "No",
    });
    expect(ok.success).toBe(true);
    expect(ok.data).toEqual({ name: "a", description: "b", extra: { x: 1 }, "user-invocable": false });
    expect(skillFrontmatterSchema.safeParse({ name: "a" }).success).toBe(false);
    expect(skillFrontmatterSchema.safeParse({ name: "a", description: "b", tools: [1] }).success).toBe(false);
  });

  test("a name that differs from the directory loads under the frontmatter name, with name_mismatch", () => {
    const root = writeTree({ "dir-name/SKILL.md": manifest("name: real-name\ndescription: d") });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    expect(skills.listSkills().map((s) => s.name)).toEqual(["real-name"]);
    expect(skills.warnings.map((w: SkillWarning) => [w.code, w.skill])).toEqual([
      ["name_mismatch", "real-name"],
    ]);
    expect(skills.warnings[0]?.message).toContain('name "real-name" differs from its directory "dir-name"');
  });
});
