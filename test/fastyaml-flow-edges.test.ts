// Issue 9, leftover survivors of src/fastyaml.ts's multi-line flow collections (Scanner.flowLines): a
// line of spaces ends the collection's lines, so one after the closing bracket leaves it whole.
import { expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";

/** The fast path's value, checked against yaml's; "decline" when it leaves the text to yaml. */
function fast(text: string): unknown {
  const value = fastParse(text);
  if (value === undefined) return "decline";
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  expect(value, text).not.toBe(YAML_ERROR);
  expect(doc.errors, text).toEqual([]);
  expect(value, text).toStrictEqual(doc.toJS());
  return value;
}

test.each([
  ["a line of spaces after the closing bracket", "a: [x,\n   y]\n    \nb: 1\n", { a: ["x", "y"], b: 1 }],
  [
    "a line of spaces after a nested key's collection",
    "m:\n  a: {k: [x,\n     y]}\n       \n  b: 1\n",
    { m: { a: { k: ["x", "y"] }, b: 1 } },
  ],
])("takes %s", (_, text, want) => {
  expect(fast(text)).toStrictEqual(want);
});

test("a line of spaces inside the collection declines (the scanner takes no blank line within)", () => {
  expect(fast("a: [x,\n    \n   y]\n")).toBe("decline");
});
