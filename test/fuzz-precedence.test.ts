// Property: the catalog equals a reference model of "sorted dirs, first wins in a root, last root wins".
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { type AgentSkills, createAgentSkills, createAgentSkillsAsync, SkillError } from "../src/index.js";
import { manifest, skill, tempDir } from "./helpers/fixture.js";
import { fuzzParams, inCaseDir } from "./helpers/fuzz.js";

/** Directory names whose code-unit order differs from a locale's: capitals first, digits as text, non-ASCII last. */
const DIRS = ["a", "b", "B", "_x", "ä", "z1", "z10", "z2", "10", "9", "a.b", "a b", "alpha", "beta"];
/** Skill names, some equal to directory names. */
const NAMES = ["alpha", "beta", "gamma", "Delta", "é", "a", "z10"];

const dir = fc.record({
  name: fc.constantFrom(...DIRS),
  skill: fc.constantFrom(...NAMES),
  kind: fc.constantFrom("valid", "valid", "valid", "invalid", "none"),
});
const root = fc.record({
  exists: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  dirs: fc.uniqueArray(dir, { selector: (d) => d.name, maxLength: 8 }),
});
type Root = typeof root extends fc.Arbitrary<infer R> ? R : never;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function write(ws: string, roots: Root[]): string[] {
  return roots.map((r, i) => {
    const p = path.join(ws, `r${i}`);
    if (!r.exists) return p;
    fs.mkdirSync(p);
    for (const d of r.dirs) {
      fs.mkdirSync(path.join(p, d.name));
      if (d.kind === "valid")
        fs.writeFileSync(path.join(p, d.name, "SKILL.md"), skill(d.skill, `${d.skill} in r${i}`));
      if (d.kind === "invalid") fs.writeFileSync(path.join(p, d.name, "SKILL.md"), "# no frontmatter\n");
      if (d.kind === "none")
        fs.writeFileSync(path.join(p, d.name, "README.md"), manifest(`name: ${d.skill}`));
    }
    return p;
  });
}

interface Offer {
  name: string;
  root: number;
  dir: string;
  verdict: "winner" | "overridden" | "duplicate" | "invalid";
}

/** The reference model, written from the spec's words alone. */
function model(roots: Root[]) {
  const offers: Offer[] = [];
  const winners = new Map<string, Offer>();
  let firstProblem: { code: string; root: number; dir: string } | undefined;
  roots.forEach((r, i) => {
    if (!r.exists) return;
    const firstInRoot = new Map<string, Offer>();
    for (const d of [...r.dirs].sort((a, b) => byCodeUnit(a.name, b.name))) {
      if (d.kind === "none") continue;
      if (d.kind === "invalid") {
        offers.push({ name: d.name, root: i, dir: d.name, verdict: "invalid" });
        firstProblem ??= { code: "invalid_skill", root: i, dir: d.name };
        continue;
      }
      const offer: Offer = { name: d.skill, root: i, dir: d.name, verdict: "winner" };
      offers.push(offer);
      if (firstInRoot.has(d.skill)) {
        offer.verdict = "duplicate";
        firstProblem ??= { code: "duplicate_skill", root: i, dir: d.name };
      } else firstInRoot.set(d.skill, offer);
    }
    // Last root wins.
    for (const [name, offer] of firstInRoot) winners.set(name, offer);
  });
  for (const o of offers) if (o.verdict === "winner" && winners.get(o.name) !== o) o.verdict = "overridden";
  const catalog = [...winners.values()].sort((a, b) => byCodeUnit(a.name, b.name));
  return { catalog, offers, firstProblem };
}

const codes = (skills: AgentSkills, code: string) => skills.warnings.filter((w) => w.code === code).length;

/** Discover `roots` written under `ws` every way, and hold each answer against the model. */
async function check(ws: string, roots: Root[]): Promise<void> {
  const paths = write(ws, roots);
  const options = { roots: paths.map((p, i) => ({ path: p, source: `r${i}` })) };
  const expected = model(roots);
  const skills = createAgentSkills(options);

  const at = (o: { root: number; dir: string }) => path.join(paths[o.root] ?? "", o.dir);
  expect(skills.listSkills().map((s) => [s.name, s.source, s.dir])).toEqual(
    expected.catalog.map((o) => [o.name, `r${o.root}`, at(o)]),
  );
  expect(skills.listSkills().map((s) => s.description)).toEqual(
    expected.catalog.map((o) => `${o.name} in r${o.root}`),
  );
  const count = (v: Offer["verdict"]) => expected.offers.filter((o) => o.verdict === v).length;
  expect(codes(skills, "duplicate_skill")).toBe(count("duplicate"));
  expect(codes(skills, "invalid_skill")).toBe(count("invalid"));
  const mismatches = expected.offers.filter((o) => o.verdict !== "invalid" && o.name !== o.dir).length;
  expect(codes(skills, "name_mismatch")).toBe(mismatches);
  expect(skills.warnings.length).toBe(count("duplicate") + count("invalid") + mismatches);

  for (const name of new Set(expected.offers.map((o) => o.name))) {
    expect(skills.explain(name).map((c) => [c.verdict, c.rootIndex, c.dir])).toEqual(
      expected.offers.filter((o) => o.name === name).map((o) => [o.verdict, o.root, at(o)]),
    );
  }

  const async = await createAgentSkillsAsync(options);
  expect(async.listSkills()).toEqual(skills.listSkills());
  expect(async.warnings).toEqual(skills.warnings);

  let thrown: unknown;
  try {
    createAgentSkills({ ...options, strict: true });
  } catch (e) {
    thrown = e;
  }
  const problem = expected.firstProblem;
  if (problem === undefined) expect(thrown).toBeUndefined();
  else {
    expect(thrown).toBeInstanceOf(SkillError);
    expect(thrown).toMatchObject({ code: problem.code, path: path.join(at(problem), "SKILL.md") });
  }
}

test("the catalog, warnings, explain and strict errors follow the reference model", async () => {
  const base = tempDir();
  await fc.assert(
    fc.asyncProperty(fc.array(root, { minLength: 1, maxLength: 6 }), (roots) =>
      inCaseDir(base, (ws) => check(ws, roots)),
    ),
    fuzzParams(150),
  );
});
