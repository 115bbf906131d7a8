// The user-invocable words and the exported schema's stand-in, from the isolated Stryker run of schema.ts:
// each table entry and each forwarding trap is pinned by a value of its own.
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { skillFrontmatterSchema } from "../src/index.js";
import { validateFrontmatter } from "../src/schema.js";

const base = { name: "pdf", description: "Read PDFs." };

test.each([
  ["true", true],
  ["TRUE", true],
  [" Yes ", true],
  ["on", true],
  ["false", false],
  ["No", false],
  ["OFF", false],
])("user-invocable %o reads as %o", (word, value) => {
  const got = validateFrontmatter({ ...base, "user-invocable": word });
  if (!got.ok) throw new Error(got.message);
  expect(got.value.userInvocable).toBe(value);
});

test("the stand-in forwards getPrototypeOf, defineProperty and deleteProperty to the real schema", () => {
  // zod's instanceof reads traits, not the prototype: ask for the prototype itself, and compare it with
  // that of a schema built by the same (CommonJS) zod. Reading a method off the prototype would bind it
  // to the prototype, for every zod object in the process.
  const zod = createRequire(import.meta.url)("zod") as typeof import("zod");
  expect(Object.getPrototypeOf(skillFrontmatterSchema)).toBe(Object.getPrototypeOf(zod.looseObject({})));
  const key = "__schemaWordsProbe";
  expect(Reflect.defineProperty(skillFrontmatterSchema, key, { value: 7, configurable: true })).toBe(true);
  try {
    expect((skillFrontmatterSchema as unknown as Record<string, unknown>)[key] === 7).toBe(true);
  } finally {
    expect(Reflect.deleteProperty(skillFrontmatterSchema, key)).toBe(true);
  }
  expect(Reflect.has(skillFrontmatterSchema, key)).toBe(false);
});
