// How many cases each property runs: few with a fixed seed in the normal run, many with fresh seeds under `npm run fuzz`.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Parameters } from "fast-check";
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by vitest.fuzz.config.ts: how many times more cases than the normal run. */
    fuzzScale: number;
  }
}

/** The normal run's seed: the same cases every time, so a failure reproduces. */
export const SEED = 20_261_130;

/**
 * fast-check parameters for a property that runs `runs` cases in the normal run. Under `npm run fuzz`
 * the count is multiplied and the seed left to fast-check, which prints it with any counterexample.
 */
export function fuzzParams<T>(runs: number): Parameters<T> {
  const scale = inject("fuzzScale") ?? 1;
  return scale === 1 ? { numRuns: runs, seed: SEED } : { numRuns: runs * scale };
}

/**
 * Run a case in a fresh dir under `base`, removed when the case ends: a long run would otherwise pile up
 * thousands of trees for the end-of-test cleanup.
 */
export async function inCaseDir<T>(base: string, body: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(base, "case-"));
  try {
    return await body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
