// The in-place scanner's edges (fastyaml.ts, fastflow.ts, fastscalar.ts), each row checked against `yaml`:
// keys that look like the common ones the scanner takes as literals, a key at the very end of the text,
// block scalar headers, dashes, what a plain value's continuation may hold, and nesting in flow mappings.
// Each row pins a line that mutation testing of the rewrite found untested.
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { MAX_NESTING } from "../src/fastscalar.js";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";

const DECLINE = "decline";

/** `yaml`'s value for `text`, or "error" when it reports one. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  return doc.errors.length > 0 ? "error" : doc.toJS();
}

/** The fast path declines `text`, or gives `expected`, which is yaml's value too. */
function check(text: string, expected: unknown): void {
  const fast = fastParse(text);
  expect(fast, text).not.toBe(YAML_ERROR);
  if (expected === DECLINE) expect(fast, text).toBeUndefined();
  else {
    expect(fast, text).toStrictEqual(expected);
    expect(viaYaml(text), text).toStrictEqual(expected);
  }
}

type Row = [string, unknown];
const rows = (cases: Row[]) =>
  cases.map(([text, expected]) => [JSON.stringify(text), text, expected] as const);

describe("keys beside the common ones", () => {
  test.each(
    rows([
      // The same first letter and length as `name`, `author`; a common key with more, or less, after it.
      [
        "note: a\nabcdef: b\nnames: c\nnam: d\nauthors: e\n",
        { note: "a", abcdef: "b", names: "c", nam: "d", authors: "e" },
      ],
      ['m: {"note": 1, "bin": 2, "binsx": 3, emojis: 4}\n', { m: { note: 1, bin: 2, binsx: 3, emojis: 4 } }],
      // A common key without the space after its colon, or without its colon, is no key.
      ["name:x\n", DECLINE],
      ["namex y\n", DECLINE],
      // A key whose colon ends the text.
      ["name:", { name: null }],
      ["a:", { a: null }],
      // Flow keys that are not plain keys: yaml reads null and 100.
      ["m: {~: 1}\n", DECLINE],
      ["m: {1e2: x}\n", DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("block scalars, dashes and plain continuations", () => {
  test.each(
    rows([
      ["a: |  \n  x\n", { a: "x\n" }],
      ["a: >-  \n  x\n  y\n", { a: "x y" }],
      ["a:\n  -x\n", { a: "-x" }],
      ["a:\n  -  x\n", { a: ["x"] }],
      // A sequence ends at a line that is no `- ` entry, and one shallower than its key is none of its own.
      ["a:\n- x\ny z\n", DECLINE],
      ["a:\n- x\n-yz\n", DECLINE],
      ["m:\n  a:\n- x\n", DECLINE],
      // yaml reads a comment, or a continuation starting with an indicator; the scanner does not vouch.
      ["a: x\n  # y\n", DECLINE],
      ["a: x\n  -y\n", DECLINE],
      ["a: x\n  :y\n", DECLINE],
      ["a: x\n  ?y\n", DECLINE],
      // A comment ends the value: a deeper line after it continues nothing.
      ["a: x # c\n  y\n", DECLINE],
      // A colon-space at the value's end, before blanks or a comment: not `: ` inside it.
      ["a: x:  \n", DECLINE],
      ["a: x: # c\n", DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("quoted scalars and flow collections", () => {
  test.each(
    rows([
      // An escape or a doubled quote does not let a quoted scalar run over a line break (yaml folds it).
      ['a: "x\\ty\n  z"\n', DECLINE],
      ["a: 'it''s\n  x'\n", DECLINE],
      // A deeper comment line after a collection over several lines is left to yaml; after one on one line,
      // it is a comment like any other.
      ["a: [x,\n  y]\n  # c\nb: 1\n", DECLINE],
      ["a: [x]\n  # c\nb: 1\n", { a: ["x"], b: 1 }],
    ]),
  )("%s", (_, text, expected) => check(text, expected));

  test(`flow mappings: ${MAX_NESTING} levels take the fast path, ${MAX_NESTING + 1} decline`, () => {
    // n mappings, each the value of the one around it, the innermost empty.
    const nest = (n: number) => `k: ${"{a: ".repeat(n - 1)}{}${"}".repeat(n - 1)}\n`;
    let want: unknown = {};
    for (let i = 1; i < MAX_NESTING; i++) want = { a: want };
    check(nest(MAX_NESTING), { k: want });
    check(nest(MAX_NESTING + 1), DECLINE);
  });
});
