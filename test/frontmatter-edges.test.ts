// Issue 9: exact-value tests on src/frontmatter.ts's bounds, located errors and lenient repair, each
// written to fail when the line it names is broken (mutation testing survivors).
import { describe, expect, test } from "vitest";
import {
  MAX_ALIASES,
  MAX_EXPANDED_WEIGHT,
  MAX_YAML_LENGTH,
  parseFrontmatter,
  repairYaml,
} from "../src/frontmatter.js";
import { nest } from "./helpers/fixture.js";
import { nearStackEnd, OVERFLOW } from "./helpers/stack.js";

const TOO_DEEP = { ok: false, message: "frontmatter nests deeper than 64 levels" };
const EXPANDS = {
  ok: false,
  message: `frontmatter aliases expand to more than ${MAX_EXPANDED_WEIGHT} characters and nodes, or refer to themselves`,
};

describe("located YAML errors from the full parser", () => {
  test("the first line of yaml's message, its position stripped, with line and column", () => {
    expect(parseFrontmatter("a: b: c", false)).toEqual({
      ok: false,
      message: "invalid YAML: Nested mappings are not allowed in compact mappings",
      line: 1,
      column: 4,
    });
  });

  test("a two-digit line number is stripped from the message too", () => {
    expect(parseFrontmatter(`${"\n".repeat(10)}a: b: c`, false)).toEqual({
      ok: false,
      message: "invalid YAML: Nested mappings are not allowed in compact mappings",
      line: 11,
      column: 4,
    });
  });

  test("an unclosed quote is located on the blank line after it", () => {
    expect(parseFrontmatter("a: 'x\n", false)).toEqual({
      ok: false,
      message: "invalid YAML: Missing closing 'quote",
      line: 2,
      column: 1,
    });
  });

  test("nesting that exhausts the parser's stack is too deep, without a position", () => {
    expect(parseFrontmatter(`a: ${"[".repeat(MAX_YAML_LENGTH - 8)}`, false)).toEqual(TOO_DEEP);
  });

  test("an error placed on a line's end stays on that line", () => {
    // yaml puts the duplicate key's error at the first key's empty value: the line break itself.
    expect(parseFrontmatter("x: \nx: 1", false)).toEqual({
      ok: false,
      message: "invalid YAML: Map keys must be unique",
      line: 1,
      column: 4,
    });
  });

  test("an error at the end of the text", () => {
    expect(parseFrontmatter('a: "unterminated', false)).toEqual({
      ok: false,
      message: 'invalid YAML: Missing closing "quote',
      line: 1,
      column: 17,
    });
  });
});

describe("what the full parser gives that is not a mapping", () => {
  test.each(["null", "~", "# only a comment"])("%j is empty", (text) => {
    expect(parseFrontmatter(text, false)).toEqual({
      ok: false,
      message: "frontmatter is empty, not a mapping of keys to values",
    });
  });
});

describe("alias expansion bound", () => {
  test("one alias over the count is refused before yaml composes the text", () => {
    const text = `a: &x 1\nb: [${Array(MAX_ALIASES + 1)
      .fill("*x")
      .join(", ")}]`;
    expect(parseFrontmatter(text, false)).toEqual({
      ok: false,
      message: `frontmatter uses ${MAX_ALIASES + 1} YAML aliases, over the limit of ${MAX_ALIASES}`,
    });
  });

  test("aliases of a number and of a null-valued neighbour load", () => {
    expect(parseFrontmatter("a: &x 1\nb: *x", false)).toEqual({
      ok: true,
      data: { a: 1, b: 1 },
      repaired: false,
    });
    expect(parseFrontmatter("a: &x b\nc:\nd: *x", false)).toEqual({
      ok: true,
      data: { a: "b", c: null, d: "b" },
      repaired: false,
    });
    expect(parseFrontmatter("a: &x b\nc: {d, e: *x}", false)).toEqual({
      ok: true,
      data: { a: "b", c: { d: null, e: "b" } },
      repaired: false,
    });
  });

  test("a long string repeated by aliases is refused, a number beside it notwithstanding", () => {
    const big = "y".repeat(3000);
    expect(parseFrontmatter(`a: &x "${big}"\nb: [1, *x, *x, *x, *x, *x, *x]`, false)).toEqual(EXPANDS);
  });

  test("a weight of exactly the limit loads; one more character is refused", () => {
    // abc(1+3) + &x(1+L) + b(1+1) + seq(1) + 7 aliases(7 × (1+L)) + the mapping(1) = 16 + 8L.
    const text = (len: number) => `abc: &x "${"y".repeat(len)}"\nb: [*x, *x, *x, *x, *x, *x, *x]`;
    const exact = (MAX_EXPANDED_WEIGHT - 16) / 8;
    const ok = parseFrontmatter(text(exact), false);
    expect(ok.ok).toBe(true);
    expect(parseFrontmatter(text(exact + 1), false)).toEqual(EXPANDS);
  });

  test("an alias inside its own anchor is refused", () => {
    expect(parseFrontmatter("a: &x [b, *x]", false)).toEqual(EXPANDS);
  });

  test("aliases of aliases past yaml's alias count are refused with yaml's message", () => {
    const ten = (s: string) => Array(10).fill(s).join(", ");
    const text = `a: &a [x]\nb: &b [${ten("*a")}]\nc: &c [${ten("*b")}]\nd: [${ten("*c")}]`;
    expect(parseFrontmatter(text, false)).toEqual({
      ok: false,
      message: "invalid YAML: Excessive alias count indicates a resource exhaustion attack",
    });
  });
});

describe("depth bound", () => {
  test("aliases that nest a shallow tree deeper than the limit are refused", () => {
    expect(parseFrontmatter(`a: &x ${nest(40, "1")}\nb: ${nest(40, "*x")}`, false)).toEqual(TOO_DEEP);
    expect(parseFrontmatter(`a: &x ${nest(30, "1")}\nb: ${nest(30, "*x")}`, false).ok).toBe(true);
  });

  test("a collection key nested deeper than the limit is refused (toJS would make it a string)", () => {
    expect(parseFrontmatter(`{${nest(70, "1")}: 1}`, false)).toEqual(TOO_DEEP);
  });

  test("aliases whose expansion overflows the stack are too deep, from every call depth that returns", () => {
    // Four aliases of 60 levels each expand to 240: too deep after toJS at any depth; called from near
    // the stack's end, expanding them (not parsing) is what overflows, a RangeError caught as too deep.
    const text = Array.from(
      { length: 4 },
      (_, i) => `a${i}: &a${i} ${nest(60, i === 0 ? "x" : `*a${i - 1}`)}`,
    ).join("\n");
    expect(parseFrontmatter(text, false)).toEqual(TOO_DEEP);
    // From below the fewest frames at which the call itself overflows, up to them.
    const { outcome, limit } = nearStackEnd(() => parseFrontmatter(text, false));
    let checked = 0;
    for (let frames = Math.max(0, limit - 1500); ; frames += 2) {
      const got = outcome(frames);
      if (got === OVERFLOW) break;
      expect(got, `${frames} frames down`).toEqual(TOO_DEEP);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe("nesting is judged on what precedes the first YAML error (audit D, finding 1)", () => {
  // yaml's recovery nests each later `k: a: b` line inside the one before: 33 flat lines became 68 levels.
  const flat = `name: x\ndescription: "has a\ttab"\n${Array.from({ length: 33 }, (_, i) => `k${i}: Note: see: here`).join("\n")}\n`;

  test("a flat frontmatter with errors gets its first located error, not 'too deep'", () => {
    expect(parseFrontmatter(flat, false)).toEqual({
      ok: false,
      message: "invalid YAML: Nested mappings are not allowed in compact mappings",
      line: 3,
      column: 5,
    });
  });

  test("so the lenient repair can load it", () => {
    const parsed = parseFrontmatter(flat, true);
    expect(parsed.ok && parsed.repaired).toBe(true);
    expect(parsed.ok && parsed.data.k32).toBe("Note: see: here");
  });

  test("nesting deeper than the limit before the first error is still too deep", () => {
    expect(parseFrontmatter(`a: ${nest(70, "1")}\nb: c: d`, false)).toEqual(TOO_DEEP);
  });

  test("an error before nesting that exhausts the parser's stack: the error, located, whatever the stack", () => {
    const text = `a: b: c\nz: ${"[".repeat(MAX_YAML_LENGTH - 20)}`;
    const expected = {
      ok: false,
      message: "invalid YAML: Nested mappings are not allowed in compact mappings",
      line: 1,
      column: 4,
    };
    expect(parseFrontmatter(text, false)).toEqual(expected);
    // From deep in the stack too, where the parser runs out of it sooner.
    const deep = (n: number): unknown => (n === 0 ? parseFrontmatter(text, false) : deep(n - 1));
    expect(deep(5000)).toEqual(expected);
  });
});

describe("an alias without its anchor (audit C, finding 4)", () => {
  test("is located at the alias", () => {
    expect(parseFrontmatter("a: 1\nk: *nope\n", false)).toEqual({
      ok: false,
      message: "invalid YAML: Unresolved alias (the anchor must be set before the alias): nope",
      line: 2,
      column: 4,
    });
  });

  test("an alias before its anchor is unresolved too, and located", () => {
    expect(parseFrontmatter("a: *x\nb: &x 1\n", false)).toEqual({
      ok: false,
      message: "invalid YAML: Unresolved alias (the anchor must be set before the alias): x",
      line: 1,
      column: 4,
    });
  });
});

describe("repairYaml", () => {
  test("a value that starts a block scalar (| or >) is left alone, whatever follows the indicator", () => {
    expect(repairYaml("description: > Use when: x")).toBeUndefined();
    expect(repairYaml("description: | Use when: x")).toBeUndefined();
  });

  test("trailing blanks of the value are cut: spaces, tabs, both", () => {
    expect(repairYaml("description: Use when: x   ")).toBe('description: "Use when: x"');
    expect(repairYaml("description: Use when: x\t\t")).toBe('description: "Use when: x"');
    expect(repairYaml("description: Use when: x \t")).toBe('description: "Use when: x"');
  });

  test("CRLF continuation lines move inside the quotes, escaped, the CRs kept at line ends", () => {
    const text = 'description: Use when: a\r\n  more "q" \\ here\r\n  a\rb\r\nname: x\r\n';
    expect(repairYaml(text)).toBe(
      'description: "Use when: a\r\n  more \\"q\\" \\\\ here\n  a\rb"\r\nname: x\r\n',
    );
  });

  test("a one-line value keeps its CR after the closing quote", () => {
    expect(repairYaml("description: Use when: a\r\nname: x")).toBe('description: "Use when: a"\r\nname: x');
  });

  test("a comment ends the value, as in YAML, and stays a comment after the quotes (audit C, finding 8)", () => {
    const text = "description: Use when: the user asks # TODO tighten\r\n  not a continuation";
    expect(repairYaml(text)).toBe(
      'description: "Use when: the user asks" # TODO tighten\r\n  not a continuation',
    );
    expect(repairYaml("description: Use when: x\t# note")).toBe('description: "Use when: x"\t# note');
    const parsed = parseFrontmatter("name: a\ndescription: Use when: the user asks # TODO", true);
    expect(parsed.ok && parsed.data.description).toBe("Use when: the user asks");
    // A `#` that follows no blank is text.
    expect(repairYaml("description: Use when: C# code")).toBe('description: "Use when: C# code"');
    // A value whose `: ` is only in the comment needs no quotes.
    expect(repairYaml("description: plain # see: this")).toBeUndefined();
  });

  test("quoted values are left alone though they hold ': '", () => {
    expect(repairYaml("description: 'a: b'\nname: \"c: d\"")).toBeUndefined();
  });

  test("a CR inside a line is no line end: no match", () => {
    expect(repairYaml("description: a: b\rc")).toBeUndefined();
  });

  test("a blank-only line or an unindented line ends the continuation", () => {
    expect(repairYaml("description: a: b\n   \nname: x")).toBe('description: "a: b"\n   \nname: x');
    expect(repairYaml("description: a: b\nname: x\n  y")).toBe('description: "a: b"\nname: x\n  y');
  });

  test("a repair the fast path still rejects falls to yaml, whose first error stands", () => {
    expect(parseFrontmatter('description: Use when: x\nb: "q" junk', true)).toEqual({
      ok: false,
      message: "invalid YAML: Nested mappings are not allowed in compact mappings",
      line: 1,
      column: 14,
    });
  });

  test("a repair the fast path reads is not held to the full parser's length limit", () => {
    const text = `name: x\ndescription: Use when: y\nnote: ${"z".repeat(MAX_YAML_LENGTH)}`;
    expect(parseFrontmatter(text, true)).toEqual({
      ok: true,
      data: { name: "x", description: "Use when: y", note: "z".repeat(MAX_YAML_LENGTH) },
      repaired: true,
    });
  });
});
