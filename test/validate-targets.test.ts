// Issue 11's validator: nothing checked is an error, --recursive, unknown-field, --target rules, YAML excerpts;
// issue 10's finding 5 (no spread over findings).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { StartupError, type ValidationFinding, validateSkills } from "../src/index.js";
import { closest } from "../src/spelling.js";
import { isNearMiss, MAX_WALK_DEPTH } from "../src/walk.js";
import { run } from "./helpers/cli.js";
import { manifest, skill, tempDir, writeTree } from "./helpers/fixture.js";

/** file (relative), rule, severity, line. */
const brief = (base: string, f: ValidationFinding) =>
  [path.relative(base, f.file), f.rule, f.severity, f.line ?? null] as const;
const rules = (base: string, paths: string[], options = {}) =>
  validateSkills(
    paths.map((p) => path.join(base, p)),
    options,
  ).findings.map((f) => brief(base, f));

describe("checking nothing is an error (no-manifest)", () => {
  test("one folder too high: the skills' root is inside the PATH given", () => {
    const base = writeTree({ "repo/skills/a/SKILL.md": skill("a") });
    const report = validateSkills([path.join(base, "repo")]);
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      {
        severity: "error",
        rule: "no-manifest",
        file: path.join(base, "repo"),
        message:
          'no skill directory (<name>/SKILL.md) was found in it, so nothing was checked; a SKILL.md lies deeper ("skills/a/SKILL.md")',
        hint: "add --recursive, or give the folder that holds the skill directories",
      },
    ]);
  });

  test("a misnamed manifest is named as a near miss", () => {
    const base = writeTree({ "a/SKILLS.md": skill("a"), "b/skill.markdown": skill("b"), "c/README.md": "x" });
    const [finding] = validateSkills([base]).findings;
    expect(finding?.message).toBe(
      'no SKILL.md was found, so nothing was checked; found "a/SKILLS.md", "b/skill.markdown": a manifest must be named SKILL.md',
    );
    expect(finding?.hint).toBe("rename the file to SKILL.md");
  });

  test("near misses: other extensions, plurals and slips, but not SKILL.md in any case", () => {
    const yes = [
      "SKILLS.md",
      "skill.markdown",
      "Skill.txt",
      "SKILL.MDX",
      "skil.md",
      "skill-md",
      "SKILL.yaml",
    ];
    const no = ["SKILL.md", "skill.md", "README.md", "skills.json", "myskill.md"];
    expect(yes.filter(isNearMiss)).toEqual(yes);
    expect(no.filter(isNearMiss)).toEqual([]);
  });

  test("one skill anywhere in the run is enough; an empty root beside it stays a warning", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a"), "empty/.keep": "" });
    expect(rules(base, ["r", "empty"])).toEqual([["empty", "no-skills", "warning", null]]);
  });

  test("the CLI exits 1 on `validate .` over a folder without skills", () => {
    const base = writeTree({ "notes/README.md": "x" });
    expect(run(["validate", "."], { cwd: base })).toEqual({
      code: 1,
      out: [
        ".: error no-manifest: no skill directory (<name>/SKILL.md) was found in it, so nothing was checked",
        "  fix: give the folder of skill directories, or a skill directory",
        "",
        "findings by rule:",
        "  error    no-manifest  1",
        "failed: 0 skills checked; 1 error, 0 warnings",
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("--recursive that finds nothing says so", () => {
    const base = writeTree({ "a/b/README.md": "x" });
    expect(validateSkills([base], { recursive: true }).findings.map((f) => [f.message, f.hint])).toEqual([
      [
        "no SKILL.md was found at any depth below it, so nothing was checked",
        "check the path: each skill is a folder holding a SKILL.md",
      ],
    ]);
  });
});

describe("--recursive", () => {
  const plugins = {
    "plugins/p/skills/a/SKILL.md": skill("a"),
    "plugins/p/skills/a/templates/SKILL.md": skill("template-not-a-skill"),
    "plugins/q/skills/b/SKILL.md": skill("b"),
    "plugins/q/.claude-plugin/plugin.json": "{}",
    "node_modules/x/SKILL.md": skill("x"),
    ".git/y/SKILL.md": skill("y"),
  };

  test("finds manifests at any depth, each a skill of its parent, skipping node_modules and .git", () => {
    const base = writeTree(plugins);
    const report = validateSkills([base], { recursive: true });
    expect(report).toMatchObject({ ok: true, skills: 2, findings: [] });
    expect(rules(base, ["."])).toEqual([["", "no-manifest", "error", null]]);
  });

  test("a skill of the wrong name is located as usual; the CLI takes --recursive", () => {
    const base = writeTree({ ...plugins, "plugins/q/skills/c/SKILL.md": skill("other") });
    expect(rules(base, ["."], { recursive: true })).toEqual([
      ["plugins/q/skills/c/SKILL.md", "name-matches-dir", "error", 2],
    ]);
    const r = run(["validate", "--recursive", base]);
    expect([r.code, r.out.split("\n").at(-2)]).toEqual([
      1,
      "failed: 3 skills checked, 1 with errors; 1 error, 0 warnings",
    ]);
  });

  test("a symlinked skill outside the PATH is checked, but the walk never descends outside it", () => {
    const base = writeTree({
      "outside/deep/c/SKILL.md": skill("c"),
      "outside/d/SKILL.md": skill("d"),
      "repo/up": { symlink: "../outside" },
      "repo/d": { symlink: "../outside/d" },
      "repo/readme": { symlink: "../outside/d/SKILL.md" },
      "repo/gone": { symlink: "../nowhere" },
    });
    const report = validateSkills([path.join(base, "repo")], { recursive: true });
    expect([report.skills, report.findings]).toEqual([1, []]);
  });

  test("a symlink loop ends; symlinked folders are skipped without following", () => {
    const base = writeTree({
      "top/a/SKILL.md": skill("a"),
      "top/loop": { symlink: ".." },
      "top/deep/link": { symlink: "../../top" },
    });
    expect(validateSkills([path.join(base, "top")], { recursive: true }).skills).toBe(1);
    const alone = writeTree({ "store/b/SKILL.md": skill("b"), "top/b": { symlink: "../store/b" } });
    expect(validateSkills([path.join(alone, "top")], { recursive: true }).skills).toBe(1);
    expect(validateSkills([path.join(alone, "top")], { recursive: true, followSymlinks: false }).skills).toBe(
      0,
    );
  });

  test("an unreadable folder is a walk-incomplete warning; the rest is still checked", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "locked/b/SKILL.md": skill("b") });
    setFaultHook((op, p) => {
      if (op === "readdir" && p === path.join(base, "locked")) {
        throw Object.assign(new Error("denied"), { code: "EACCES" });
      }
    });
    try {
      const report = validateSkills([base], { recursive: true });
      expect(report.skills).toBe(1);
      expect(report.findings.map((f) => [brief(base, f), f.message])).toEqual([
        [["locked", "walk-incomplete", "warning", null], "cannot be read (EACCES)"],
      ]);
    } finally {
      setFaultHook(null);
    }
  });

  test("with no PATH, --recursive walks each root; a missing root is silent, a file root said so", () => {
    const base = writeTree({ "r/p/skills/a/SKILL.md": skill("a"), file: "x" });
    const r = run([
      "validate",
      "--recursive",
      "--root",
      path.join(base, "r"),
      "--root",
      path.join(base, "nope"),
    ]);
    expect([r.code, r.out]).toEqual([0, "ok: 1 skill checked; 0 errors, 0 warnings\n"]);
    const report = validateSkills([path.join(base, "r"), path.join(base, "file")], {
      recursive: true,
      asRoots: true,
    });
    expect(report.findings.map((f) => [brief(base, f), f.message])).toEqual([
      [["file", "walk-incomplete", "warning", null], "is not a directory"],
    ]);
  });

  test(`no deeper than ${MAX_WALK_DEPTH} folders below the PATH`, () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join("/");
    const base = writeTree({ [`${chain(MAX_WALK_DEPTH)}/SKILL.md`]: skill(`d${MAX_WALK_DEPTH - 1}`) });
    expect(validateSkills([base], { recursive: true }).skills).toBe(1);
    const deeper = writeTree({ [`${chain(MAX_WALK_DEPTH + 1)}/SKILL.md`]: skill(`d${MAX_WALK_DEPTH}`) });
    expect(rules(deeper, ["."], { recursive: true })).toEqual([["", "no-manifest", "error", null]]);
  });
});

describe("unknown-field", () => {
  test("keys outside the specification and the clients' documented fields warn, with a did-you-mean", () => {
    const base = writeTree({
      "a/SKILL.md": skill("a", "A.", "version: 1.0\nallowed_tools: Read\nauthor: me\nModel: opus"),
      "b/SKILL.md": skill(
        "b",
        "B.",
        "argument-hint: '[file]'\nmodel: opus\ndisable-model-invocation: true\nlicense: MIT",
      ),
    });
    const found = validateSkills([base]).findings.map((f) => [f.rule, f.severity, f.line, f.message, f.hint]);
    expect(found).toEqual([
      [
        "unknown-field",
        "warning",
        4,
        'top-level key "version" is not a field of the specification or of a major client',
        "move it under metadata: (a map of strings), or remove it",
      ],
      [
        "unknown-field",
        "warning",
        5,
        'top-level key "allowed_tools" is not a field of the specification or of a major client; did you mean "allowed-tools"?',
        "rename it to allowed-tools, or move it under metadata:",
      ],
      [
        "unknown-field",
        "warning",
        6,
        'top-level key "author" is not a field of the specification or of a major client',
        "move it under metadata: (a map of strings), or remove it",
      ],
      [
        "unknown-field",
        "warning",
        7,
        'top-level key "Model" is not a field of the specification or of a major client; did you mean "model"?',
        "rename it to model, or move it under metadata:",
      ],
    ]);
  });

  test("closest: case, underscores and one slip; nothing for a short word two edits away", () => {
    expect(closest("allowed_tools", ["allowed-tools", "model"])).toBe("allowed-tools");
    expect(closest("descripton", ["description"])).toBe("description");
    expect(closest("pfd", ["pdf", "pdq"])).toBe("pdf");
    expect(closest("abc", ["xyz"])).toBeUndefined();
    expect(closest("licence", ["license", "model"])).toBe("license");
  });
});

describe("--target", () => {
  const base = writeTree({
    "claude-helper/SKILL.md": skill("claude-helper", "Helps."),
    "tags/SKILL.md": skill("tags", "Use <example>this</example> when asked; a < b is fine."),
    "xml-name/SKILL.md": manifest("name: xml-name\ndescription: Fine.\nargument-hint: x"),
    "lower/skill.md": skill("lower"),
    "short/SKILL.md": skill("short", "S.", `metadata:\n  short-description: "${"x".repeat(501)}"`),
    "alias/SKILL.md": skill("alias", "A.", `metadata:\n  shortDescription: "${"y ".repeat(250)}"`),
  });
  const found = (target?: "agentskills" | "claude" | "codex") =>
    validateSkills([base], target === undefined ? {} : { target }).findings.map((f) => brief(base, f));

  // Every run warns about a manifest not named exactly SKILL.md; Codex's target makes that an error.
  const lower = ["lower/skill.md", "manifest-name", "warning", null];

  test("without a target, no client rule applies: only the warning about the manifest's name", () => {
    expect(found()).toEqual([lower]);
  });

  test("agentskills: only the specification's six fields, as its reference validator enforces", () => {
    expect(found("agentskills")).toEqual([lower, ["xml-name/SKILL.md", "agentskills-fields", "error", 4]]);
  });

  test("claude: reserved words in name, XML tags in name or description", () => {
    expect(found("claude")).toEqual([
      ["claude-helper/SKILL.md", "claude-reserved-word", "error", 2],
      lower,
      ["tags/SKILL.md", "claude-xml-tags", "error", 3],
    ]);
    const anthropic = writeTree({ "my-anthropic/SKILL.md": skill("my-anthropic", "x") });
    expect(validateSkills([anthropic], { target: "claude" }).findings[0]?.message).toBe(
      'name "my-anthropic" contains the reserved word "anthropic"',
    );
  });

  test("codex: a manifest named exactly SKILL.md, metadata.short-description of at most 500 characters", () => {
    expect(found("codex")).toEqual([
      ["lower/skill.md", "codex-manifest-name", "error", null],
      ["short/SKILL.md", "codex-short-description", "error", 4],
    ]);
  });

  test("the CLI's --target, and a bad target for the library", () => {
    const r = run(["validate", "--target", "claude", path.join(base, "tags")]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('error claude-xml-tags: description contains the XML tag "<example>"');
    expect(() => validateSkills([base], { target: "cursor" as never })).toThrow(
      new StartupError(
        'option "target" must be "agentskills", "claude", "codex" or undefined, received "cursor"',
      ),
    );
  });
});

describe("YAML errors show the line with a caret", () => {
  test("yaml-syntax: the excerpt in the report, a caret under the column in text", () => {
    const base = writeTree({ "y/SKILL.md": manifest('name: y\ndescription: x\nk: "a" b') });
    const [f] = validateSkills([path.join(base, "y")]).findings;
    expect([f?.rule, f?.line, f?.column, f?.excerpt]).toEqual(["yaml-syntax", 4, 8, 'k: "a" b']);
    const out = run(["validate", path.join(base, "y")]).out.split("\n");
    expect(out.slice(1, 3)).toEqual(['  | k: "a" b', "  |        ^"]);
  });

  test("the caret's indent keeps the line's tabs, so it lines up at any tab width", () => {
    const base = writeTree({ "t/SKILL.md": manifest('name: t\ndescription: x\nk:\t"a" b') });
    const out = run(["validate", path.join(base, "t")]).out.split("\n");
    expect(out.slice(1, 3)).toEqual(['  | k:\t"a" b', "  |   \t    ^"]);
  });
});

// Issue 10, finding 5: drafts.push(...checkRoot()) threw RangeError past ~120,000 findings in one root.
test("a root with 140,000 findings is reported whole", () => {
  const root = tempDir();
  // 500 keys of 28 characters: under the 16 KiB frontmatter limit, and too long to be near a known key.
  const keys = Array.from({ length: 500 }, (_, i) => `unknown-key-${String(i).padStart(16, "0")}: v`).join(
    "\n",
  );
  for (let i = 0; i < 280; i++) {
    fs.mkdirSync(path.join(root, `s${i}`));
    fs.writeFileSync(path.join(root, `s${i}`, "SKILL.md"), manifest(`name: s${i}\ndescription: d\n${keys}`));
  }
  const report = validateSkills([root]);
  expect(report.warnings).toBe(140_000);
  expect(report.findings.length).toBe(140_000);
  expect(report.findings[139_999]?.line).toBe(503);
});
