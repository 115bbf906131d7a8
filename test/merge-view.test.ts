// The lazy verdicts view of a merge (merge.ts `Verdicts`) is a full ReadonlyMap: every method agrees with
// `get`, in the order names were first offered, whatever was asked before.
import { expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { merge } from "../src/merge.js";
import { scanSync } from "../src/scan.js";
import { skill, writeTree } from "./helpers/fixture.js";

test("size, has, keys, values, entries, iteration and forEach agree with get", () => {
  const one = writeTree({ "b/SKILL.md": skill("b"), "a/SKILL.md": skill("a") });
  const two = writeTree({ "a/SKILL.md": skill("a", "Later."), "c/SKILL.md": skill("c") });
  const config = resolveConfig({ roots: [{ path: one }, { path: two }] });
  const { candidates } = merge(config, scanSync(config).roots);
  const later = candidates.get("a"); // asked first: the order below must not change
  expect(later?.map((c) => c.verdict)).toEqual(["overridden", "winner"]);
  expect(candidates.size).toBe(3);
  expect([candidates.has("a"), candidates.has("c"), candidates.has("zz")]).toEqual([true, true, false]);
  expect(candidates.get("zz")).toBeUndefined();
  expect([...candidates.keys()]).toEqual(["a", "b", "c"]);
  const expected = ["a", "b", "c"].map((n) => [n, candidates.get(n)]);
  expect([...candidates.entries()]).toEqual(expected);
  expect([...candidates]).toEqual(expected);
  expect([...candidates.values()]).toEqual(expected.map(([, v]) => v));
  expect([...candidates.entries()][0]?.[1]).toBe(later); // computed once, then kept
  const seen: unknown[] = [];
  const self = {};
  candidates.forEach(function (this: unknown, list, name, map) {
    seen.push([name, list, map === candidates, this === self]);
  }, self);
  expect(seen).toEqual(expected.map(([n, v]) => [n, v, true, true]));
});
