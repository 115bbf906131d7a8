// Issue 10, findings 1, 6 and 10: bounded work per manifest (aliases, full-parser length), bounded
// alias expansion, and metadata that is JSON data whatever the YAML tags say.
import { describe, expect, test } from "vitest";
import {
  MAX_ALIASES,
  MAX_EXPANDED_WEIGHT,
  MAX_FRONTMATTER_LENGTH,
  MAX_YAML_LENGTH,
  parseFrontmatter,
} from "../src/frontmatter.js";
import { createAgentSkills, validateSkills } from "../src/index.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";
import { countTurns } from "./helpers/turns.js";

function scan(frontmatter: string) {
  const root = writeTree({ "x/SKILL.md": manifest(frontmatter), "ok/SKILL.md": skill("ok") });
  const s = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
  expect(s.getSkill("ok")?.name).toBe("ok");
  return { root, s, messages: s.warnings.map((w) => `${w.code}: ${w.message.replace(root, "<root>")}`) };
}

describe("finding 1: aliases are counted before yaml composes the text", () => {
  // The shape of the attack: a few hundred anchors, thousands of aliases to them, then an alias of that.
  const bomb = (chars: number) => {
    const anchors = Array.from({ length: 300 }, (_, i) => `&a${i} 1`).join(", ");
    let text = `name: x\ndescription: d\na: [${anchors}]\ns: &S [`;
    for (let i = 0; text.length < chars; i++) text += `*a${i % 300}, `;
    return `${text}*a0]\nt: *S`;
  };

  test("an alias-heavy frontmatter is invalid_skill naming the count and the limit", () => {
    const text = bomb(3_800);
    expect(text.length).toBeLessThan(4096);
    const aliases = (text.match(/\*a/g) ?? []).length + 1;
    expect(scan(text).messages).toEqual([
      `invalid_skill: <root>/x/SKILL.md: frontmatter uses ${aliases} YAML aliases, over the limit of ${MAX_ALIASES}; skipped`,
    ]);
  });

  test("up to the limit aliases still work, and a `*` inside a scalar is not an alias", () => {
    const refs = Array.from({ length: MAX_ALIASES }, (_, i) => `k${i}: *v`).join("\n");
    const { s } = scan(`name: x\ndescription: "*not* an *alias*"\nv: &v [1, 2]\n${refs}`);
    expect(s.getSkill("x")?.metadata.k31).toEqual([1, 2]);
    expect(s.getSkill("x")?.description).toBe("*not* an *alias*");
    const over = `${refs}\nk${MAX_ALIASES}: *v`;
    expect(parseFrontmatter(`name: x\ndescription: d\nv: &v [1]\n${over}`, true)).toEqual({
      ok: false,
      message: `frontmatter uses ${MAX_ALIASES + 1} YAML aliases, over the limit of ${MAX_ALIASES}`,
    });
  });

  test("an anchor defined twice: each alias weighs what it stands for, the definition before it", () => {
    // Weighed against the later, long definition, the aliases in b would pass the expansion limit.
    const long = "w".repeat(MAX_EXPANDED_WEIGHT / 16);
    const refs = Array.from({ length: MAX_ALIASES - 1 }, () => "*x").join(", ");
    const { s, messages } = scan(`name: x\ndescription: d\na: &x s\nb: [${refs}]\nc: &x ${long}\nd: *x`);
    expect(messages).toEqual([]);
    expect(s.getSkill("x")?.metadata.b).toEqual(Array.from({ length: MAX_ALIASES - 1 }, () => "s"));
    expect(s.getSkill("x")?.metadata.d).toBe(long);
  });

  test("frontmatter the fast path declines is refused past the full parser's length limit", () => {
    // A tag makes the fast path decline; the text is then one character over the limit.
    const head = "name: x\ndescription: d\nt: !!str y\npad: ";
    const text = `${head}${"p".repeat(MAX_YAML_LENGTH + 1 - head.length)}`;
    expect(parseFrontmatter(text, true)).toEqual({
      ok: false,
      message: `frontmatter is ${MAX_YAML_LENGTH + 1} characters long and needs the full YAML parser, which reads at most ${MAX_YAML_LENGTH}; keep it to plain keys and values`,
    });
    expect(parseFrontmatter(text.slice(0, -1), true).ok).toBe(true);
    // Simple frontmatter up to the overall limit still loads, through the fast path.
    const simple = `name: x\ndescription: d\n${Array.from({ length: 1500 }, (_, i) => `k${i}: v`).join("\n")}`;
    expect(simple.length).toBeGreaterThan(MAX_YAML_LENGTH);
    expect(simple.length).toBeLessThan(MAX_FRONTMATTER_LENGTH);
    expect(parseFrontmatter(simple, true).ok).toBe(true);
  });
});

describe("finding 6: aliases cannot multiply the metadata", () => {
  test("an alias expansion past the weight limit is invalid_skill; the catalog JSON stays small", () => {
    const big = "x".repeat(3_000);
    const refs = Array.from({ length: 30 }, (_, i) => `r${i}: *b`).join("\n");
    const { messages } = scan(`name: x\ndescription: d\nb: &b ${big}\n${refs}`);
    expect(messages).toEqual([
      `invalid_skill: <root>/x/SKILL.md: frontmatter aliases expand to more than ${MAX_EXPANDED_WEIGHT} characters and nodes, or refer to themselves; skipped`,
    ]);
  });

  test("a DAG of aliases (each level doubling) is refused, and so is an alias cycle", () => {
    const levels = ["l0: &l0 [xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx]"];
    for (let i = 1; i <= 15; i++) levels.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    const dag = parseFrontmatter(`name: x\ndescription: d\n${levels.join("\n")}`, true);
    expect(dag.ok).toBe(false);
    expect(dag.ok ? "" : dag.message).toContain("aliases expand to more than");
    const cycle = parseFrontmatter("name: x\ndescription: d\nc: &c [1, *c]", true);
    expect(cycle.ok).toBe(false);
  });

  test("thirty manifests at the limits give a catalog JSON bounded by their size", () => {
    const tree: Record<string, string> = {};
    const refs = Array.from({ length: 12 }, (_, i) => `r${i}: *b`).join("\n");
    for (let i = 0; i < 30; i++)
      tree[`s${i}/SKILL.md`] = manifest(`name: s${i}\ndescription: d\nb: &b ${"y".repeat(1_000)}\n${refs}`);
    const root = writeTree(tree);
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
    expect(s.listSkills()).toHaveLength(30);
    const json = JSON.stringify(s.listSkills());
    // 30 manifests of ~1 KiB each, aliases allowed to repeat the text a few times at most.
    expect(json.length).toBeLessThan(30 * MAX_EXPANDED_WEIGHT);
    expect(json.length).toBeGreaterThan(30 * 13 * 1_000);
  });
});

describe("finding 10: metadata is JSON data whatever the tags say", () => {
  test("!!set, !!omap, !!pairs, !!timestamp and !!binary give plain values, never a Set, Map, Date or bytes", () => {
    const { s, messages } = scan(
      [
        "name: x",
        "description: d",
        "b: !!binary aGVsbG8=",
        "st: !!set {p: null, q: null}",
        "om: !!omap [{a: 1}, {b: 2}]",
        "pr: !!pairs [{a: 1}]",
        "ts: !!timestamp 2001-12-14",
        "date: 2001-12-14",
      ].join("\n"),
    );
    expect(messages).toEqual([]);
    const meta = s.getSkill("x")?.metadata as Record<string, unknown>;
    expect(meta).toEqual({
      name: "x",
      description: "d",
      b: "aGVsbG8=",
      st: { p: null, q: null },
      om: [{ a: 1 }, { b: 2 }],
      pr: [{ a: 1 }],
      ts: "2001-12-14",
      date: "2001-12-14",
    });
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
    for (const v of Object.values(meta)) {
      expect(v instanceof Set || v instanceof Map || v instanceof Date || ArrayBuffer.isView(v)).toBe(false);
    }
  });

  test("validate reports no manifest-file problem for a tagged value", () => {
    const root = writeTree({ "x/SKILL.md": manifest("name: x\ndescription: d\nb: !!binary aGVsbG8=") });
    // `b` is no field of the specification or of a client: that warning, and no file problem.
    expect(validateSkills([root], { onWarning: () => {} }).findings.map((f) => f.rule)).toEqual([
      "unknown-field",
    ]);
  });
});

describe("the async scan gives the event loop its turns", () => {
  // Frontmatter the fast path declines, as costly as the limits let it be (tens of ms each here).
  const costly = (i: number) => {
    const anchors = Array.from({ length: 30 }, (_, k) => `&a${k} {k: [1, 2, {x: y}]}`).join(", ");
    let text = `name: s${i}\ndescription: "d: x"\nm: [${anchors}]\nu: [`;
    for (let k = 0; k < MAX_ALIASES; k++) text += `*a${k % 30}, `;
    text += "0]\nz: [";
    while (text.length < MAX_YAML_LENGTH - 100) text += "{a: [b, {c: d}]}, ";
    return `${text}0]`;
  };

  test("parses costlier than the turn budget each get a turn of their own, not one shared stretch", async () => {
    const n = 40;
    const root = writeTree(
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}/SKILL.md`, manifest(costly(i))])),
    );
    // Counts the event loop's turns while the scan runs: a scan that parsed every manifest in one
    // stretch (all reads done, then all parses) let it turn only a few times.
    const turns = countTurns();
    const { createAgentSkillsAsync } = await import("../src/index.js");
    const s = await createAgentSkillsAsync({ roots: [{ path: root }], onWarning: () => {} });
    turns.stop();
    expect(s.listSkills()).toHaveLength(n);
    expect(turns.count()).toBeGreaterThanOrEqual(n / 2);
  });
});
