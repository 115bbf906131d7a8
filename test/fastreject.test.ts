// src/fastreject.ts: the top-level flow collections the fast path declines and yet knows `yaml` rejects
// (JSON metadata left open, a bracket of the other kind, `\[` after a value), so that the lenient repair
// takes them without two slow yaml parses. Each row is checked against yaml itself.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { MAX_NESTING } from "../src/fastscalar.js";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";
import { parseFrontmatter, repairYaml } from "../src/frontmatter.js";
import { decodeUtf8, splitManifest } from "../src/manifest.js";
import { CORPUS, corpusTest, FIXTURES } from "./helpers/fixture.js";
import { fuzzParams } from "./helpers/fuzz.js";

const DECLINE = "decline";
const ERROR = "yaml's error";

/** `yaml`'s value for `text`, or ERROR when it reports one. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  return doc.errors.length > 0 ? ERROR : doc.toJS();
}

/** The fast path declines `text`, or says (rightly) that yaml rejects it. */
function check(text: string, expected: typeof DECLINE | typeof ERROR): void {
  if (expected === DECLINE) expect(fastParse(text), text).toBeUndefined();
  else {
    expect(fastParse(text), text).toBe(YAML_ERROR);
    expect(viaYaml(text), text).toBe(ERROR);
  }
}

const rows = (cases: [string, string][]) => cases.map(([text, why]) => [why, text] as const);

describe("what stays with yaml: the fast path is not sure", () => {
  test.each(
    rows([
      // yaml reads these two: a key without a value, and a complex key (the corpus's evilcalc).
      ['a: {"k": 1, x}\n', "a key with no colon"],
      ['a: {"bins":["bc"],["touch"]}\n', "a collection where a key should be"],
      ["a: {a:1}\n", "a plain key touching its colon"],
      ["a: [x # c\n", "a comment"],
      ["a: ['x'\n", "a single-quoted scalar"],
      ["a: [&x 1\n", "an anchor"],
      ["a: [- x\n", "a dash indicator"],
      ["a: [x\n  y\n", "a plain scalar over two lines"],
      ["a: [x [y]]\n", "a collection after a sequence item"],
      ['a: {"k": x\n  [y]}\n', "a collection after a line break"],
      ["a: {x: 1\nb: 2\n", "a block mapping line after it"],
      ['a: {"k": 1}\n  [x\n', "a collection that closes"],
      ["b:\n  a: [x,\n", "a nested key's collection"],
      // Each of these is yaml's error too, but outside the JSON-like text the certainty is read from.
      ['a: {"bins": ["bc"], ["touch"],\n', "a collection where a key should be, left open"],
      ['a: [{"k"},\n', "a closing brace where a colon should be"],
      ['a: [{"k":},\n', "a closing brace where a value should be"],
      ["a: [, x\n", "a comma where an item should be"],
      ["a: [x: y,\n", "a colon in a sequence"],
      ["a: {k:v,\n", "a plain key touching its colon, left open"],
      ['a: {\n  "k": 1\n}]\n', "a bracket after the collection closes"],
      ['a: {"a": {"b": 1} [x]}\n', "a collection after a collection value"],
      [`a: ${"[".repeat(MAX_NESTING + 1)}\n`, "nesting deeper than the fast path reads"],
    ]),
  )("%s", (_, text) => check(text, DECLINE));
});

describe("what yaml certainly rejects: YAML_ERROR, and the repair runs", () => {
  test.each(
    rows([
      ["a: [x,\n", "a sequence left open"],
      ["a: [\n", "a bracket alone"],
      ['name: f\nmetadata: {"clawdbot":{"emoji":"🤖","requires":{"bins":["droid"]}}\n', "a brace missing"],
      ['a: {\n  "k": [1,\n    2\n', "open over several lines"],
      ["a: [x,\r\n  y\r\n", "open, with CRLF line ends"],
      ['a: {k: -1, l: [a b, "c\\\\"]\n', "open after an escaped backslash"],
      ["a: [x]\nb: [y\n", "a later key's collection"],
      ["a: [Abc_Z+9, é¡\n", "open after plain scalars of every kind of character"],
      ["a: {k:\n  1,\n", "open after a plain key's colon at the end of its line"],
      ["a: {k:", "open after a colon that ends the text"],
      ['a: {"k": "x\\"]"\n', "open after an escaped quote and a bracket in a string"],
      ['a: {"k": "v\n', "a string left open"],
      ['a: {"k": [1}\n', "a brace closing a sequence"],
      ['a: {"k": "x\\\\"]\n', "a bracket closing a mapping after a string ending in a backslash"],
      ["a: [1, 2}\n", "a brace closing the value"],
      ['metadata: {"requires":{"bins":\\["curl","jq"]}}\n', "`\\[` after a value (the corpus's novafon)"],
      ['a: {"k": x {y: 1}}\n', "a mapping after a plain value"],
      ['a: {"k": "x"  [1]}\n', "a sequence after a quoted value"],
      [`a: ${"[".repeat(MAX_NESTING)}\n`, "nesting as deep as the fast path reads"],
    ]),
  )("%s", (_, text) => check(text, ERROR));

  test("the repair quotes the value and the fast path reads it; strict mode keeps yaml's located error", () => {
    const text = 'name: f\nmetadata: {"clawdbot":{"emoji":"🤖","requires":{"bins":["droid"]}}\n';
    const metadata = '{"clawdbot":{"emoji":"🤖","requires":{"bins":["droid"]}}';
    expect(parseFrontmatter(text, true)).toEqual({ ok: true, data: { name: "f", metadata }, repaired: true });
    expect(parseFrontmatter(text, false)).toEqual({
      ok: false,
      message: "invalid YAML: Flow map in block collection must be sufficiently indented and end with a }",
      line: 3,
      column: 1,
    });
    const novafon = 'name: n\nmetadata: {"requires":{"bins":\\["curl","jq"]}}\n';
    expect(parseFrontmatter(novafon, true)).toEqual({
      ok: true,
      data: { name: "n", metadata: '{"requires":{"bins":\\["curl","jq"]}}' },
      repaired: true,
    });
    expect(parseFrontmatter(novafon, false)).toEqual({
      ok: false,
      message: "invalid YAML: Unexpected flow-seq-start at node end",
      line: 2,
      column: 32,
    });
  });
});

/** The frontmatter of the manifest at `file`. */
function frontmatterOf(file: string): string {
  const split = splitManifest(decodeUtf8(fs.readFileSync(file)) ?? "");
  if (!split.ok) throw new Error(`${file} has no frontmatter`);
  return split.frontmatter;
}

/** The repair of a frontmatter the fast path rejects gives, through the fast path, yaml's value of it. */
function repairedFast(file: string): void {
  const text = frontmatterOf(file);
  expect(fastParse(text), file).toBe(YAML_ERROR);
  const repaired = repairYaml(text) as string;
  const value = fastParse(repaired);
  expect(value, file).toStrictEqual(viaYaml(repaired));
  expect(typeof (value as Record<string, unknown>).metadata, file).toBe("string");
}

test("the vendored manifests with such metadata are repaired without yaml", () => {
  for (const dir of ["factory-ai", "novafon"])
    repairedFast(path.join(FIXTURES, "openclaw__skills", dir, "SKILL.md"));
});

corpusTest("the corpus's manifests with such metadata are repaired without yaml", () => {
  for (const dir of ["factory-ai", "google-home", "novafon"]) {
    repairedFast(path.join(CORPUS, "openclaw__skills", dir, "SKILL.md"));
  }
});

describe("generated JSON-like metadata, broken", () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,5}$/);
  // String pieces, escapes and brackets included; plain scalars, some of them outside the class.
  const piece = fc.constantFrom(
    "a",
    " ",
    "é",
    "🦞",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "#",
    "'",
    "\\\\",
    '\\"',
    "\\",
  );
  const string = fc
    .array(fc.oneof(piece, fc.constant("\n  ")), { maxLength: 5 })
    .map((u) => `"${u.join("")}"`);
  const plain = fc.oneof(
    word,
    fc.constantFrom("1", "-1", "2.5", "true", "\\", "a b", "-x", "🦞", "x/y", "--", "-", "a:b", "x#y"),
    fc.constantFrom("|", "&a", "*a", "!t", "?", "'q'", "@x", "%x"),
  );
  type Tree = string | { seq: Tree[] } | { map: [string, Tree][] };
  const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
    t: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.oneof({ weight: 3, arbitrary: string }, { weight: 1, arbitrary: plain }),
      fc.array(tie("t"), { maxLength: 4 }).map((seq) => ({ seq })),
      fc.array(fc.tuple(fc.oneof(string, word), tie("t")), { maxLength: 4 }).map((map) => ({ map })),
    ),
  })).t;
  const render = (t: Tree, gaps: string[]): string => {
    const gap = () => gaps.shift() ?? "";
    if (typeof t === "string") return t;
    if ("seq" in t) return `[${gap()}${t.seq.map((x) => render(x, gaps)).join(`,${gap()}`)}${gap()}]`;
    return `{${gap()}${t.map.map(([k, v]) => `${k}:${gap() || " "}${render(v, gaps)}`).join(`,${gap()}`)}${gap()}}`;
  };
  /** One way to break it: cut it, drop or swap a closing bracket, or put a collection after a value. */
  const breakage = fc.record({
    kind: fc.constantFrom("none", "cut", "drop", "swap", "insert", "insert"),
    at: fc.nat(),
    what: fc.constantFrom("[1]", "{}", "[", '{"a": 1}', " [x]", "  {", "\n [y]"),
  });
  const broken = (v: string, b: { kind: string; at: number; what: string }): string => {
    const closers = [...v].flatMap((c, i) => (c === "]" || c === "}" ? [i] : []));
    const values = [...v.matchAll(/: ?(?:"[^"\\\n]*"|[a-z0-9]+)(?=[,}])/g)].map((m) => m.index + m[0].length);
    const spot = (list: number[]) => list[b.at % list.length] as number;
    if (b.kind === "cut") return v.slice(0, 1 + (b.at % v.length));
    if (b.kind === "drop" && closers.length > 0)
      return v.slice(0, spot(closers)) + v.slice(spot(closers) + 1);
    if (b.kind === "swap" && closers.length > 0) {
      const i = spot(closers);
      return `${v.slice(0, i)}${v[i] === "]" ? "}" : "]"}${v.slice(i + 1)}`;
    }
    if (b.kind === "insert" && values.length > 0)
      return v.slice(0, spot(values)) + b.what + v.slice(spot(values));
    return v;
  };
  const top = fc.oneof(
    fc.array(fc.tuple(fc.oneof(string, word), tree), { minLength: 1, maxLength: 4 }).map((map) => ({ map })),
    fc.array(tree, { minLength: 1, maxLength: 4 }).map((seq) => ({ seq })),
  );
  const text = fc
    .tuple(
      top,
      fc.array(fc.constantFrom("", "", " ", "\n ", "\n   ", "\n", " \n  ", "  "), {
        minLength: 40,
        maxLength: 40,
      }),
      breakage,
      fc.constantFrom("", "\n", "\n", "\nlast: 1\n", "\n  more\n", "   \n"),
      fc.constantFrom("", "name: n\n", "a: 1\r\n"),
    )
    .map(([t, gaps, b, tail, head]) => `${head}metadata: ${broken(render(t, [...gaps]), b)}${tail}`);

  test("whenever the fast path says yaml rejects one, yaml does", () => {
    let claimed = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (fastParse(t) !== YAML_ERROR) return;
        claimed++;
        expect(viaYaml(t), t).toBe(ERROR);
      }),
      fuzzParams(3000),
    );
    // The generator must reach the claim often, or the property proves nothing.
    expect(claimed).toBeGreaterThan(400);
  });
});
