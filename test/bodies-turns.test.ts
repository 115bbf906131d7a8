// The async refresh drops the losers' bodies in steps after its snapshot is installed (src/bodies.ts
// dropLosersInTurns): a turn of the event loop between steps of DROP_STEP_ITEMS items, and no step once
// a newer scan has been installed.
import * as path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { DROP_STEP_ITEMS, dropLosersInTurns } from "../src/bodies.js";
import { resolveConfig } from "../src/config.js";
import { merge } from "../src/merge.js";
import { type ScanItem, scanSync } from "../src/scan.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { countTurns } from "./helpers/turns.js";

const DIRS = 2 * DROP_STEP_ITEMS + 100;

// One root of DIRS directories that all declare "dup": d0000 wins, the others are in-root duplicates.
// Written once; each test scans it afresh, since dropping changes the scan's own records.
let root = "";
beforeAll(() => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < DIRS; i++) tree[`d${String(i).padStart(4, "0")}/SKILL.md`] = skill("dup");
  root = writeTree(tree);
});

function scanned() {
  const config = resolveConfig({ roots: [{ path: root }] });
  const { roots } = scanSync(config);
  return { roots, skills: merge(config, roots).skills };
}

/** How many of `items` still hold a body. */
function kept(items: readonly ScanItem[] | undefined): number {
  return (items ?? []).filter((i) => i.kind === "candidate" && i.outcome.ok && i.outcome.body.length > 0)
    .length;
}

test("every loser's body goes and the winner's stays, with a turn after each step", async () => {
  const { roots, skills } = scanned();
  expect(kept(roots[0])).toBe(DIRS);
  const turns = countTurns();
  await dropLosersInTurns(roots, skills, () => true);
  const count = turns.count();
  turns.stop();
  expect(kept(roots[0])).toBe(1);
  expect(skills.get("dup")?.info.path).toBe(path.join(root, "d0000", "SKILL.md"));
  // Three steps (1000, 1000, 100 items), each followed by a turn: one stretch would give none.
  expect(count).toBeGreaterThanOrEqual(3);
});

test("no step runs once the scan is no longer the current one", async () => {
  const { roots, skills } = scanned();
  let steps = 0;
  await dropLosersInTurns(roots, skills, () => steps++ < 1);
  // The first step dropped the losers among the first DROP_STEP_ITEMS items (all but the winner, d0000);
  // the check before the second stopped it.
  expect(kept(roots[0])).toBe(DIRS - (DROP_STEP_ITEMS - 1));
  expect(steps).toBe(2);
  await dropLosersInTurns(roots, skills, () => false);
  expect(kept(roots[0])).toBe(DIRS - (DROP_STEP_ITEMS - 1));
});

test("a root without items takes no step and no turn", async () => {
  let checks = 0;
  await dropLosersInTurns([[], []], new Map(), () => ++checks > 0);
  expect(checks).toBe(0);
});
