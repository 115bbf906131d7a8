// The fast path against `yaml` on the whole YAML 1.2 core schema and every double-quoted escape: each case
// must take the fast path (no decline) and give exactly yaml's value, as a block value and inside flow.
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";

/** What the `yaml` path makes of `text`. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  expect(doc.errors, text).toEqual([]);
  return doc.toJS();
}

/** `key: <scalar>`, `key: [<scalar>]` and `key: {k: <scalar>}` each give `want` on both paths. */
function same(scalar: string, want: unknown): void {
  for (const [text, value] of [
    [`key: ${scalar}\n`, { key: want }],
    [`key: [${scalar}]\n`, { key: [want] }],
    [`key: {k: ${scalar}}\n`, { key: { k: want } }],
  ] as const) {
    expect(viaYaml(text), text).toStrictEqual(value);
    expect(fastParse(text), text).toStrictEqual(value);
  }
}

// The core schema's tags, in the order yaml tries them, with every spelling each accepts.
const NULLS = ["~", "null", "Null", "NULL"];
const TRUES = ["true", "True", "TRUE"];
const FALSES = ["false", "False", "FALSE"];
const INTS: [string, number][] = [
  ["0", 0],
  ["7", 7],
  ["-7", -7],
  ["+7", 7],
  ["007", 7],
  ["-0", -0],
  ["0o0", 0],
  ["0o17", 15],
  ["0o777", 511],
  ["0x0", 0],
  ["0x1f", 31],
  ["0x1F", 31],
  ["0xFF", 255],
  ["0xdeadBEEF", 0xdeadbeef],
];
const FLOATS: [string, number][] = [
  ["1.5", 1.5],
  ["-1.5", -1.5],
  ["+1.5", 1.5],
  ["0.", 0],
  ["5.", 5],
  ["-5.", -5],
  [".5", 0.5],
  ["-.5", -0.5],
  ["+.5", 0.5],
  ["1e3", 1000],
  ["1E3", 1000],
  ["1e+3", 1000],
  ["1e-3", 0.001],
  ["-1.5E-3", -0.0015],
  ["+2.5e2", 250],
  [".5e1", 5],
  ["5.e1", 50],
  ["1.0", 1],
  [".inf", Number.POSITIVE_INFINITY],
  [".Inf", Number.POSITIVE_INFINITY],
  [".INF", Number.POSITIVE_INFINITY],
  ["+.inf", Number.POSITIVE_INFINITY],
  ["+.Inf", Number.POSITIVE_INFINITY],
  ["+.INF", Number.POSITIVE_INFINITY],
  ["-.inf", Number.NEGATIVE_INFINITY],
  ["-.Inf", Number.NEGATIVE_INFINITY],
  ["-.INF", Number.NEGATIVE_INFINITY],
  [".nan", Number.NaN],
  [".NaN", Number.NaN],
  [".NAN", Number.NaN],
];
// Near misses: YAML 1.1 or mixed spellings, other bases, signs where the core schema takes none. Strings all.
const STRINGS = [
  ...["tRUE", "tRue", "truE", "TRue", "yes", "Yes", "on", "y", "n", "off", "NO"],
  ...["fALSE", "FAlse", "nULL", "NUll", "nuLL", "none", "None", "nil", "~~", "null_"],
  ...["0o", "0o8", "0O7", "+0o7", "-0o7", "0x", "0xg", "0X1F", "+0x1", "-0x1", "0b101", "0B1"],
  ...["1_000", "1e", "1e+", "e3", ".e3", ".", "+", "-.", "+-1", "1.2.3", "0x1.8p1"],
  ...[".Nan", ".nAn", "+.nan", "-.nan", "nan", "NaN", "inf", "Infinity", ".infinity", "-inf", ".iNf"],
];

describe("the fast path on the YAML 1.2 core schema", () => {
  test("every spelling of null", () => {
    for (const s of NULLS) same(s, null);
  });

  test("every spelling of true and false", () => {
    for (const s of TRUES) same(s, true);
    for (const s of FALSES) same(s, false);
  });

  test("ints in base 10, 8 and 16", () => {
    for (const [s, n] of INTS) same(s, n);
  });

  test("floats, with and without exponents, and .inf and .nan in every spelling", () => {
    for (const [s, n] of FLOATS) same(s, n);
  });

  test("near misses stay strings", () => {
    for (const s of STRINGS) same(s, s);
  });

  test("a key spelled as a core-schema value declines (yaml would not give a plain string key)", () => {
    for (const s of [...NULLS.slice(1), ...TRUES, ...FALSES]) {
      expect(fastParse(`${s}: 1\n`), s).toBeUndefined();
      expect(fastParse(`m: {${s}: 1}\n`), s).toBeUndefined();
    }
  });
});

// Every escape the double-quoted scanner knows, with the character it stands for.
const ESCAPES: [string, string][] = [
  ["\\0", "\0"],
  ["\\a", "\x07"],
  ["\\b", "\b"],
  ["\\t", "\t"],
  ["\\n", "\n"],
  ["\\v", "\v"],
  ["\\f", "\f"],
  ["\\r", "\r"],
  ["\\e", "\x1b"],
  ["\\ ", " "],
  ['\\"', '"'],
  ["\\/", "/"],
  ["\\\\", "\\"],
  ["\\N", "\x85"],
  ["\\_", "\xa0"],
  ["\\L", "\u2028"],
  ["\\P", "\u2029"],
  ["\\x41", "A"],
  ["\\x7e", "~"],
  ["\\u00e9", "é"],
  ["\\u00E9", "é"],
  ["\\u2028", "\u2028"],
  ["\\U0001F600", "😀"],
  ["\\U0010FFFF", "\u{10FFFF}"],
];

describe("the fast path on double-quoted escapes", () => {
  test("each escape alone, between text, and twice in a row", () => {
    for (const [esc, char] of ESCAPES) {
      same(`"${esc}"`, char);
      same(`"a${esc}b"`, `a${char}b`);
      same(`"${esc}${esc}"`, `${char}${char}`);
    }
  });

  test("escapes are not read in single quotes; a doubled single quote is one quote", () => {
    same("'a\\nb'", "a\\nb");
    same("'it''s'", "it's");
    same("''''", "'");
  });

  test("escapes it does not vouch for decline; yaml rejects most of them", () => {
    for (const text of ['"\\q"', '"\\x4"', '"\\u00g9"', '"\\ud800"', '"\\U00110000"', '"\\', '"\\x"']) {
      expect(fastParse(`key: ${text}\n`), text).toBeUndefined();
    }
  });
});

/** `depth` nested empty flow sequences. */
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("the fast path's edges (each pins a line Stryker found untested)", () => {
  test("values starting with the highest digit still resolve (the letter shortcut's bound)", () => {
    for (const [s, n] of [
      ["9", 9],
      ["99", 99],
      ["9.5", 9.5],
      ["9e1", 90],
    ] as const)
      same(s, n);
  });

  test("plain keys: every letter bound, digits, dots, dashes and underscores", () => {
    const text = "A: 1\nZ: 2\na: 3\nz: 4\n_x.y-z9: 5\n";
    expect(fastParse(text)).toStrictEqual(viaYaml(text));
    expect(fastParse(text)).toStrictEqual({ A: 1, Z: 2, a: 3, z: 4, "_x.y-z9": 5 });
  });

  test("a plain key may be 128 characters long, at the top, nested or in flow; 129 declines", () => {
    const k128 = "k".repeat(128);
    for (const text of [`${k128}: 1\n`, `m:\n  ${k128}: 1\n`, `m: {${k128}: 1}\n`]) {
      expect(fastParse(text), text).toStrictEqual(viaYaml(text));
    }
    expect(fastParse(`${k128}x: 1\n`)).toBeUndefined();
    expect(fastParse(`m:\n  ${k128}x: 1\n`)).toBeUndefined();
  });

  test("flow nesting: 32 levels take the fast path, 33 decline", () => {
    expect(fastParse(`k: ${nested(32)}\n`)).toStrictEqual(viaYaml(`k: ${nested(32)}\n`));
    expect(fastParse(`k: ${nested(33)}\n`)).toBeUndefined();
  });

  test("flow map keys: single- and double-quoted keys with spaces are read; odd plain keys decline", () => {
    same("{'a b': 1}", { "a b": 1 });
    same('{"a b": 1}', { "a b": 1 });
    same('{"a":1}', { a: 1 });
    // yaml reads these too, but the fast path does not vouch for them.
    for (const text of ["m: {é: 1}\n", "m: {a:1}\n"]) expect(fastParse(text), text).toBeUndefined();
  });

  test("text yaml rejects declines: a key without its colon, items without a comma", () => {
    for (const text of ['m: {"a" 1}\n', 'm: ["a" "b"]\n']) {
      expect(fastParse(text), text).toBeUndefined();
      expect(parseDocument(text).errors.length, text).toBeGreaterThan(0);
    }
  });

  test("text run on after a closed quote or bracket is yaml's error, said so, at any depth", () => {
    for (const text of [
      'k: "a"\'b"\n',
      "k: [a]b\n",
      'k: "a" b\n',
      'k: "a"#c\n',
      'm:\n  - "a" b\n',
      "m:\n  k: {a: 1} z\n",
    ]) {
      expect(fastParse(text), text).toBe(YAML_ERROR);
      expect(parseDocument(text).errors.length, text).toBeGreaterThan(0);
    }
  });

  test("a lone surrogate escape declines, at both ends of the range", () => {
    for (const e of ["\\ud800", "\\udbff", "\\udc00", "\\udfff"])
      expect(fastParse(`k: "${e}"\n`), e).toBeUndefined();
    same('"\\ud7ff"', "\ud7ff");
    same('"\\ue000"', "\ue000");
  });
});
