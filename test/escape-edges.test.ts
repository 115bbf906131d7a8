// Catalog escaping at its edges: the markdown name's list-number escape, and the one-line clean-up.
import { describe, expect, test } from "vitest";
import { cleanText, SHAPES } from "../src/escape.js";

describe("markdown name", () => {
  test.each([
    ["12. twelve", "12\\. twelve"], // an ordered-list marker, whatever its number of digits
    ["3) three", "3\\) three"],
    ["v1. one", "v1. one"], // a number later in the name is not a marker
    ["a 1) b", "a 1) b"],
    ["12 x", "12 x"],
  ])("%j is written %j", (name, written) => {
    expect(SHAPES.markdown.name(name)).toBe(written);
  });
});

describe("cleanText", () => {
  test.each([
    ["  padded  ", "padded"],
    ["\u0001 x \u0002", "x"], // a control character removed leaves the space beside it, which goes too
    ["a \t\n b\r\n", "a b"],
    ["\ud800x", "\ufffdx"],
    // Two lone halves around a control stay two lone halves (audit F, finding 5: they became 😀).
    ["\ud83d\u0001\ude00", "\ufffd\ufffd"],
  ])("%j is %j", (s, cleaned) => {
    expect(cleanText(s)).toBe(cleaned);
  });
});
