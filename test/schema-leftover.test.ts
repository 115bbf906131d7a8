// Issue 9, leftover survivors of src/schema.ts: the generic problem for a key the caller added to the
// exported schema, and deep freezing (null and the other primitives skipped, nested objects frozen).
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

test("a key the caller added to the exported schema is checked by a zod parse and named generically", async () => {
  // A module instance of its own, whose zod schema has parsed nothing yet; the registry is reset again
  // after it, so that no other test file gets the changed schema when files share one module graph
  // (Stryker's non-isolated runs).
  vi.resetModules();
  try {
    const own = await import("../src/schema.js");
    // Through the proxy: the shape object is the real schema's, read by zod on its first parse.
    (own.skillFrontmatterSchema.shape as Record<string, unknown>).version = z.number();
    // A word boolean makes the data need a zod parse (plainly valid data is settled without one).
    expect(own.validateFrontmatter({ ...base, version: "one", "user-invocable": "yes" })).toEqual({
      ok: false,
      key: "version",
      received: "string",
      message: 'frontmatter "version" must be valid, received a string',
    });
    expect(own.validateFrontmatter({ ...base, version: 1, "user-invocable": "yes" }).ok).toBe(true);
  } finally {
    vi.resetModules();
  }
  // The instance this file imported is untouched.
  expect(validateFrontmatter({ ...base, version: "one", "user-invocable": "yes" }).ok).toBe(true);
});
