// merge.ts survivors (issue 9, mutation round 2): how often mergeSteps pauses, and the winner/overridden
// verdict texts. Each test fails when the line it names is broken.
import { expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { merge, mergeSteps } from "../src/merge.js";
import { type ScanItem, scanSync } from "../src/scan.js";
import { warning } from "../src/warnings.js";
import { skill, writeTree } from "./helpers/fixture.js";

/** One real root with skill "a", its scanned items preceded by `n` warning items. */
function rootWithWarnings(n: number) {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const config = resolveConfig({ roots: [{ path: root }] });
  const scanned = scanSync(config).roots[0] as readonly ScanItem[];
  expect(scanned.map((i) => i.kind)).toEqual(["candidate"]);
  const warnings: ScanItem[] = Array.from({ length: n }, (_, i) => ({
    kind: "warning",
    warnings: [warning("unreadable", `w${i}`, root)],
  }));
  return { config, roots: [[...warnings, ...scanned]] };
}

/** How many times the steps pause before the result, and the result. */
function countPauses(config: ReturnType<typeof resolveConfig>, roots: readonly (readonly ScanItem[])[]) {
  const steps = mergeSteps(config, roots);
  let pauses = 0;
  for (let step = steps.next(); ; step = steps.next(), pauses++)
    if (step.done) return { pauses, result: step.value };
}

test("the scan loop pauses once per 1000 items (L118): the 1000th item is the last candidate", () => {
  const { config, roots } = rootWithWarnings(999);
  const { pauses, result } = countPauses(config, roots);
  // 1000 items in the scan loop (one pause), then 1 winner (item 1001: none).
  expect(pauses).toBe(1);
  expect(result.warnings).toHaveLength(999);
  expect([...result.skills.keys()]).toEqual(["a"]);
  expect(result).toEqual(merge(config, roots));
});

test("the winners loop counts on from the scan loop (L149): its first winner is item 1000", () => {
  const { config, roots } = rootWithWarnings(998);
  const { pauses, result } = countPauses(config, roots);
  // 999 items in the scan loop (no pause), then the one winner is item 1000: one pause.
  expect(pauses).toBe(1);
  expect([...result.skills.keys()]).toEqual(["a"]);
});

test("fewer than 1000 items in all: no pause", () => {
  const { config, roots } = rootWithWarnings(10);
  expect(countPauses(config, roots).pauses).toBe(0);
});

test("a winner's and an overridden candidate's reasons name the root that wins", () => {
  const one = writeTree({ "a/SKILL.md": skill("a") });
  const two = writeTree({ "a/SKILL.md": skill("a", "Later.") });
  const config = resolveConfig({ roots: [{ path: one }, { path: two }] });
  const list = merge(config, scanSync(config).roots).candidates.get("a");
  expect(list?.map((c) => [c.verdict, c.reason])).toEqual([
    ["overridden", `overridden by ${two}/a/SKILL.md: root 1 comes later than root 0, and the last root wins`],
    ["winner", 'wins: no later root declares "a"'],
  ]);
});
