// The error model at its edges: what a SkillError carries (and does not) for each option, how each
// kind of value reads in a StartupError message, and the escape of each class of unprintable unit.
import { describe, expect, test } from "vitest";
import { printable, SKILL_ERROR_CODES } from "../src/errors.js";
import { agentsSkillRoots, resolveConfig, SkillError, StartupError } from "../src/index.js";

describe("SkillError", () => {
  test("the closed set of codes, as SPEC §1 lists them", () => {
    expect(SKILL_ERROR_CODES).toEqual([
      "invalid_skill",
      "duplicate_skill",
      "path_escape",
      "invalid_input",
      "not_found",
      "not_a_file",
    ]);
  });

  test("without options: the code and message, and no cause, path or skill property at all", () => {
    const e = new SkillError("not_found", "no skill named x");
    expect([e.name, e.code, e.message]).toEqual(["SkillError", "not_found", "no skill named x"]);
    expect(Object.hasOwn(e, "cause")).toBe(false);
    expect(Object.hasOwn(e, "path")).toBe(false);
    expect(Object.hasOwn(e, "skill")).toBe(false);
  });

  test("an option given undefined is as one not given", () => {
    const e = new SkillError("not_found", "m", { path: undefined, skill: undefined, cause: undefined });
    expect(Object.keys(e).sort()).toEqual(["code", "name"]);
    expect(Object.hasOwn(e, "cause")).toBe(false);
  });

  test("with options: each one kept as given, the message made printable", () => {
    const cause = Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    const e = new SkillError("invalid_skill", "bad\u001b[2J name", { path: "/r/a\nb", skill: "a", cause });
    expect(e.message).toBe("bad\\x1b[2J name");
    expect(e.cause).toBe(cause);
    expect(e.path).toBe("/r/a\nb");
    expect(e.skill).toBe("a");
  });

  test("a falsy cause is still a cause", () => {
    expect(new SkillError("invalid_input", "m", { cause: 0 }).cause).toBe(0);
    expect(new SkillError("invalid_input", "m", { cause: null }).cause).toBe(null);
  });
});

describe("how a received value reads in a StartupError message", () => {
  /** The message of the error that `strict: value` makes resolveConfig throw. */
  function received(value: unknown): string {
    try {
      resolveConfig({ roots: [{ path: "/r" }], strict: value as boolean });
    } catch (e) {
      if (e instanceof StartupError) return e.message;
      throw e;
    }
    return "accepted";
  }

  test.each([
    ["a string, quoted", "yes", '"yes"'],
    ["null", null, "null"],
    ["an array", [true], "an array"],
    ["an object", { on: true }, "an object"],
    ["a function", () => true, "a function"],
    ["a symbol", Symbol("s"), "a symbol"],
    ["a number", 1, "number 1"],
    ["a bigint", 1n, "bigint 1"],
  ])("%s", (_, value, shown) => {
    expect(received(value)).toBe(`option "strict" must be a boolean, received ${shown}`);
  });

  test("undefined, where a value is required", () => {
    let message = "accepted";
    try {
      resolveConfig({ roots: [undefined as unknown as { path: string }] });
    } catch (e) {
      message = (e as StartupError).message;
    }
    expect(message).toBe('roots[0] must be an object with a "path", received undefined');
  });
});

describe("how a caller's thrown value reads in a StartupError message", () => {
  /** The message of the error a preset throws when reading its `workspace` option throws `thrown`. */
  function trapped(thrown: unknown): string {
    const opts = {
      get workspace(): string {
        throw thrown;
      },
    };
    try {
      agentsSkillRoots(opts);
    } catch (e) {
      if (e instanceof StartupError) return e.message;
      throw e;
    }
    return "accepted";
  }

  test("an Error by its message, anything else as a value", () => {
    expect(trapped(new RangeError("no access"))).toBe('preset option "workspace" cannot be read: no access');
    expect(trapped("no access")).toBe('preset option "workspace" cannot be read: "no access"');
    expect(trapped(undefined)).toBe('preset option "workspace" cannot be read: undefined');
  });
});

describe("printable", () => {
  test.each([
    ["NUL", "\u0000", "\\x00"],
    ["ESC", "\u001b", "\\x1b"],
    ["DEL", "\u007f", "\\x7f"],
    ["the last C1 control", "\u009f", "\\x9f"],
    ["the line separator", "\u2028", "\\u2028"],
    ["a bidirectional override", "\u202e", "\\u202e"],
    ["a bidirectional isolate", "\u2066", "\\u2066"],
    ["a lone high surrogate", "\ud800", "\\ud800"],
    ["a lone low surrogate", "\udc00", "\\udc00"],
  ])("writes %s as a visible escape", (_, unit, shown) => {
    expect(printable(`a${unit}b`)).toBe(`a${shown}b`);
  });

  test("escapes every unprintable unit of the text, not only the first", () => {
    expect(printable("\u001b[31m\nred\u2069")).toBe("\\x1b[31m\\x0ared\\u2069");
  });

  test("leaves printable text, a surrogate pair and U+00A0 to U+00FF alone", () => {
    expect(printable("é ÿ \u00a0 😀 a\\x1b")).toBe("é ÿ \u00a0 😀 a\\x1b");
  });
});
