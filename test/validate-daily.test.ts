// validate as a skill author's daily gate (audit J): overlapping paths counted once, a manifest PATH
// that is not the one read, the YAML only the repair loads (an error for skills-ref's target), findings
// in line order, hints that fit the value, and the CLI's --strict --json verdict.
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { type ValidateOptions, type ValidationFinding, validateSkills } from "../src/index.js";
import { run } from "./helpers/cli.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";

const check = (paths: string[], options: ValidateOptions = {}) =>
  validateSkills(paths, { onWarning: () => {}, ...options });

/** A finding reduced to its rule, file (relative to `base`), line, column and message. */
const row = (base: string) => (f: ValidationFinding) =>
  [f.rule, path.relative(base, f.file), f.line ?? null, f.column ?? null, f.message] as const;

describe("paths that overlap or repeat", () => {
  test("a root, a skill in it and its SKILL.md report each finding once", () => {
    const base = writeTree({
      "r/bad/SKILL.md": skill("Bad"),
      "r/ok/SKILL.md": skill("ok"),
      "r/gone": { symlink: "../nowhere" },
    });
    const once = check([`${base}/r`]);
    const again = check([`${base}/r`, `${base}/r/bad`, `${base}/r/bad/SKILL.md`, `${base}/r`]);
    expect(again).toEqual(once);
    expect([again.skills, again.skillsWithErrors, again.errors, again.warnings]).toEqual([2, 1, 2, 1]);
    expect(again.findings.map(row(base))).toEqual([
      [
        "name-format",
        "r/bad/SKILL.md",
        2,
        null,
        'name "Bad" must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen',
      ],
      ["name-matches-dir", "r/bad/SKILL.md", 2, null, 'name "Bad" differs from its directory name "bad"'],
      [
        "dangling_symlink",
        "r/gone",
        null,
        null,
        `symlink ${base}/r/gone points to nothing usable (ENOENT); skipped`,
      ],
    ]);
  });

  test("the discovery warnings behind them reach onWarning once each", () => {
    const base = writeTree({
      "r/gone": { symlink: "../nowhere" },
      "r/lost": { symlink: "../nowhere-else" },
      "r/a/SKILL.md": skill("a"),
    });
    const seen: string[] = [];
    check([`${base}/r`, `${base}/r`], { onWarning: (w) => seen.push(`${w.code} ${w.path}`) });
    expect(seen).toEqual([`dangling_symlink ${base}/r/gone`, `dangling_symlink ${base}/r/lost`]);
  });

  test("a skill directory inside another given skill directory is its own skill, not a passed-over manifest", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "a/b/SKILL.md": skill("b") });
    const report = check([`${base}/a`, `${base}/a/b`]);
    expect([report.skills, report.findings]).toEqual([2, []]);
  });
});

describe("a manifest PATH that discovery does not read", () => {
  test("skill.md beside SKILL.md: said, and SKILL.md is the one checked", () => {
    const base = writeTree({ "s/SKILL.md": skill("s"), "s/skill.md": skill("Lower") });
    const report = check([`${base}/s/skill.md`]);
    expect(report.findings.map((f) => [f.severity, ...row(base)(f), f.hint])).toEqual([
      [
        "warning",
        "multiple_manifests",
        "s/SKILL.md",
        null,
        null,
        `${base}/s has several manifests (SKILL.md, skill.md); using SKILL.md`,
        "keep one manifest, named SKILL.md",
      ],
      [
        "warning",
        "not-a-skill",
        "s/skill.md",
        null,
        null,
        "is not the manifest discovery reads in its folder: SKILL.md is, and was checked instead",
        "keep one manifest, named SKILL.md",
      ],
    ]);
    expect(report.skills).toBe(1);
  });

  test("the manifest named is its own folder's, whatever else was checked before it", () => {
    const base = writeTree({ "o/Skill.md": skill("o"), "s/SKILL.md": skill("s"), "s/skill.md": skill("s") });
    const findings = check([`${base}/o`, `${base}/s/skill.md`]).findings;
    expect(findings.filter((f) => f.rule === "not-a-skill").map((f) => f.message)).toEqual([
      "is not the manifest discovery reads in its folder: SKILL.md is, and was checked instead",
    ]);
  });

  test("a link to the manifest read is that manifest, named otherwise: no such finding", () => {
    const base = writeTree({ "s/SKILL.md": skill("s"), "s/skill.md": { symlink: "SKILL.md" } });
    expect(check([`${base}/s/skill.md`]).findings.map((f) => f.rule)).toEqual(["multiple_manifests"]);
  });

  test("the manifest read, named by itself or through its folder, gets no such finding", () => {
    const base = writeTree({ "s/SKILL.md": skill("s"), "s/skill.md": skill("Lower") });
    for (const p of [`${base}/s/SKILL.md`, `${base}/s`]) {
      expect(check([p]).findings.map((f) => f.rule)).toEqual(["multiple_manifests"]);
    }
  });
});

describe("YAML that loads only after the repair", () => {
  const base = writeTree({
    "q/SKILL.md": manifest("name: q\ndescription: Use when: asked\nlicense: [a\nmetadata:\n  k: v"),
    // The last line: YAML reports the unclosed [ at the closing fence, line 5.
    "f/SKILL.md": manifest("name: f\ndescription: fine\nlicense: [a"),
  });

  test("the message names every line the repair quoted; located at the error when it is one of them", () => {
    const [f] = check([`${base}/q`]).findings;
    expect([f?.severity, ...row(base)(f as ValidationFinding), f?.excerpt]).toEqual([
      "warning",
      "yaml_repaired",
      "q/SKILL.md",
      3,
      14,
      "frontmatter is not valid YAML (invalid YAML: Nested mappings are not allowed in compact mappings); it loads only after quoting the plain values on lines 3 and 4",
      "description: Use when: asked",
    ]);
  });

  test("and at the first line quoted when YAML stumbles elsewhere (an unclosed [ ends at the fence)", () => {
    const [f] = check([`${base}/f`]).findings;
    expect([...row(base)(f as ValidationFinding), f?.excerpt]).toEqual([
      "yaml_repaired",
      "f/SKILL.md",
      4,
      10,
      expect.stringMatching(
        /^frontmatter is not valid YAML \(invalid YAML: .*\); it loads only after quoting the plain value on line 4$/,
      ),
      "license: [a",
    ]);
  });

  test("and at the error's own place when it is on a later line quoted than the first", () => {
    const dir = writeTree({ "t/SKILL.md": manifest("name: t\nlicense: [a]\ndescription: Use when: asked") });
    const [f] = check([`${dir}/t`]).findings;
    expect([f?.line, f?.column, f?.message.endsWith("plain values on lines 3 and 4")]).toEqual([4, 14, true]);
  });

  test("three lines or more are listed with commas", () => {
    const dir = writeTree({
      "t/SKILL.md": manifest(
        "name: t\ndescription: Use when: asked\nlicense: MIT: or not\ncompatibility: Node: 20",
      ),
    });
    expect(check([`${dir}/t`]).findings[0]?.message).toMatch(/plain values on lines 3, 4 and 5$/);
  });

  test("--target agentskills makes it an error, as skills-ref's strict parser refuses it", () => {
    const report = check([`${base}/q`], { target: "agentskills" });
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.severity, f.rule, f.line, f.hint])).toEqual([
      [
        "error",
        "agentskills-yaml",
        3,
        "put the value in double quotes: skills-ref's strict YAML parser rejects it as written",
      ],
    ]);
    // Only under that target: the default run passes with the warning.
    expect(check([`${base}/q`]).ok).toBe(true);
    expect(check([`${base}/q`], { target: "claude" }).findings.map((f) => f.rule)).toEqual(["yaml_repaired"]);
  });
});

describe("findings of one file", () => {
  test("come in line order, those without a line last", () => {
    const base = writeTree({
      "Sk/skill.md": manifest(
        'name: Sk\ndescription: d\nauthor: me\nmetadata:\n  n: 1\nmodle: x\n"a\\"b": 1\n"c\\"d": 2',
      ),
    });
    expect(check([`${base}/Sk`]).findings.map((f) => [f.rule, f.line ?? null])).toEqual([
      ["name-format", 2],
      ["unknown-field", 4],
      ["metadata-strings", 5],
      ["unknown-field", 7],
      // Two keys not found as written: alike but for their messages, so both stay.
      ["unknown-field", null],
      ["unknown-field", null],
      ["manifest-name", null],
    ]);
  });

  test("a manifest not named exactly SKILL.md is a warning that says why", () => {
    const base = writeTree({ "k/Skill.md": skill("k") });
    expect(check([`${base}/k`]).findings).toEqual([
      {
        severity: "warning",
        rule: "manifest-name",
        file: `${base}/k/Skill.md`,
        skill: "k",
        message:
          'the manifest is named "Skill.md"; the specification names it SKILL.md, and some clients (Codex) read no other name',
        hint: "rename Skill.md to SKILL.md",
      },
    ]);
  });
});

describe("a schema failure's hint fits the value", () => {
  test.each([
    ["name: 123", "name"],
    ["name: true", "name"],
    ["description: 42", "description"],
  ])("%s is there but not text: quote it", (line, key) => {
    const fields = key === "name" ? `${line}\ndescription: d` : `name: k\n${line}`;
    const base = writeTree({ "k/SKILL.md": manifest(fields) });
    const [f] = check([`${base}/k`]).findings;
    expect([f?.rule, f?.hint]).toEqual([
      "frontmatter-schema",
      `put the value in double quotes (${key}: "…"), so that YAML reads it as text`,
    ]);
  });

  test.each([
    ["description: d", "add name: <directory-name>, lower-case words joined by hyphens"],
    ['name: ""\ndescription: d', "add name: <directory-name>, lower-case words joined by hyphens"],
    ["name: k\ndescription: [a]", "add a description: what the skill does and when an agent should use it"],
    ["name: k\ndescription: d\nuser-invocable: 1", "write true or false"],
  ])("%j keeps the key's own hint", (fields, hint) => {
    const base = writeTree({ "k/SKILL.md": manifest(fields) });
    expect(check([`${base}/k`]).findings[0]?.hint).toBe(hint);
  });
});

describe("the command line", () => {
  test("--strict --json: ok is the command's verdict, false when a warning fails it", () => {
    const base = writeTree({ "w/SKILL.md": skill("w", "d", "author: me") });
    const strict = run(["validate", "--strict", "--json", `${base}/w`]);
    const plain = run(["validate", "--json", `${base}/w`]);
    expect([strict.code, JSON.parse(strict.out).ok, JSON.parse(strict.out).warnings]).toEqual([1, false, 1]);
    expect([plain.code, JSON.parse(plain.out).ok]).toEqual([0, true]);
  });

  test("--workspace with PATHs is a usage error, as --root is", () => {
    const base = writeTree({ "w/SKILL.md": skill("w") });
    expect(run(["validate", `${base}/w`, "--workspace", `${base}/nowhere`])).toEqual({
      code: 2,
      out: "",
      err: expect.stringContaining("validate checks either the PATHs given or the roots, not both"),
    });
  });
});
