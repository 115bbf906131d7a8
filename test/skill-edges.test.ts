// Manifest bytes → outcome at its edges: which stage refused, and a line only where the file has one.
import { describe, expect, test } from "vitest";
import { keyLine, parseManifest } from "../src/skill.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("parseManifest: failures", () => {
  test("frontmatter that is not a mapping is a yaml problem without a line", () => {
    expect(parseManifest(bytes("---\n- a\n- b\n---\nBody\n"), true)).toStrictEqual({
      ok: false,
      problem: "yaml",
      message: "frontmatter is a list, not a mapping of keys to values",
    });
  });

  test("a schema failure on a key the file does not write has no line", () => {
    expect(parseManifest(bytes("---\ndescription: d\n---\nBody\n"), true)).toStrictEqual({
      ok: false,
      problem: "schema",
      message: expect.any(String),
      key: "name",
      received: "undefined",
    });
  });

  test("a schema failure on a written key has its file line", () => {
    const outcome = parseManifest(bytes("---\ndescription: d\nname: 5\n---\nBody\n"), true);
    expect(outcome).toMatchObject({ ok: false, problem: "schema", key: "name", line: 3 });
  });
});

describe("keyLine", () => {
  test.each([
    ["a: 1\nname: x", 3],
    ['a: 1\n"name": x', 3],
    ["a: 1\n'name': x", 3],
    ['"name":\n  - x', 2],
    ["a: name:\nnamed: x", undefined],
  ])("%j", (text, line) => {
    expect(keyLine(text, "name")).toBe(line);
  });
});
