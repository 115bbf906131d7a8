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
        hint: `rename it to ${JSON.stringify("a".repeat(64))}, and its directory to match`,
      },
    ]);
  });

  test("a name with an upper-case letter is refused, with the name lower-cased as the hint", () => {
    expect(check({ name: "My Skill" })).toEqual([
      {
        rule: "name-format",
        key: "name",
        message: `name "My Skill" ${NAME_MESSAGE}`,
        hint: 'rename it to "my-skill", and its directory to match',
      },
    ]);
  });

  test("a suggestion that is the directory's name asks for no rename of the directory", () => {
    expect(checkFormatRules({ name: "My-Skill", description: "d" }, "my-skill")[0]?.hint).toBe(
      'rename it to "my-skill"',
    );
  });

  test("a name of which nothing survives suggests the directory's name when that would pass", () => {
    const hint = (dir: string) =>
      checkFormatRules({ name: "名前", description: "d" }, dir).find((f) => f.rule === "name-format")?.hint;
    expect(hint("names")).toBe('rename it to "names"');
    expect(hint("名前")).toBe('rename it to "my-skill", and its directory to match');
    expect(hint("a".repeat(64))).toBe(`rename it to "${"a".repeat(64)}"`);
    expect(hint("a".repeat(65))).toBe('rename it to "my-skill", and its directory to match');
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
    ["café", "cafe"], // accents dropped, not the letter
    ["Résumé", "resume"], // an accent inside a word leaves no hyphen
    ["Cafe\u0301-Menu", "cafe-menu"], // a combining accent too
    ["\ufb01le", "file"], // a ligature spelled out
  ])("%j is suggested as %j", (name, suggested) => {
    expect(suggestion(name)).toBe(`rename it to ${JSON.stringify(suggested)}, and its directory to match`);
  });
});

test("name-matches-dir says when the two differ only in Unicode form", () => {
  const nfc = "caf\u00e9";
  const nfd = "cafe\u0301";
  expect(
    checkFormatRules({ name: nfc, description: "d" }, nfd).find((f) => f.rule === "name-matches-dir"),
  ).toEqual({
    rule: "name-matches-dir",
    key: "name",
    message: `name ${JSON.stringify(nfc)} differs from its directory name ${JSON.stringify(nfd)} (the same letters in different Unicode forms, NFC and NFD)`,
    hint: "give the directory and the name the same value",
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
      {
        rule: "compatibility-length",
        key: "compatibility",
        message: "compatibility must be a string",
        hint: 'put the value in double quotes (compatibility: "…"), so that YAML reads it as text',
      },
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
