// Edges of src/schema.ts: exact problem messages, the word booleans, the lazy schema proxy's traps,
// that no frontmatter is settled by a zod parse, and deep freezing of the metadata.
import { expect, test } from "vitest";
import { skillFrontmatterSchema, validateFrontmatter } from "../src/schema.js";

const base = { name: "pdf", description: "Read PDFs." };

test("each invalid field is reported with its key and exactly what was received", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ description: "d" }, "name", 'frontmatter "name" is missing'],
    [{ ...base, name: null }, "name", 'frontmatter "name" must be a non-empty string, received null'],
    [
      { ...base, name: "" },
      "name",
      'frontmatter "name" must be a non-empty string, received an empty string',
    ],
    [
      { ...base, name: " \t" },
      "name",
      'frontmatter "name" must be a non-empty string, received a string of white space only',
    ],
    [{ ...base, name: ["a"] }, "name", 'frontmatter "name" must be a non-empty string, received a list'],
    [
      { ...base, name: { a: 1 } },
      "name",
      'frontmatter "name" must be a non-empty string, received a mapping',
    ],
    [{ ...base, name: 3 }, "name", 'frontmatter "name" must be a non-empty string, received number 3'],
    [
      { ...base, description: false },
      "description",
      'frontmatter "description" must be a non-empty string, received boolean false',
    ],
    [
      { ...base, "allowed-tools": [1] },
      "allowed-tools",
      'frontmatter "allowed-tools" must be a string or a list of strings, received a list',
    ],
    [
      { ...base, "user-invocable": "maybe" },
      "user-invocable",
      'frontmatter "user-invocable" must be a boolean, received a string',
    ],
    [
      { ...base, "user-invocable": 0 },
      "user-invocable",
      'frontmatter "user-invocable" must be a boolean, received number 0',
    ],
  ];
  // `received`: the type of the value the key holds, for a hint that fits it (validate's "quote it").
  for (const [data, key, message] of cases)
    expect(validateFrontmatter(data)).toEqual({ ok: false, key, message, received: typeof data[key] });
});

test("a value that is not a mapping at all is refused by the first rule: it has no name", () => {
  // parseFrontmatter never hands one over (it refuses what is not a mapping); the rules still answer.
  expect(validateFrontmatter([] as unknown as Record<string, unknown>)).toEqual({
    ok: false,
    key: "name",
    received: "undefined",
    message: 'frontmatter "name" is missing',
  });
});

test("the rules are checked in the schema's key order: the first broken key is the one reported", () => {
  const broken = { name: "", description: 1, "allowed-tools": [2], "user-invocable": "maybe" };
  expect(validateFrontmatter({ ...broken })).toMatchObject({ ok: false, key: "name" });
  const { name: _n, ...noName } = broken;
  expect(validateFrontmatter({ ...noName, name: "a" })).toMatchObject({ ok: false, key: "description" });
  expect(validateFrontmatter({ ...noName, name: "a", description: "d" })).toMatchObject({
    ok: false,
    key: "allowed-tools",
  });
  expect(
    validateFrontmatter({ name: "a", description: "d", "allowed-tools": "Read", "user-invocable": "maybe" }),
  ).toMatchObject({ ok: false, key: "user-invocable" });
  // A word the lookup finds only on Object.prototype is no boolean word.
  expect(validateFrontmatter({ ...base, "user-invocable": "constructor" })).toMatchObject({
    ok: false,
    key: "user-invocable",
  });
});

test("user-invocable words are trimmed and read in any case", () => {
  for (const [word, want] of [
    [" No ", false],
    ["OFF", false],
    ["\tyes", true],
    ["On", true],
  ] as const) {
    const got = validateFrontmatter({ ...base, "user-invocable": word });
    expect(got.ok && [got.value.userInvocable, got.value.metadata["user-invocable"]]).toEqual([want, want]);
  }
});

test("the schema path keeps the names and splits the tools as the direct check does", () => {
  expect(
    validateFrontmatter({ ...base, "allowed-tools": ["Read", " Grep ", ""], "user-invocable": "no" }),
  ).toEqual({
    ok: true,
    value: {
      name: "pdf",
      description: "Read PDFs.",
      metadata: { ...base, "allowed-tools": ["Read", " Grep ", ""], "user-invocable": false },
      allowedTools: ["Read", "Grep"],
      userInvocable: false,
      toolsIgnored: false,
    },
  });
  const got = validateFrontmatter({ ...base, tools: "Read, Bash(git add:*)", "user-invocable": "yes" });
  expect(got.ok && got.value.allowedTools).toEqual(["Read", "Bash(git add:*)"]);
});

test("the schema's own issues carry its messages", () => {
  const r = skillFrontmatterSchema.safeParse({ name: " ", description: "d" });
  expect(r.success ? [] : r.error.issues).toEqual([
    { code: "custom", path: ["name"], message: "must not be empty" },
  ]);
});

test("no frontmatter is settled by a zod parse: plain, word booleans and refusals alike", () => {
  const real = skillFrontmatterSchema.safeParse;
  let parses = 0;
  // Through the proxy's set trap: the wrapper lands on the real schema, which validateFrontmatter
  // would use if it parsed with zod.
  skillFrontmatterSchema.safeParse = ((data: unknown) => {
    parses++;
    return real(data);
  }) as typeof real;
  try {
    const accepted: Record<string, unknown>[] = [
      base,
      { ...base, "allowed-tools": "Read Grep" },
      { ...base, "allowed-tools": ["Read"] },
      { ...base, "user-invocable": false },
      { ...base, "allowed-tools": [], "user-invocable": true, tools: [{ name: "mcp" }] },
      { ...base, "user-invocable": "no" },
    ];
    for (const data of accepted) expect(validateFrontmatter(data).ok).toBe(true);
    for (const data of [{ description: "d" }, { ...base, "user-invocable": "maybe" }])
      expect(validateFrontmatter(data).ok).toBe(false);
    expect(parses).toBe(0);
  } finally {
    skillFrontmatterSchema.safeParse = real;
  }
  expect(skillFrontmatterSchema.safeParse).toBe(real);
});

test("the proxy reports own properties as the real schema has them, and no others", () => {
  expect(Object.getOwnPropertyDescriptor(skillFrontmatterSchema, "no-such-key")).toBeUndefined();
  expect(Object.hasOwn(skillFrontmatterSchema, "no-such-key")).toBe(false);
  // "_zod" is non-configurable on the real schema: the proxy must report it configurable (its own target lacks it).
  expect(Object.getOwnPropertyDescriptor(skillFrontmatterSchema, "_zod")).toEqual({
    value: skillFrontmatterSchema._zod,
    writable: false,
    enumerable: false,
    configurable: true,
  });
  // zod makes a method an own property of the schema on its first read: read it here, whatever ran before.
  expect(typeof skillFrontmatterSchema.safeParse).toBe("function");
  expect(Object.keys(skillFrontmatterSchema)).toContain("safeParse");
});

test("metadata is frozen all the way down, past undefined values and list items", () => {
  const got = validateFrontmatter({ ...base, x: { y: 1 }, list: [undefined, { z: 2 }], u: undefined });
  if (!got.ok) throw new Error(got.message);
  const m = got.value.metadata as { x: object; list: [undefined, object] };
  expect([
    Object.isFrozen(m),
    Object.isFrozen(m.x),
    Object.isFrozen(m.list),
    Object.isFrozen(m.list[1]),
  ]).toEqual([true, true, true, true]);
});

test("metadata is frozen at every depth, an object met twice included", () => {
  const shared = { s: [1] };
  const deep = { a: [{ b: { c: [[{ d: {} }]] } }], one: shared, two: shared };
  const got = validateFrontmatter({ ...base, deep });
  if (!got.ok) throw new Error(got.message);
  const d = (got.value.metadata as unknown as { deep: typeof deep }).deep;
  const c = d.a[0]?.b.c as [[{ d: object }]];
  const chain = [d, d.a, d.a[0], d.a[0]?.b, c, c[0], c[0][0], c[0][0].d, d.one, d.one.s];
  expect(chain.map((o) => Object.isFrozen(o))).toEqual(chain.map(() => true));
});

test("an inherited key is never followed: a polluted prototype's object stays the caller's", () => {
  const proto = Object.prototype as Record<string, unknown>;
  // Of no prototype: a walk that follows the inherited key freezes it and stops there, so a guard
  // that lets it in shows as a frozen object (one of Object.prototype would reach itself forever).
  const polluted = Object.assign(Object.create(null) as object, { mine: true });
  // Asserted after the prototype is clean again: the test runner's own objects inherit from it too.
  let seen: [boolean, boolean];
  Object.defineProperty(proto, "pollutedForTest", {
    value: polluted,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  try {
    const got = validateFrontmatter({ ...base, x: { y: 1 } });
    seen = [got.ok, Object.isFrozen(polluted)];
  } finally {
    delete proto.pollutedForTest;
  }
  expect(seen).toEqual([true, false]);
});
