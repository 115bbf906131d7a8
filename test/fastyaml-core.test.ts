// The fast path against `yaml` on the whole YAML 1.2 core schema and every double-quoted escape: each case
// must take the fast path (no decline) and give exactly yaml's value, as a block value and inside flow.
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastParse } from "../src/fastyaml.js";

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
    for (const [escape, char] of ESCAPES) {
      same(`"${escape}"`, char);
      same(`"a${escape}b"`, `a${char}b`);
      same(`"${escape}${escape}"`, `${char}${char}`);
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
