import { describe, expect, test } from "vitest";
import { EXAMPLE, REPO, run } from "./helpers/cli.js";
import { corpusRoots, corpusTest, fixtureRoots, skill, writeTree } from "./helpers/fixture.js";

const NEEDS_FIXES = [
  "examples/needs-fixes/notes/SKILL.md:1: error frontmatter-fence: SKILL.md does not start with a --- frontmatter fence",
  "  fix: start the file with a line ---, then the YAML keys (name, description), then a line ---",
  'examples/needs-fixes/pdf-tools/SKILL.md:2: error name-format: name "PDF_Tools" must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen',
  '  fix: rename it to "pdf-tools"',
  'examples/needs-fixes/pdf-tools/SKILL.md:2: error name-matches-dir: name "PDF_Tools" differs from its directory name "pdf-tools"',
  "  fix: give the directory and the name the same value",
  "examples/needs-fixes/release-notes/SKILL.md:3:14: warning yaml_repaired: frontmatter is not valid YAML (invalid YAML: Nested mappings are not allowed in compact mappings); it loads only after quoting the plain value on line 3",
  "  | description: Use when: the user asks for release notes",
  "  |              ^",
  "  fix: put the value in double quotes: strict mode and strict YAML parsers reject it as written",
  "examples/needs-fixes/release-notes/SKILL.md:4: error metadata-strings: metadata must be a map of string keys to string values",
  "  fix: quote each value, and flatten nested maps into keys such as `author`, `version`",
  "",
  "findings by rule:",
  "  error    frontmatter-fence  1",
  "  error    metadata-strings   1",
  "  error    name-format        1",
  "  error    name-matches-dir   1",
  "  warning  yaml_repaired      1",
  "failed: 3 skills checked, 3 with errors; 4 errors, 1 warning",
  "",
].join("\n");

const EXCERPT = "description: Use when: the user asks for release notes";

describe("validate", () => {
  test("a folder of skills: each finding located with its fix, then counts by rule; exit 1 on errors", () => {
    expect(run(["validate", "examples/needs-fixes"])).toEqual({ code: 1, out: NEEDS_FIXES, err: "" });
  });

  test("with no PATH it checks the resolved roots (here the example's preset roots)", () => {
    expect(run(["validate", ...EXAMPLE])).toEqual({
      code: 1,
      out: [
        'examples/workspace/.clarvis/skills/broken/SKILL.md:4:1: error yaml-syntax: invalid YAML: Missing closing "quote',
        "  | ---",
        "  | ^",
        '  fix: fix the YAML here; put values that contain ": " or start with [ { ` @ in double quotes',
        "",
        "findings by rule:",
        "  error    yaml-syntax  1",
        "failed: 6 skills checked, 1 with errors; 1 error, 0 warnings",
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("roots that check nothing fail (issue 11: exit 0 on 0 skills); a missing PATH is an error", () => {
    expect(run(["validate", "--root", "no/such/root"])).toEqual({
      code: 1,
      out: [
        "no/such/root: error no-manifest: does not exist, so nothing was checked",
        "  fix: check --root, --workspace and --home: agent-skills roots shows where it looks",
        "",
        "findings by rule:",
        "  error    no-manifest  1",
        "failed: 0 skills checked; 1 error, 0 warnings",
        "",
      ].join("\n"),
      err: "",
    });
    expect(run(["validate", "no/such/path"])).toEqual({
      code: 1,
      out: [
        "no/such/path: error path-missing: does not exist",
        "  fix: check the path: give a skill directory, its SKILL.md, or a folder of skill directories",
        "",
        "findings by rule:",
        "  error    path-missing  1",
        "failed: 0 skills checked; 1 error, 0 warnings",
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("a --workspace that does not exist fails instead of checking nothing", () => {
    expect(run(["validate", "--workspace", "no/such/dir"])).toEqual({
      code: 1,
      out: "",
      err: 'error: invalid_option: option "workspace" "no/such/dir" does not exist\n',
    });
  });

  test("clean skills pass with exit 0", () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    expect(run(["validate", root])).toEqual({
      code: 0,
      out: "ok: 2 skills checked; 0 errors, 0 warnings\n",
      err: "",
    });
  });

  test("warnings alone pass, and fail under --strict", () => {
    const root = writeTree({ "q/SKILL.md": skill("q", "Use when: asked") });
    const lenient = run(["validate", root]);
    expect(lenient.code).toBe(0);
    expect(lenient.out.split("\n").at(-2)).toBe("ok: 1 skill checked; 0 errors, 1 warning");
    const strict = run(["validate", "--strict", root]);
    expect(strict.code).toBe(1);
    expect(strict.out.split("\n").at(-2)).toBe("failed (--strict): 1 skill checked; 0 errors, 1 warning");
  });

  test("--json prints the report and nothing else", () => {
    const { code, out, err } = run(["validate", "--json", "examples/needs-fixes/release-notes"]);
    expect([code, err]).toEqual([1, ""]);
    expect(JSON.parse(out)).toEqual({
      ok: false,
      skills: 1,
      skillsWithErrors: 1,
      errors: 1,
      warnings: 1,
      rules: [
        { rule: "metadata-strings", severity: "error", count: 1 },
        { rule: "yaml_repaired", severity: "warning", count: 1 },
      ],
      findings: [
        {
          severity: "warning",
          rule: "yaml_repaired",
          file: `${REPO}/examples/needs-fixes/release-notes/SKILL.md`,
          line: 3,
          column: 14,
          skill: "release-notes",
          message:
            "frontmatter is not valid YAML (invalid YAML: Nested mappings are not allowed in compact mappings); it loads only after quoting the plain value on line 3",
          hint: "put the value in double quotes: strict mode and strict YAML parsers reject it as written",
          excerpt: EXCERPT,
        },
        {
          severity: "error",
          rule: "metadata-strings",
          file: `${REPO}/examples/needs-fixes/release-notes/SKILL.md`,
          line: 4,
          skill: "release-notes",
          message: "metadata must be a map of string keys to string values",
          hint: "quote each value, and flatten nested maps into keys such as `author`, `version`",
        },
      ],
    });
  });

  test("--no-follow-symlinks skips the symlinked changelog skill", () => {
    const follow = run(["validate", "examples/workspace/.agents/skills"]).out;
    const noFollow = run(["validate", "--no-follow-symlinks", "examples/workspace/.agents/skills"]).out;
    expect([follow, noFollow]).toEqual([
      "ok: 3 skills checked; 0 errors, 0 warnings\n",
      "ok: 2 skills checked; 0 errors, 0 warnings\n",
    ]);
  });

  test("colour marks severities on a TTY only", () => {
    const tty = run(["validate", "examples/needs-fixes/notes"], { stdoutIsTTY: true });
    expect(tty.out).toContain(": \x1b[31merror\x1b[39m frontmatter-fence");
    expect(
      run(["validate", "examples/needs-fixes/notes"], { stdoutIsTTY: true, env: { NO_COLOR: "1" } }).out,
    ).not.toContain("\x1b");
  });

  test("the vendored real skills: ends with the counts by rule and fails", () => {
    const { code, out } = run(["validate", ...fixtureRoots().map((r) => r.path)]);
    expect(code).toBe(1);
    expect(out.slice(out.indexOf("findings by rule:"))).toBe(
      [
        "findings by rule:",
        "  error    metadata-strings    20",
        "  error    name-matches-dir    17",
        "  error    frontmatter-fence   12",
        "  error    duplicate_skill      6",
        "  error    name-format          6",
        "  error    frontmatter-schema   2",
        "  error    description-length   1",
        "  error    yaml-syntax          1",
        "  warning  unknown-field       26",
        "  warning  yaml_repaired        8",
        "  warning  manifest-name        6",
        "  warning  tools_ignored        2",
        "failed: 59 skills checked, 44 with errors; 65 errors, 42 warnings",
        "",
      ].join("\n"),
    );
  });

  corpusTest("the real corpus: ends with the counts by rule and fails", () => {
    const { code, out } = run(["validate", ...corpusRoots().map((r) => r.path)]);
    expect(code).toBe(1);
    const summary = out.slice(out.indexOf("findings by rule:"));
    expect(summary.split("\n")[0]).toBe("findings by rule:");
    expect(summary).toContain("\n  error    frontmatter-fence     133\n");
    expect(summary).toContain("\n  error    frontmatter-schema      3\n");
    expect(summary).toContain("\n  error    description-length      1\n");
    expect(summary).toMatch(/\nfailed: 2360 skills checked, \d+ with errors; \d+ errors, \d+ warnings\n$/);
  });
});
