// `agent-skills validate` edges: long excerpts cut around the caret, --strict's two failures, and the options validate passes on.
import { describe, expect, test } from "vitest";
import { run } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

const X = (n: number) => "x".repeat(n);
const REPAIRED =
  'warning yaml_repaired: frontmatter is not valid YAML (invalid YAML: Unexpected flow-seq-end token in YAML stream: "]"); it loads only after quoting the plain value on line 4';
const REPAIRED_FIX =
  "  fix: put the value in double quotes: strict mode and strict YAML parsers reject it as written";

describe("validate: the excerpt", () => {
  test("a column from 161 on shows 160 characters starting 80 before it, the caret 80 in", () => {
    // `license: [` + 147 x + `, ]]`: the second `]` is column 161.
    const line = `license: [${X(147)}, ]]`;
    const root = writeTree({ "s/SKILL.md": `---\nname: s\ndescription: d\n${line}\n---\n` });
    const { code, out } = run(["validate", `${root}/s`]);
    expect(code).toBe(0);
    expect(out.split("\n").slice(0, 4)).toEqual([
      `${root}/s/SKILL.md:4:161: ${REPAIRED}`,
      `  | ${line.slice(80, 240)}`,
      `  | ${" ".repeat(80)}^`,
      REPAIRED_FIX,
    ]);
  });

  test("a column before 161 shows the line from its start, cut at 160 characters", () => {
    const line = `license: [${X(60)}, ]]${X(200)}`;
    const root = writeTree({ "s/SKILL.md": `---\nname: s\ndescription: d\n${line}\n---\n` });
    const { out } = run(["validate", `${root}/s`]);
    expect(out.split("\n").slice(0, 3)).toEqual([
      `${root}/s/SKILL.md:4:74: ${REPAIRED}`,
      `  | ${line.slice(0, 160)}`,
      `  | ${" ".repeat(73)}^`,
    ]);
  });
});

describe("validate --strict", () => {
  test("errors fail as plain failed, not failed (--strict)", () => {
    const { code, out } = run(["validate", "--strict", "examples/needs-fixes/notes"]);
    expect(code).toBe(1);
    expect(out.split("\n").at(-2)).toBe("failed: 1 skill checked, 1 with errors; 1 error, 0 warnings");
  });

  test("no finding at all passes", () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    expect(run(["validate", "--strict", root])).toEqual({
      code: 0,
      out: "ok: 1 skill checked; 0 errors, 0 warnings\n",
      err: "",
    });
  });
});

describe("validate: options passed on", () => {
  test("--target adds that client's rules", () => {
    const root = writeTree({ "claude-helper/SKILL.md": skill("claude-helper") });
    expect(run(["validate", "--target", "claude", root])).toEqual({
      code: 1,
      out: [
        `${root}/claude-helper/SKILL.md:2: error claude-reserved-word: name "claude-helper" contains the reserved word "claude"`,
        "  fix: choose a name without anthropic or claude",
        "",
        "findings by rule:",
        "  error    claude-reserved-word  1",
        "failed: 1 skill checked, 1 with errors; 1 error, 0 warnings",
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("with --root, a --workspace that does not exist still fails", () => {
    expect(
      run(["validate", "--root", "examples/workspace/.clarvis/skills", "--workspace", "no/such/dir"]),
    ).toEqual({
      code: 1,
      out: "",
      err: 'error: invalid_option: option "workspace" "no/such/dir" does not exist\n',
    });
  });
});
