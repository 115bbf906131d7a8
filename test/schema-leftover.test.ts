// Issue 9, leftover survivors of src/schema.ts: a key the caller added to the exported schema (which
// discovery does not follow), and deep freezing (null and the other primitives skipped, nested objects frozen).
import { expect, test, vi } from "vitest";
import { z } from "zod";
import { validateFrontmatter } from "../src/schema.js";

const base = { name: "pdf", description: "Read PDFs." };

test("metadata with null, numbers, booleans and strings at every level is frozen down to its objects", () => {
  const got = validateFrontmatter({ ...base, n: null, deep: { a: [null, 1, true, "s", { b: null }] } });
  if (!got.ok) throw new Error(got.message);
  const m = got.value.metadata as { n: null; deep: { a: [null, number, boolean, string, { b: null }] } };
  expect(m.deep.a).toEqual([null, 1, true, "s", { b: null }]);
  expect([Object.isFrozen(m.deep), Object.isFrozen(m.deep.a), Object.isFrozen(m.deep.a[4])]).toEqual([
    true,
    true,
    true,
  ]);
});

test("a key the caller added to the exported schema does not change what discovery accepts", async () => {
  // A module instance of its own; the registry is reset again after it, so that no other test file
  // gets the changed schema when files share one module graph (Stryker's non-isolated runs).
  vi.resetModules();
  try {
    const own = await import("../src/schema.js");
    // Through the proxy: the shape object is the real schema's, read by zod on its first parse.
    (own.skillFrontmatterSchema.shape as Record<string, unknown>).version = z.number();
    expect(own.skillFrontmatterSchema.safeParse({ ...base, version: "one" }).success).toBe(false);
    // Discovery checks the package's own rules, whatever an importer does to the exported object.
    expect(own.validateFrontmatter({ ...base, version: "one", "user-invocable": "yes" }).ok).toBe(true);
  } finally {
    vi.resetModules();
  }
});
