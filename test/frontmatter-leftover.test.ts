// Issue 9, leftover survivors of src/frontmatter.ts: the tree depth check through collection keys (which
// toJS turns into strings, so only the parsed tree can see their depth), and what a non-mapping is called.
import { describe, expect, test } from "vitest";
import { parseFrontmatter } from "../src/frontmatter.js";
import { nest } from "./helpers/fixture.js";

const TOO_DEEP = { ok: false, message: "frontmatter nests deeper than 64 levels" };

/** `levels` block mappings nested through their values, the innermost holding `key: v`. */
const underValues = (levels: number, key: string) =>
  `${Array.from({ length: levels }, (_, i) => `${" ".repeat(i)}a:`).join("\n")}\n${" ".repeat(levels)}${key}: v\n`;

describe("nesting through collection keys", () => {
  test("a key 63 sequences deep is read (the mapping is level 1), its key a string", () => {
    const r = parseFrontmatter(`${nest(63, "x")}: v`, false);
    expect(r.ok).toBe(true);
    const data = r.ok ? r.data : {};
    expect(Object.values(data)).toEqual(["v"]);
    expect(typeof Object.keys(data)[0]).toBe("string");
  });

  test("a key 64 sequences deep is too deep, though its value is a flat string", () => {
    expect(parseFrontmatter(`${nest(64, "x")}: v`, false)).toEqual(TOO_DEEP);
  });

  test("depth through values and then a key adds up", () => {
    // 1 (top) + 10 mappings through values + 53 sequences in the key = 64 levels: read.
    const fits = parseFrontmatter(underValues(10, nest(53, "x")), false);
    expect(fits.ok).toBe(true);
    // One more sequence in the key: 65.
    expect(parseFrontmatter(underValues(10, nest(54, "x")), false)).toEqual(TOO_DEEP);
  });
});

describe("what the full parser gives that is not a mapping, named", () => {
  test.each([
    ["- a\n- b", "a list"],
    ["[a, b]", "a list"],
    ["just words", "a string"],
    ["42", "a number"],
    ["true", "a boolean"],
  ])("%j is %s", (text, what) => {
    expect(parseFrontmatter(text, false)).toEqual({
      ok: false,
      message: `frontmatter is ${what}, not a mapping of keys to values`,
    });
  });
});
