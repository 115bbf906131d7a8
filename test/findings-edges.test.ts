// A finding's shape and the report's counts at their edges: which keys a finding has (an unknown
// location is absent, not undefined), the hint of a rule that has none, and the order of the rule counts.
import { describe, expect, test } from "vitest";
import { finish, report, type ValidationFinding } from "../src/findings.js";

describe("finish", () => {
  test("a draft without a location has no line, column, skill or excerpt key at all", () => {
    const f = finish({ rule: "no-skills", file: "/r", message: "m" });
    expect(Object.keys(f)).toEqual(["severity", "rule", "file", "message", "hint"]);
    expect(f.hint).toBe("put each skill in its own folder: <root>/<name>/SKILL.md");
    expect(Object.isFrozen(f)).toBe(true);
  });

  test("every key, in its fixed order, when all are known", () => {
    const f = finish({
      excerpt: "x: [",
      skill: "s",
      column: 4,
      line: 2,
      message: "m",
      file: "/r/s/SKILL.md",
      rule: "yaml-syntax",
      hint: "h",
    });
    expect(Object.entries(f)).toEqual([
      ["severity", "error"],
      ["rule", "yaml-syntax"],
      ["file", "/r/s/SKILL.md"],
      ["line", 2],
      ["column", 4],
      ["skill", "s"],
      ["message", "m"],
      ["hint", "h"],
      ["excerpt", "x: ["],
    ]);
  });

  test("a rule without a hint of its own gets an empty hint, and is a warning", () => {
    expect(finish({ rule: "some-future-rule", file: "/r", message: "m" })).toEqual({
      severity: "warning",
      rule: "some-future-rule",
      file: "/r",
      message: "m",
      hint: "",
    });
  });
});

describe("report", () => {
  const f = (rule: string): ValidationFinding => finish({ rule, file: "/r", message: "m" });

  test("rules: errors first, then by count, then by name", () => {
    const findings = ["not-a-skill", "no-skills", "no-skills", "b-x", "a-x", "unreadable"].map(f);
    expect(report(findings, new Set()).rules).toEqual([
      { rule: "unreadable", severity: "error", count: 1 },
      { rule: "no-skills", severity: "warning", count: 2 },
      { rule: "a-x", severity: "warning", count: 1 },
      { rule: "b-x", severity: "warning", count: 1 },
      { rule: "not-a-skill", severity: "warning", count: 1 },
    ]);
  });
});
