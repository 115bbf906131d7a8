import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { StartupError, type ValidationFinding, validateSkills } from "../src/index.js";
import {
  corpusRoots,
  corpusTest,
  FIXTURES,
  manifest,
  skill,
  type Tree,
  tempDir,
  writeTree,
} from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

/** A finding reduced to what a row asserts: file relative to the tree, then rule, severity, line, column. */
const brief = (base: string, f: ValidationFinding) =>
  [path.relative(base, f.file), f.rule, f.severity, f.line ?? null, f.column ?? null] as const;

describe("bad arguments throw StartupError", () => {
  test.each([
    [[], "validateSkills expects a non-empty array of paths, received an empty array"],
    ["skills", "validateSkills expects a non-empty array of paths, received string"],
    [[""], 'roots[0].path must be a non-empty string, received ""'],
  ])("%j", (paths, message) => {
    expect(() => validateSkills(paths as string[])).toThrow(new StartupError(message));
  });

  test("a mistyped option", () => {
    expect(() => validateSkills(["x"], { followSymlinks: "no" as never })).toThrow(
      new StartupError('option "followSymlinks" must be a boolean, received "no"'),
    );
  });

  // Found by the README audit: these ran as if true, or threw a TypeError.
  test.each([
    [{ asRoots: "yes" }, 'option "asRoots" must be a boolean, received "yes"'],
    [{ recursive: 1 }, 'option "recursive" must be a boolean, received number 1'],
    [null, "validateSkills options must be an object, received null"],
    ["strict", 'validateSkills options must be an object, received "strict"'],
  ])("options %j", (options, message) => {
    expect(() => validateSkills(["x"], options as never)).toThrow(new StartupError(message));
  });

  test("options of discovery it does not take are ignored: strict never makes it throw for a bad skill", () => {
    const dir = writeTree({ "bad/SKILL.md": "no fence" });
    const options = { strict: true, workspace: path.join(dir, "nope"), onWarning: () => {} };
    const report = validateSkills([path.join(dir, "bad")], options as never);
    expect(report.findings.map((f) => [path.relative(dir, f.file), f.rule])).toEqual([
      ["bad/SKILL.md", "frontmatter-fence"],
    ]);
  });
});

// Each row: a tree, the path given (relative to it), and the findings expected.
const ROWS: [string, Tree, string, (readonly [string, string, string, number | null, number | null])[]][] = [
  ["a clean skill", { "pdf/SKILL.md": skill("pdf") }, "pdf", []],
  ["path-missing", {}, "nope", [["nope", "path-missing", "error", null, null]]],
  [
    "no-manifest: a file given alone, which says what it is (the not-a-skill warning would repeat it)",
    { "README.md": "x" },
    "README.md",
    [["README.md", "no-manifest", "error", null, null]],
  ],
  [
    "no-manifest: an empty root (issue 11: it used to pass with 0 skills checked)",
    { "empty/.keep": "" },
    "empty",
    [["empty", "no-manifest", "error", null, null]],
  ],
  [
    "manifest-file: over 1 MiB",
    { "big/SKILL.md": `${skill("big")}${"x".repeat(1024 * 1024)}` },
    "big",
    [["big/SKILL.md", "manifest-file", "error", null, null]],
  ],
  [
    "manifest-file: a FIFO",
    { "r/fifo/SKILL.md": { fifo: true } },
    "r",
    [["r/fifo/SKILL.md", "manifest-file", "error", null, null]],
  ],
  [
    "manifest-encoding",
    { "bin/SKILL.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]) },
    "bin",
    [["bin/SKILL.md", "manifest-encoding", "error", null, null]],
  ],
  [
    "frontmatter-fence: none",
    { "n/SKILL.md": "# just markdown\n" },
    "n",
    [["n/SKILL.md", "frontmatter-fence", "error", 1, null]],
  ],
  [
    "frontmatter-fence: never closed",
    { "n/SKILL.md": "---\nname: n\ndescription: d\n" },
    "n",
    [["n/SKILL.md", "frontmatter-fence", "error", 1, null]],
  ],
  [
    "yaml-syntax",
    { "y/SKILL.md": manifest("name: y\nname: z\ndescription: d") },
    "y",
    [["y/SKILL.md", "yaml-syntax", "error", 3, 1]],
  ],
  [
    "frontmatter-schema: description missing, with its line unknown",
    { "s/SKILL.md": manifest("name: s") },
    "s",
    [["s/SKILL.md", "frontmatter-schema", "error", null, null]],
  ],
  [
    "frontmatter-schema: user-invocable not a boolean, located",
    { "s/SKILL.md": manifest("name: s\ndescription: d\nuser-invocable: sometimes") },
    "s",
    [["s/SKILL.md", "frontmatter-schema", "error", 4, null]],
  ],
  [
    "name-format and name-matches-dir, once each (no name_mismatch echo)",
    { "pdf-tools/SKILL.md": skill("PDF_Tools") },
    "pdf-tools",
    [
      ["pdf-tools/SKILL.md", "name-format", "error", 2, null],
      ["pdf-tools/SKILL.md", "name-matches-dir", "error", 2, null],
    ],
  ],
  [
    "description-length",
    { "d/SKILL.md": manifest(`name: d\nlicense: MIT\ndescription: ${"é".repeat(1025)}`) },
    "d",
    [["d/SKILL.md", "description-length", "error", 4, null]],
  ],
  [
    "compatibility-length",
    { "c/SKILL.md": skill("c", "d", `compatibility: ${"x".repeat(501)}`) },
    "c",
    [["c/SKILL.md", "compatibility-length", "error", 4, null]],
  ],
  [
    "metadata-strings",
    { "m/SKILL.md": skill("m", "d", "metadata:\n  version: 2") },
    "m",
    [["m/SKILL.md", "metadata-strings", "error", 4, null]],
  ],
  [
    "duplicate_skill within a root, at its name (audit C, finding 5: it had no line)",
    { "r/a/SKILL.md": skill("a"), "r/b/SKILL.md": skill("a") },
    "r",
    [
      ["r/b/SKILL.md", "name-matches-dir", "error", 2, null],
      ["r/b/SKILL.md", "duplicate_skill", "error", 2, null],
    ],
  ],
  [
    "yaml_repaired, located at the original YAML error",
    { "q/SKILL.md": manifest("name: q\ndescription: Use when: asked") },
    "q",
    [["q/SKILL.md", "yaml_repaired", "warning", 3, 14]],
  ],
  [
    "tools_ignored",
    { "t/SKILL.md": skill("t", "d", "tools:\n  - name: x") },
    "t",
    [["t/SKILL.md", "tools_ignored", "warning", null, null]],
  ],
  [
    "multiple_manifests",
    { "two/SKILL.md": skill("two"), "two/skill.md": skill("two") },
    "two",
    [["two/SKILL.md", "multiple_manifests", "warning", null, null]],
  ],
  [
    "dangling_symlink in a root",
    { "r/a/SKILL.md": skill("a"), "r/gone": { symlink: "../nowhere" } },
    "r",
    [["r/gone", "dangling_symlink", "warning", null, null]],
  ],
];

describe("one row per rule: file, rule, severity, line and column", () => {
  test.each(ROWS)("%s", (_, tree, given, expected) => {
    const base = writeTree(tree);
    const report = validateSkills([given], { cwd: base });
    expect(report.findings.map((f) => brief(base, f))).toEqual(expected);
    for (const f of report.findings) {
      expect(f.hint).not.toBe("");
      // The finding carries the file; its message does not open with it again.
      expect(f.message.startsWith(f.file)).toBe(false);
    }
    expect(report.ok).toBe(!expected.some((e) => e[2] === "error"));
  });
});

describe("what a path is taken for", () => {
  test("a SKILL.md checks its directory; a skill directory does not look at its siblings", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": "broken" });
    expect(validateSkills([`${base}/a/SKILL.md`]).findings).toEqual([]);
    expect(validateSkills([`${base}/a`])).toMatchObject({ skills: 1, findings: [] });
    expect(validateSkills([base])).toMatchObject({ skills: 2, errors: 1 });
  });

  test("asRoots: every path is a root, and missing or empty ones are not reported", () => {
    const base = writeTree({ "empty/.keep": "", "r/a/SKILL.md": skill("a") });
    const report = validateSkills([`${base}/missing`, `${base}/empty`, `${base}/r`], { asRoots: true });
    expect(report).toMatchObject({ ok: true, skills: 1, findings: [] });
  });

  test("asRoots: a root that is a file is root_not_directory", () => {
    const base = writeTree({ file: "x" });
    expect(validateSkills([`${base}/file`], { asRoots: true }).findings.map((f) => brief(base, f))).toEqual([
      ["file", "root_not_directory", "warning", null, null],
      ["file", "no-manifest", "error", null, null],
    ]);
  });

  test("followSymlinks false ignores a symlinked skill directory, as discovery does", () => {
    const base = writeTree({ "store/a/SKILL.md": skill("a"), "r/a": { symlink: "../store/a" } });
    expect(validateSkills([`${base}/r`]).skills).toBe(1);
    expect(validateSkills([`${base}/r`], { followSymlinks: false }).findings.map((f) => f.rule)).toEqual([
      "no-manifest",
    ]);
  });

  test("an unreadable skill directory and root are errors", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a"), "s/SKILL.md": skill("s") });
    setFaultHook((op, p) => {
      if (op === "readdir" && (p === `${base}/r/a` || p === `${base}/s`)) {
        throw Object.assign(new Error("denied"), { code: "EACCES" });
      }
    });
    const report = validateSkills([`${base}/r`, `${base}/s`]);
    expect(report.findings.map((f) => [brief(base, f), f.message])).toEqual([
      [
        ["r/a", "unreadable", "error", null, null],
        `skill directory ${base}/r/a cannot be read (EACCES); skipped`,
      ],
      [["s", "unreadable", "error", null, null], "cannot be read (EACCES)"],
    ]);
    setFaultHook((op, p) => {
      if (op === "readdir" && p === `${base}/r`) throw Object.assign(new Error("denied"), { code: "EACCES" });
    });
    expect(validateSkills([`${base}/r`], { asRoots: true }).findings.map((f) => brief(base, f))).toEqual([
      ["r", "root_unreadable", "error", null, null],
    ]);
  });
});

describe("the report", () => {
  test("counts skills, failing skills, errors, warnings and rules (errors first, then by count)", () => {
    const base = writeTree({
      "r/ok/SKILL.md": skill("ok"),
      "r/Bad_A/SKILL.md": skill("Bad_A"),
      "r/Bad_B/SKILL.md": skill("Bad_B", "Use when: x"),
      "r/fence/SKILL.md": "no fence",
      "r/other/SKILL.md": skill("elsewhere"),
    });
    const report = validateSkills([`${base}/r`]);
    expect({ ...report, findings: report.findings.length }).toEqual({
      ok: false,
      skills: 5,
      skillsWithErrors: 4,
      errors: 4,
      warnings: 1,
      rules: [
        { rule: "name-format", severity: "error", count: 2 },
        { rule: "frontmatter-fence", severity: "error", count: 1 },
        { rule: "name-matches-dir", severity: "error", count: 1 },
        { rule: "yaml_repaired", severity: "warning", count: 1 },
      ],
      findings: 5,
    });
    expect(
      Object.isFrozen(report) && Object.isFrozen(report.findings) && Object.isFrozen(report.findings[0]),
    ).toBe(true);
  });

  test("a finding's fields: schema failures get a hint for their key", () => {
    const base = writeTree({ "s/SKILL.md": manifest("description: d") });
    expect(validateSkills([`${base}/s`]).findings).toEqual([
      {
        severity: "error",
        rule: "frontmatter-schema",
        file: `${base}/s/SKILL.md`,
        message: 'frontmatter "name" is missing',
        hint: "add name: <directory-name>, lower-case words joined by hyphens",
      },
    ]);
  });

  test("the example's needs-fixes folder", () => {
    const repo = path.resolve(import.meta.dirname, "..");
    const report = validateSkills(["examples/needs-fixes"], { cwd: repo });
    expect(report.findings.map((f) => brief(repo, f))).toEqual([
      ["examples/needs-fixes/notes/SKILL.md", "frontmatter-fence", "error", 1, null],
      ["examples/needs-fixes/pdf-tools/SKILL.md", "name-format", "error", 2, null],
      ["examples/needs-fixes/pdf-tools/SKILL.md", "name-matches-dir", "error", 2, null],
      ["examples/needs-fixes/release-notes/SKILL.md", "yaml_repaired", "warning", 3, 14],
      ["examples/needs-fixes/release-notes/SKILL.md", "metadata-strings", "error", 4, null],
    ]);
  });
});

describe("the real corpus", () => {
  // Counts cross-checked against the corpus's own STATS.md, made by an independent script.
  corpusTest("every skill is checked, and the manifest problems match STATS.md", () => {
    const report = validateSkills(corpusRoots().map((r) => r.path));
    const count = (rule: string) => report.rules.find((r) => r.rule === rule)?.count ?? 0;
    expect(report.skills).toBe(2360); // "skill files (SKILL.md + case variants)"
    expect(count("frontmatter-fence")).toBe(128 + 4 + 1); // no opening fence, no closing, fence after blank lines
    expect(count("yaml_repaired") + count("yaml-syntax")).toBe(46); // "strict YAML 1.2 parse FAILS"
    expect(count("yaml-syntax")).toBe(46 - 44);
    expect(count("frontmatter-schema")).toBe(3); // "`name` absent"
    expect(count("description-length")).toBe(1); // "description > 1024 code points"
    expect(count("manifest-encoding") + count("manifest-file")).toBe(0); // all valid UTF-8, all small
    expect(report.ok).toBe(false);
  });

  test("a file given alone is not taken for a skill: nothing checked fails, with one error saying what it is", () => {
    const file = path.join(FIXTURES, "..", "SOURCES.md");
    const report = validateSkills([file]);
    expect(report.findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      ["no-manifest", "error", "is a file but not a SKILL.md, so nothing was checked"],
    ]);
    expect(report.ok).toBe(false);
    expect(fs.existsSync(file)).toBe(true);
  });
});

test("a path given relative resolves against cwd", () => {
  const base = tempDir();
  writeTree({ "x/SKILL.md": skill("x") }, base);
  expect(validateSkills(["x"], { cwd: base }).skills).toBe(1);
});
