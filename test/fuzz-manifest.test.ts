// Property: whatever bytes a manifest holds, lenient discovery returns and strict returns or throws SkillError; never a hang.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createAgentSkills, createAgentSkillsAsync, SkillError } from "../src/index.js";
import { corpusRoots, fixtureRoots, HAS_CORPUS, manifestFiles, tempDir } from "./helpers/fixture.js";
import { fuzzParams } from "./helpers/fuzz.js";
import { describeInput, timeBoxed } from "./helpers/timebox.js";

// The library must stay silent: no console output, no process warning (the yaml package emits some unless told not to).
const noise: string[] = [];
const onWarning = (w: Error) => noise.push(`process warning: ${w.message}`);
beforeAll(() => {
  process.on("warning", onWarning);
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args) =>
      noise.push(`console.${method}: ${args.join(" ")}`),
    );
  }
});
afterAll(() => {
  process.off("warning", onWarning);
  vi.restoreAllMocks();
});

/** Every manifest of the corpus when it is there, else of the vendored real skills: the seeds of the mutations. */
function realManifests(): string[] {
  return manifestFiles(HAS_CORPUS ? corpusRoots() : fixtureRoots());
}

/**
 * Write `bytes` as the one manifest of a root and discover it leniently, strictly and asynchronously,
 * inside a time box, checking what each may give.
 */
async function discover(root: string, bytes: Uint8Array): Promise<void> {
  const file = path.join(root, "s", "SKILL.md");
  fs.writeFileSync(file, bytes);
  const roots = [{ path: root }];
  const lenient = timeBoxed(bytes, () => createAgentSkills({ roots }));
  const list = lenient.listSkills();
  const codes = lenient.warnings.map((w) => w.code);
  if (list.length === 0) {
    expect(codes).toEqual(["invalid_skill"]);
    expect(lenient.warnings[0]?.message.startsWith(`${file}:`)).toBe(true);
  } else {
    expect(list).toHaveLength(1);
    const [info] = list;
    expect(typeof info?.name === "string" && info.name.trim() !== "").toBe(true);
    expect(typeof info?.description === "string" && info.description.trim() !== "").toBe(true);
    expect(timeBoxed(bytes, () => typeof lenient.loadSkill(info?.name ?? "")?.body)).toBe("string");
    expect(codes.filter((c) => !["yaml_repaired", "name_mismatch", "tools_ignored"].includes(c))).toEqual([]);
  }
  let strictNames: string[] | undefined;
  try {
    strictNames = timeBoxed(bytes, () => createAgentSkills({ roots, strict: true }))
      .listSkills()
      .map((s) => s.name);
  } catch (e) {
    expect(e).toBeInstanceOf(SkillError);
    expect(e).toMatchObject({ code: "invalid_skill", path: file });
  }
  // Strict loads exactly what lenient loads without repairing it.
  const repaired = codes.includes("yaml_repaired");
  expect(strictNames).toEqual(repaired ? undefined : list.length === 0 ? undefined : list.map((s) => s.name));
  const async = await createAgentSkillsAsync({ roots });
  expect(async.listSkills()).toEqual(list);
  expect(async.warnings).toEqual(lenient.warnings);
}

const text = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Pieces of YAML and manifest syntax, whitespace and encodings, to build and to splice in. */
// biome-ignore format: a table of pieces reads better packed
const SNIPPETS = [
  "---\n", "\n---\n", "---", "...\n", ": ", ":", "\t", "\uFEFF", "\r\n", "\r", "\n", "\0", "#", "- ", "? ",
  "&a ", "*a", "&a [*a]", "<<: *a\n", "!!binary ", "!!str ", "!custom ", "|", ">-", "|+2", "'", '"', "\\",
  "[", "]", "{", "}", ",", "%YAML 1.2\n", "%TAG ! tag:x,2000:\n", "name: ", "description: ", "name:\n", "  ",
  "tools: [a, b]", "allowed-tools: Bash(git add:*) Read", "user-invocable: off", "__proto__: {x: 1}\n",
  "\u2028", "\u0085", "\uD83D\uDE00", "é", "\u202E",
].map(text);
const RAW = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xef, 0xbb, 0xbf]].map(
  (b) => new Uint8Array(b),
);
const snippet = fc.constantFrom(...SNIPPETS, ...RAW);

function nesting(style: string, depth: number): string {
  const block = Math.min(depth, 300);
  switch (style) {
    case "flow-seq":
      return `n: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
    case "flow-map":
      return `n: ${"{a: ".repeat(depth)}${"}".repeat(depth)}\n`;
    case "block-map":
      return `${Array.from({ length: block }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} x\n`;
    default:
      return `n:\n${Array.from({ length: block }, (_, i) => `${" ".repeat(i * 2)}-`).join("\n")} x\n`;
  }
}

/** A "billion laughs": each level a list of `fanout` aliases of the level below. */
function aliasBomb(levels: number, fanout: number): string {
  let out = "l0: &l0 [x]\n";
  for (let l = 1; l <= levels; l++) out += `l${l}: &l${l} [${`*l${l - 1}, `.repeat(fanout)}x]\n`;
  return out;
}

const position = fc.record({ at: fc.nat(), early: fc.boolean() });
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), where: position, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant("truncate" as const), where: position }),
  fc.record({ kind: fc.constant("insert" as const), where: position, bytes: snippet }),
  fc.record({
    kind: fc.constant("delete" as const),
    where: position,
    length: fc.integer({ min: 1, max: 64 }),
  }),
  fc.record({ kind: fc.constant("crlf" as const) }),
  fc.record({ kind: fc.constant("bom" as const) }),
  fc.record({
    kind: fc.constant("nest" as const),
    where: position,
    style: fc.constantFrom("flow-seq", "flow-map", "block-map", "block-seq"),
    depth: fc.constantFrom(3, 64, 65, 300, 5_000, 50_000),
  }),
  fc.record({
    kind: fc.constant("aliases" as const),
    where: position,
    levels: fc.integer({ min: 1, max: 9 }),
    fanout: fc.integer({ min: 2, max: 12 }),
  }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** Every LF not already after a CR becomes CRLF. */
function crlf(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  b.forEach((x, i) => {
    if (x === 0x0a && b[i - 1] !== 0x0d) out.push(0x0d);
    out.push(x);
  });
  return new Uint8Array(out);
}

/** Apply `m` to `b`; positions fall mostly in the first 400 bytes (the frontmatter) when `early`. */
function mutate(b: Uint8Array, m: Mutation): Uint8Array {
  const at = "where" in m ? m.where.at % (Math.min(b.length, m.where.early ? 400 : b.length) + 1) : 0;
  switch (m.kind) {
    case "flip":
      return at < b.length ? b.map((x, i) => (i === at ? x ^ (1 << m.bit) : x)) : b;
    case "truncate":
      return b.subarray(0, at);
    case "insert":
      return concat(b.subarray(0, at), m.bytes, b.subarray(at));
    case "delete":
      return concat(b.subarray(0, at), b.subarray(at + m.length));
    case "crlf":
      return crlf(b);
    case "bom":
      return concat(text("\uFEFF"), b);
    case "nest":
      return concat(b.subarray(0, at), text(`\n${nesting(m.style, m.depth)}`), b.subarray(at));
    case "aliases":
      return concat(b.subarray(0, at), text(`\n${aliasBomb(m.levels, m.fanout)}`), b.subarray(at));
  }
}

describe("any manifest bytes", () => {
  const run = async (arb: fc.Arbitrary<Uint8Array>, runs: number) => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, "s"));
    // A counterexample shows as its length and latin1 text, not as thousands of numbers.
    const shown = arb.map((bytes) =>
      Object.assign(bytes, { [fc.toStringMethod]: () => describeInput(bytes) }),
    );
    await fc.assert(
      fc.asyncProperty(shown, (bytes) => discover(root, bytes)),
      fuzzParams(runs),
    );
    expect(noise).toEqual([]);
  };

  test("arbitrary bytes", () => run(fc.uint8Array({ maxLength: 2048 }), 150));

  test("arbitrary bytes between fences", () => {
    const open = fc.constantFrom("---\n", "---\r\n", "\uFEFF---\n", "--- \t\n").map(text);
    const close = fc.constantFrom("\n---\nBody.\n", "\n---", "\r\n---\r\n", "").map(text);
    return run(
      fc.tuple(open, fc.uint8Array({ maxLength: 1024 }), close).map((p) => concat(...p)),
      150,
    );
  });

  test("YAML token soup between fences", () => {
    const soup = fc
      .array(snippet, { maxLength: 80 })
      .map((parts) => concat(text("---\n"), ...parts, text("\n---\n")));
    return run(soup, 250);
  });

  test("mutations of real manifests", () => {
    const files = realManifests();
    expect(files).toHaveLength(HAS_CORPUS ? 2360 : 59);
    const mutated = fc
      .record({
        file: fc.constantFrom(...files),
        mutations: fc.array(mutation, { minLength: 1, maxLength: 5 }),
      })
      .map(({ file, mutations }) => mutations.reduce(mutate, new Uint8Array(fs.readFileSync(file))));
    return run(mutated, 400);
  });
});
