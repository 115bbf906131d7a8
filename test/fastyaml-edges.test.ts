// The fast path's structure at its edges, each row checked against `yaml` itself: where a structure ends,
// what may follow a flow value, nesting bounds, values on the next line, block scalars, sequences of
// odd items, and text yaml rejects in any context. Each row pins a line mutation testing found untested.
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { MAX_NESTING } from "../src/fastscalar.js";
import { fastParse, SureError, YAML_ERROR } from "../src/fastyaml.js";
import { nearStackEnd, OVERFLOW } from "./helpers/stack.js";

const DECLINE = "decline";
const ERROR = "yaml's error";

/** `yaml`'s value for `text`, or ERROR when it reports one. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  return doc.errors.length > 0 ? ERROR : doc.toJS();
}

/** The fast path gives `expected` (a value equal to yaml's, a decline, or a claim that yaml rejects it). */
function check(text: string, expected: unknown): void {
  const fast = fastParse(text);
  if (expected === DECLINE) expect(fast, text).toBeUndefined();
  else if (expected === ERROR) {
    expect(fast, text).toBe(YAML_ERROR);
    expect(viaYaml(text), text).toBe(ERROR);
  } else if (expected instanceof SureError) {
    expect(fast, text).toStrictEqual(expected);
    expect(viaYaml(text), text).toBe(ERROR);
  } else {
    expect(fast, text).toStrictEqual(expected);
    expect(viaYaml(text), text).toStrictEqual(expected);
  }
}

type Row = [string, unknown];
const rows = (cases: Row[]) =>
  cases.map(([text, expected]) => [JSON.stringify(text), text, expected] as const);

describe("where a structure ends: a line nothing can read declines the whole text, or is yaml's error", () => {
  test.each(
    rows([
      // Prose at the top level is yaml's error, known (fastreject-prose.test.ts).
      ["a: 1\nfoo\n", new SureError("Implicit map keys need to be followed by map values", 2)],
      ["a:\n  b: 1\n  foo\n", DECLINE],
      ["a:\n  b: 1\n z: 2\n", DECLINE],
      ["a:\n  - x\n   - y\n", DECLINE],
      ["a:\n  - [x]\n   - y\n", DECLINE],
      ["a:\n  b: 1\nc: 2\n", { a: { b: 1 }, c: 2 }],
      ["a:\n  - x\nb:\n  - y\n", { a: ["x"], b: ["y"] }],
      ['a: "x"\n  b: 1\n', DECLINE],
      ["a: [x]\n  - y\n", DECLINE],
      ["  a: 1\n", DECLINE],
      ["", DECLINE],
      ["# only a comment\n\n", DECLINE],
      ["a: 1\r\nb:\r\n  - x\r\n", { a: 1, b: ["x"] }],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("after a flow or quoted value", () => {
  test.each(
    rows([
      ['a: "x" # a comment\nb: 1\n', { a: "x", b: 1 }],
      ["a: [1, 2]   # a comment\n", { a: [1, 2] }],
      ["a:\n  - {b: 1} # a comment\n", { a: [{ b: 1 }] }],
      // yaml reads a colon there as an implicit key: not vouched for.
      ["a: [x] : y\n", DECLINE],
      ['a: "x":\n', DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("a value that starts on the next line", () => {
  test.each(
    rows([
      ["a:\n  hello world\n", { a: "hello world" }],
      ["a:\n  hello\n  world\nb: 1\n", { a: "hello world", b: 1 }],
      ["a:\n", { a: null }],
      ["a:\nb: 1\n", { a: null, b: 1 }],
      ["a:\n# a comment\n\nb: 1\n", { a: null, b: 1 }],
      ["a:\n- x\n- y\nb: 1\n", { a: ["x", "y"], b: 1 }],
      ["a:\n  - x\n  - y\n", { a: ["x", "y"] }],
      ["a:\n  |\n    x\n    y\n", { a: "x\ny\n" }],
      ["a:\n  >-\n    x\n    y\nb: 1\n", { a: "x y", b: 1 }],
      ['a:\n  "x"\n', { a: "x" }],
      // After a blank line, a comment at the key's indentation lets yaml run a plain value on into the
      // next key (an error) or the next line (a longer value); a comment below a key declines a plain value.
      ["a:\n\n  x\nb: 1\n", { a: "x", b: 1 }],
      ["a:\n\n# c\n  x\nb: 1\n", DECLINE],
      ["a:\n\n# c\n  x y\n\nb: 1\n", DECLINE],
      ["a: # c\n\n# d\n  x\nb: 1\n", DECLINE],
      ["a:\n# c\n  x\nb: 1\n", DECLINE],
      ["a:\n\n# c\n  - x\nb: 1\n", { a: ["x"], b: 1 }],
      ["a:\n\n# c\n  k: x\nb: 1\n", { a: { k: "x" }, b: 1 }],
      ['a:\n\n# c\n  "x"\nb: 1\n', { a: "x", b: 1 }],
      ["a:\n\n# c\n  'x'\nb: 1\n", { a: "x", b: 1 }],
      ["a:\n\n# c\n  [x]\nb: 1\n", { a: ["x"], b: 1 }],
      ["a:\n\n# c\n  {k: x}\nb: 1\n", { a: { k: "x" }, b: 1 }],
      ["a:\n\n# c\n  |\n    x\nb: 1\n", { a: "x\n", b: 1 }],
      ["a:\n\n# c\n  >\n    x\nb: 1\n", { a: "x\n", b: 1 }],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("sequence items", () => {
  test.each(
    rows([
      ["a:\n  - -x\n  - -1\n", { a: ["-x", -1] }],
      ["a:\n  - a-\n", { a: ["a-"] }],
      ["a:\n  - |\n    x\n  - y\n", { a: ["x\n", "y"] }],
      ["a:\n  - >-\n     x\n     y\n  - z\n", { a: ["x y", "z"] }],
      // A nested sequence on the dash's line: yaml reads it, the fast path does not vouch for it.
      ["a:\n  - - x\n", DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("block scalars", () => {
  test.each(
    rows([
      ["a: |\n  x\n  \n  y\n", { a: "x\n\ny\n" }],
      ["a: |\n  x\n\n\nb: 1\n", { a: "x\n", b: 1 }],
      ["a: |-\n  x\n\n\n", { a: "x" }],
      // A blank line holding more spaces than the indentation keeps them in yaml: not vouched for.
      ["a: |\n  x\n     \n  y\n", DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe("indicators: an anchor declines, a reserved start is yaml's error at any depth", () => {
  test.each(
    rows([
      ["a: &x 1\n", DECLINE],
      ["a:\n  b: &x 1\n", DECLINE],
      ["a: @x\n", ERROR],
      ["a:\n  b: ,x\n", ERROR],
      ["a:\n  - %x\n", ERROR],
      ["a:\n  - `x\n", ERROR],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});

describe(`nesting: ${MAX_NESTING} levels below the top take the fast path, one more declines`, () => {
  /** Keys k0…k{n-1}, each nested in the one before (k{i} is at depth i), the last holding `leaf`. */
  const nest = (n: number, leaf: (indent: string) => string): string => {
    let text = "";
    for (let i = 0; i < n - 1; i++) text += `${"  ".repeat(i)}k${i}:\n`;
    return `${text}${"  ".repeat(n - 1)}k${n - 1}:${leaf("  ".repeat(n - 1))}`;
  };
  /** What `nest` gives: the leaf's value inside n keys. */
  const value = (n: number, leaf: unknown): unknown => {
    let v = leaf;
    for (let i = n - 1; i >= 0; i--) v = { [`k${i}`]: v };
    return v;
  };
  const scalar = () => " x\n";
  const deeperSeq = (ind: string) => `\n${ind}  - x\n`;
  const sameSeq = (ind: string) => `\n${ind}- x\n`;
  const compact = (ind: string) => `\n${ind}  - m: x\n`;

  test("mappings", () => {
    check(nest(MAX_NESTING + 1, scalar), value(MAX_NESTING + 1, "x"));
    check(nest(MAX_NESTING + 2, scalar), DECLINE);
  });

  test.each([
    ["deeper than its key", deeperSeq],
    ["at its key's indentation", sameSeq],
  ])("a sequence %s counts one level", (_, seq) => {
    check(nest(MAX_NESTING, seq), value(MAX_NESTING, ["x"]));
    check(nest(MAX_NESTING + 1, seq), DECLINE);
  });

  test("a compact mapping in a sequence counts one level more", () => {
    check(nest(MAX_NESTING - 1, compact), value(MAX_NESTING - 1, [{ m: "x" }]));
    check(nest(MAX_NESTING, compact), DECLINE);
  });
});

test("a stack overflow inside the fast path is thrown, not taken for a decline or a yaml error", () => {
  // Nested as deep as the fast path reads: near the stack's end, its own recursion is what overflows.
  let text = "x: 1";
  for (let depth = 1; depth < MAX_NESTING; depth++) text = `k:\n${text.replace(/^/gm, "  ")}`;
  const value = fastParse(text);
  expect(value).toEqual(viaYaml(text));
  // The fewest frames from which the call overflows; below it, every call that returns gives the value.
  // An overflow swallowed inside the fast path would give a decline (or a yaml error) there instead.
  const { outcome, limit } = nearStackEnd(() => fastParse(text));
  for (let frames = Math.max(0, limit - 300); frames < limit; frames++) {
    const got = outcome(frames);
    if (got !== OVERFLOW) expect(got).toEqual(value);
  }
});

describe("the characters it vouches for: printable ASCII searched first, the rest checked from the first other", () => {
  test.each(
    rows([
      // Plain ASCII throughout: the search finds nothing.
      ["d: a b ~ }\n", { d: "a b ~ }" }],
      // ASCII that is not printable stops the search, and the class refuses it.
      ["d: a\tb\n", DECLINE],
      ["d: a\u007fb\n", DECLINE],
      ["d: a\u0001b\n", DECLINE],
      // A sure character first: the class then reads on from it, to the end of the text.
      ["d: é ü ñ\ne: x\n", { d: "é ü ñ", e: "x" }],
      ["d: ÿ€🦞\n", { d: "ÿ€🦞" }],
      ["d: é\ne: x\u0085y\n", DECLINE],
      ["d: é\ne: x\u2028y\n", DECLINE],
      ["d: é\ne: x\ufeffy\n", DECLINE],
      ["d: é\ne: x\u00a0\n", DECLINE],
      ["d: é\ne: x\ty\n", DECLINE],
      ["d: é\ne: x\ud800\n", DECLINE],
      // A CRLF text is read as LF; a lone CR after a sure character still declines.
      ["d: é\r\ne: x\r\n", { d: "é", e: "x" }],
      ["d: é\re: x\n", DECLINE],
    ]),
  )("%s", (_, text, expected) => check(text, expected));
});
