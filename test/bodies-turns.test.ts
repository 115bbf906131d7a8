// The async refresh drops the losers' bodies in steps after its snapshot is installed (src/bodies.ts
// dropLosersInTurns): a turn of the event loop between steps of DROP_STEP_ITEMS items, and no step once
// a newer scan has been installed.
import * as path from "node:path";
import { expect, test } from "vitest";
import { DROP_STEP_ITEMS, dropLosersInTurns } from "../src/bodies.js";
import { resolveConfig } from "../src/config.js";
import { merge } from "../src/merge.js";
import { type ScanItem, scanSync } from "../src/scan.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { countTurns } from "./helpers/turns.js";

const PER_ROOT = 2 * DROP_STEP_ITEMS + 100;

/** Two roots declaring the same PER_ROOT names, scanned and merged: every r1 candidate loses to r2's. */
function overriddenStore() {
  const tree: Record<string, string> = {};
  for (let i = 0; i < PER_ROOT; i++) {
    tree[`r1/s${i}/SKILL.md`] = skill(`s${i}`, "user");
    tree[`r2/s${i}/SKILL.md`] = skill(`s${i}`, "workspace");
  }
  const base = writeTree(tree);
  const config = resolveConfig({ roots: [{ path: path.join(base, "r1") }, { path: path.join(base, "r2") }] });
  const { roots } = scanSync(config);
  return { roots, skills: merge(config, roots).skills };
}

/** How many of `items` still hold a body. */
function kept(items: readonly ScanItem[] | undefined): number {
  return (items ?? []).filter((i) => i.kind === "candidate" && i.outcome.ok && i.outcome.body.length > 0)
    .length;
}

test("every loser's body goes and every winner's stays, with a turn after each step", async () => {
  const { roots, skills } = overriddenStore();
  expect([kept(roots[0]), kept(roots[1])]).toEqual([PER_ROOT, PER_ROOT]);
  const turns = countTurns();
  await dropLosersInTurns(roots, skills, () => true);
  const count = turns.count();
  turns.stop();
  expect([kept(roots[0]), kept(roots[1])]).toEqual([0, PER_ROOT]);
  // Three steps a root (1000, 1000, 100 items), each followed by a turn: one stretch would give none.
  expect(count).toBeGreaterThanOrEqual(5);
});

test("no step runs once the scan is no longer the current one", async () => {
  const { roots, skills } = overriddenStore();
  let steps = 0;
  await dropLosersInTurns(roots, skills, () => steps++ < 1);
  // The first step dropped the first DROP_STEP_ITEMS losers; the check before the second stopped it.
  expect(kept(roots[0])).toBe(PER_ROOT - DROP_STEP_ITEMS);
  expect(steps).toBe(2);
  await dropLosersInTurns(roots, skills, () => false);
  expect(kept(roots[0])).toBe(PER_ROOT - DROP_STEP_ITEMS);
});

test("a root without items takes no step and no turn", async () => {
  let checks = 0;
  await dropLosersInTurns([[], []], new Map(), () => ++checks > 0);
  expect(checks).toBe(0);
});
