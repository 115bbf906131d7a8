// The agentskills.io format rules at their edges: each limit at and just over it, the exact finding
// (rule, key, message, hint), and the name suggested for a name that breaks `name-format`.
import { describe, expect, test } from "vitest";
import { checkFormatRules, type RuleFinding } from "../src/rules.js";

const NAME_MESSAGE =
  "must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen";

/** The findings for `fields` over a valid name and description, in the directory named like the name. */
function check(fields: Record<string, unknown>): RuleFinding[] {
  const all = { name: "ok", description: "Does a thing.", ...fields };
  return checkFormatRules(all, String(all.name));
}

/** The hint of the name-format finding for `name`. */
function suggestion(name: string): string | undefined {
  return check({ name }).find((f) => f.rule === "name-format")?.hint;
}

describe("name-format", () => {
  test("a name of 64 characters passes, 65 does not", () => {
    expect(check({ name: "a".repeat(64) })).toEqual([]);
    expect(check({ name: "a".repeat(65) })).toEqual([
      {
        rule: "name-format",
        key: "name",
        message: `name ${JSON.stringify("a".repeat(65))} ${NAME_MESSAGE}`,
        hint: `rename it to ${JSON.stringify("a".repeat(64))}`,
      },
    ]);
  });

  test("a name with an upper-case letter is refused, with the name lower-cased as the hint", () => {
    expect(check({ name: "My Skill" })).toEqual([
      {
        rule: "name-format",
        key: "name",
        message: `name "My Skill" ${NAME_MESSAGE}`,
        hint: 'rename it to "my-skill"',
      },
    ]);
  });

  test.each([
    ["Pdf  Tools", "pdf-tools"], // a run of other characters is one hyphen
    ["a--b", "a-b"],
    ["-ab", "ab"], // leading and trailing hyphens go
    ["ab-", "ab"],
    ["__ab__", "ab"],
    ["a-b-c-", "a-b-c"],
    ["!!!", "my-skill"], // nothing left: a placeholder
    ["-", "my-skill"],
    [`${"a".repeat(63)}-b`, "a".repeat(63)], // cut at 64 just after a hyphen: the hyphen goes too
    [`${"a".repeat(63)}_b`, "a".repeat(63)],
    [`${"a".repeat(62)}-bc`, `${"a".repeat(62)}-b`],
  ])("%j is suggested as %j", (name, suggested) => {
    expect(suggestion(name)).toBe(`rename it to ${JSON.stringify(suggested)}`);
  });
});

test("name-matches-dir names both", () => {
  expect(checkFormatRules({ name: "a", description: "d" }, "b")).toEqual([
    {
      rule: "name-matches-dir",
      key: "name",
      message: 'name "a" differs from its directory name "b"',
      hint: "give the directory and the name the same value",
    },
  ]);
});

describe("description-length", () => {
  test("1024 characters pass, 1025 do not; characters are code points", () => {
    expect(check({ description: "d".repeat(1024) })).toEqual([]);
    expect(check({ description: "😀".repeat(1024) })).toEqual([]);
    expect(check({ description: "😀".repeat(1025) })).toEqual([
      {
        rule: "description-length",
        key: "description",
        message: "description is 1025 characters, over the limit of 1024",
        hint: "keep what tells an agent when to use the skill; move the rest into the body",
      },
    ]);
  });
});

describe("compatibility-length", () => {
  const hint = "state the environment needs in one short sentence";

  test("absent, short, or exactly 500 characters pass", () => {
    expect(check({})).toEqual([]);
    expect(check({ compatibility: "Node 20" })).toEqual([]);
    expect(check({ compatibility: "c".repeat(500) })).toEqual([]);
  });

  test("501 characters are over the limit", () => {
    expect(check({ compatibility: "😀".repeat(501) })).toEqual([
      {
        rule: "compatibility-length",
        key: "compatibility",
        message: "compatibility is 501 characters, over the limit of 500",
        hint,
      },
    ]);
  });

  test.each([[5], [null], [["Node"]], [{ node: "20" }]])("%j is not a string", (compatibility) => {
    expect(check({ compatibility })).toEqual([
      { rule: "compatibility-length", key: "compatibility", message: "compatibility must be a string", hint },
    ]);
  });
});

describe("metadata-strings", () => {
  const finding = {
    rule: "metadata-strings",
    key: "metadata",
    message: "metadata must be a map of string keys to string values",
    hint: "quote each value, and flatten nested maps into keys such as `author`, `version`",
  };

  test("absent, empty or all strings pass", () => {
    expect(check({})).toEqual([]);
    expect(check({ metadata: {} })).toEqual([]);
    expect(check({ metadata: { author: "me", version: "1" } })).toEqual([]);
  });

  test.each([
    [{ author: "me", version: 1 }], // one value not a string is enough
    [{ version: 1, author: "me" }],
    [{ nested: { a: "b" } }],
    [["a"]],
    [null],
    ["text"],
  ])("%j is refused", (metadata) => {
    expect(check({ metadata })).toEqual([finding]);
  });
});
