// Flow collections over several lines (JSON metadata as real manifests write it) and trailing commas: the
// fast path gives exactly yaml's value, or declines; each case pins a branch of Scanner.flowLines and flow.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";
import { decodeUtf8, splitManifest } from "../src/manifest.js";
import { CORPUS, corpusTest } from "./helpers/fixture.js";

/** What the `yaml` path makes of `text`: its value, or "error" when it reports one. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  return doc.errors.length > 0 ? "error" : doc.toJS();
}

/** The fast path's value, which must be yaml's; "decline" when it leaves the text to yaml. */
function fast(text: string): unknown {
  const value = fastParse(text);
  if (value === undefined) return "decline";
  if (value === YAML_ERROR) {
    expect(viaYaml(text), text).toBe("error");
    return "error";
  }
  expect(value, text).toStrictEqual(viaYaml(text));
  return value;
}

describe("flow collections over several lines", () => {
  test.each([
    ["a sequence continued deeper", "a: [x,\n   y]\n", { a: ["x", "y"] }],
    ["a map whose value sits on the next line", 'a: {"k":\n    1}\n', { a: { k: 1 } }],
    ["a map closed at the key's indent plus one", 'a: {\n  "k": 1\n  }\n', { a: { k: 1 } }],
    ["a map opened on the line below its key", 'a:\n  {\n "k": 1\n  }\n', { a: { k: 1 } }],
    ["a nested key's sequence", "b:\n  a: [x,\n   y]\n", { b: { a: ["x", "y"] } }],
    ["a nested key's sequence on the line below", "b:\n  a:\n   [x,\n   y]\n", { b: { a: ["x", "y"] } }],
    ["a compact mapping's value in a sequence", "s:\n  - a: [x,\n     y]\n", { s: [{ a: ["x", "y"] }] }],
    ["spaces after the closing bracket", "a: [x,\n   y] \n", { a: ["x", "y"] }],
    ["a key after it", "a: [x,\n   y]\nb: 1\n", { a: ["x", "y"], b: 1 }],
    ["nested collections with trailing commas", "a: [[x,\n   y], z,\n  ]\n", { a: [["x", "y"], "z"] }],
    ["a map with a trailing comma", 'a: {"k": [1, 2],\n   }\n', { a: { k: [1, 2] } }],
  ])("takes %s", (_, text, want) => {
    expect(fast(text)).toStrictEqual(want);
  });

  test.each([
    ["a closing bracket at column 0 (yaml takes it)", 'a: {\n  "k": 1\n}\n'],
    ["a plain scalar folded over the break", "a: [x\n   y]\n"],
    ["a quoted scalar folded over the break", 'a: ["x\n   y"]\n'],
    ["a plain key whose value is on the next line", "a: {k:\n    1}\n"],
    ["a blank line inside", "a: [x,\n\n   y]\n"],
    ["a comment inside", "a: [x, # c\n   y]\n"],
    ["a comment after it", "a: [x,\n   y] # c\n"],
    ["a sequence item's collection", "a:\n  - [x,\n    y]\n"],
    ["a line at the key's indent (yaml: not indented enough)", "b:\n  a: [x,\n  y]\n"],
    ["a compact mapping's line at its key's column", "s:\n  - a: [x,\n    y]\n"],
    ["a mapping line below the collection", "a: [x,\n   y]\n  b: 1\n"],
    ["text after the closing bracket", "a: [x,\n   y], z\n"],
    ["a bracket too many", "a: [x,\n   y]]\n"],
    ["an empty collection over two lines", "a: [\n]\n"],
    // Nested: at the top level, a collection left open at the end of the text is yaml's error for sure.
    ["a key with no line below", "b:\n  a: [x,\n"],
    ["a quoted value not closed on its line", 'a: "x\n  y"\n'],
  ])("declines %s", (_, text) => {
    expect(fast(text)).toBe("decline");
  });

  test("one trailing comma is allowed on one line too; an empty item is not", () => {
    expect(fast("a: [x, ]\n")).toStrictEqual({ a: ["x"] });
    expect(fast("a: [x,]\n")).toStrictEqual({ a: ["x"] });
    expect(fast("a: {k: 1, }\n")).toStrictEqual({ a: { k: 1 } });
    expect(fast("a: [x, , ]\n")).toBe("decline");
    expect(fast("a: [,]\n")).toBe("decline");
    expect(viaYaml("a: [x, , ]\n")).toBe("error");
  });

  test('a top-level plain value holding ": " before such a collection is still yaml\'s error for sure', () => {
    expect(fast('description: Use when: x\nmetadata: {"a":\n  1}\n')).toBe("error");
    expect(fast('metadata: {"a":\n  1}\ndescription: Use when: x\n')).toBe("error");
  });

  test("generated JSON-style metadata over several lines: yaml's value or a decline", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,5}$/);
    const scalar = fc.oneof(
      word,
      fc.constantFrom("1", "true", "null", "~", "0x1f", "-", "a b", "é", ":", "#", "x#y"),
      word.map((w) => `"${w}"`),
      fc.constantFrom('"a: b"', "'it''s'", '"\\u00e9"', '"x\\ny"', '""'),
    );
    // Between tokens: a space, a line break to some indentation, or a comment.
    const gap = fc.constantFrom(" ", "", "\n ", "\n   ", "\n      ", "\n", "\n\n   ", " # c\n   ");
    type Tree = { kind: "seq" | "map"; items: (string | Tree)[]; keys: string[] };
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
      t: fc.record({
        kind: fc.constantFrom("seq" as const, "map" as const),
        items: fc.array(fc.oneof({ depthSize: "small" }, scalar, tie("t")), { maxLength: 3 }),
        keys: fc.array(
          fc.oneof(
            word.map((w) => `"${w}"`),
            word,
            fc.constant('"k"'),
          ),
          {
            minLength: 3,
            maxLength: 3,
          },
        ),
      }),
    })).t;
    const render = (t: Tree | string, gaps: string[]): string => {
      if (typeof t === "string") return t;
      const g = () => gaps.shift() ?? " ";
      const parts = t.items.map((item, i) =>
        t.kind === "seq" ? render(item, gaps) : `${t.keys[i]}:${g()}${render(item, gaps)}`,
      );
      const trailing = gaps.shift() === "\n" ? "," : "";
      return `${t.kind === "seq" ? "[" : "{"}${g()}${parts.join(`,${g()}`)}${trailing}${g()}${t.kind === "seq" ? "]" : "}"}`;
    };
    const text = fc
      .tuple(
        tree,
        fc.array(gap, { maxLength: 30 }),
        fc.constantFrom("", "\n  ", "nest"),
        fc.constantFrom("", " ", " # c"),
      )
      .map(([t, gaps, open, after]) => {
        const value = render(t, [...gaps]) + after;
        if (open === "nest") return `name: n\nouter:\n  metadata: ${value.replaceAll("\n", "\n  ")}\n`;
        return `name: n\nmetadata:${open === "" ? " " : open}${value}\nlast: 1\n`;
      });
    let taken = 0;
    let multiline = 0;
    fc.assert(
      fc.property(text, (t) => {
        const v = fast(t);
        if (v !== "decline" && v !== "error") {
          taken++;
          if (/[[{,:][^\n]*\n {2,}[^\n]*\n/.test(t)) multiline++;
        }
      }),
      { numRuns: 1500, seed: 20261130 },
    );
    // The generator must reach the new path often, or the property proves nothing.
    expect(taken).toBeGreaterThan(300);
    expect(multiline).toBeGreaterThan(200);
  });

  corpusTest("the corpus's JSON metadata over several lines takes the fast path", () => {
    for (const dir of ["advanced-skill-creator", "clawdbot-jira-skill"]) {
      const file = path.join(CORPUS, "openclaw__skills", dir, "SKILL.md");
      const split = splitManifest(decodeUtf8(fs.readFileSync(file)) ?? "");
      if (!split.ok) throw new Error(`${file} has no frontmatter`);
      const value = fast(split.frontmatter);
      expect(value, file).not.toBe("decline");
      expect(Object.keys(value as object)).toContain("metadata");
    }
  });
});
