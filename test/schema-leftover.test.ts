// Issue 9, leftover survivors of src/schema.ts: the generic problem for a key the caller added to the
// exported schema, and deep freezing (null and the other primitives skipped, nested objects frozen).
import { expect, test } from "vitest";
import { z } from "zod";
import { skillFrontmatterSchema, validateFrontmatter } from "../src/schema.js";

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

// Last in the file: it changes the schema this module graph shares (the one validateFrontmatter uses).
test("a key the caller added to the exported schema is checked by a zod parse and named generically", () => {
  // Through the proxy: the shape object is the real schema's, read by zod on its first parse.
  (skillFrontmatterSchema.shape as Record<string, unknown>).version = z.number();
  // A word boolean makes the data need a zod parse (plainly valid data is settled without one).
  expect(validateFrontmatter({ ...base, version: "one", "user-invocable": "yes" })).toEqual({
    ok: false,
    key: "version",
    message: 'frontmatter "version" must be valid, received a string',
  });
  expect(validateFrontmatter({ ...base, version: 1, "user-invocable": "yes" }).ok).toBe(true);
});
