// searchindex.ts on its own: the BM25F formula checked by hand on small trees, what metadata and body text is
// indexed, the phrase rule and analysis reuse. Every test builds its own index (no shared cache).
import { describe, expect, test } from "vitest";
import { buildIndex, type IndexInput, type SearchIndex, scoreAll } from "../src/searchindex.js";
import { queryConcepts } from "../src/tokenize.js";
import type { SkillInfo } from "../src/types.js";

/** A catalog entry as listSkills() gives it; `metadata` is the frontmatter beyond name and description. */
function info(name: string, description: string, metadata?: Record<string, unknown>): SkillInfo {
  const base = { name, description, userInvocable: true, scope: "workspace", source: "test" };
  const where = { root: "skills", dir: `skills/${name}`, path: `skills/${name}/SKILL.md` };
  return { ...base, ...where, metadata: metadata as Record<string, unknown> } as SkillInfo;
}

const index = (rows: readonly [SkillInfo, string?][]): SearchIndex =>
  buildIndex(
    rows.map(([skill, body], i) => ({
      skill,
      key: String(i),
      body: body === undefined ? undefined : () => body,
    })),
  );

/** Score of each matching skill, by name. */
function scores(idx: SearchIndex, query: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [doc, s] of scoreAll(idx, queryConcepts(query)).scores)
    out[(idx.skills[doc] as SkillInfo).name] = s;
  return out;
}

const K1 = 2;
/** BM25 idf of a term found in `df` skills, the catalog counted as at least 1,000 (README "Search"). */
const idf = (df: number, n = 1000) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
/** A one-concept query: the idf cancels, the score is tf / (k1 + tf). */
const single = (tf: number) => tf / (K1 + tf);

describe("the share of a query no skill knows", () => {
  test("is the IDF of the concepts that match nothing over the IDF of all, by hand; 0 without concepts", () => {
    const idx = index([[info("lantern", "Lights a path.")], [info("orchard", "Grows apples.")]]);
    const unknown = (query: string) => scoreAll(idx, queryConcepts(query)).unknown;
    expect(unknown("lantern")).toBe(0);
    expect(unknown("zeppelin")).toBe(1);
    expect(unknown("lantern zeppelin")).toBeCloseTo(idf(0) / (idf(1) + idf(0)), 12);
    // An alternative from the synonym table makes a concept known: "slides" finds "deck".
    expect(scoreAll(index([[info("deck", "Builds one.")]]), queryConcepts("slides")).unknown).toBe(0);
    expect(scoreAll(idx, []).unknown).toBe(0);
    expect(unknown("")).toBe(0);
  });
});

describe("the score, by hand from the formula", () => {
  test("a name hit: weight 3, so a one-word name matching a one-word query scores 3 / (3 + k1)", () => {
    const idx = index([[info("lantern", "Lights a path.")], [info("orchard", "Grows apples.")]]);
    expect(idx.analyses.map((a) => a.lengths)).toEqual([
      [1, 2, 0, 0],
      [1, 2, 0, 0],
    ]);
    expect(scores(idx, "lantern")).toEqual({ lantern: 0.6 });
  });

  test("two concepts: each weighs its idf; the rarer word's skill ranks first", () => {
    const idx = index([[info("one", "harbor")], [info("two", "glacier")], [info("three", "glacier")]]);
    const a = idf(1);
    const b = idf(2);
    const got = scores(idx, "harbor glacier");
    // tf = 1 (weight 1, every description one word long): tf/(k1+tf) = 1/3 per concept matched.
    expect(got.one).toBeCloseTo((a / 3 / (a + b)) * Math.sqrt(a / (a + b)), 14);
    expect(got.two).toBeCloseTo((b / 3 / (a + b)) * Math.sqrt(b / (a + b)), 14);
    expect(got.three).toBe(got.two);
    expect(got.one).toBeGreaterThan(got.two as number);
  });

  test("metadata: prose keys at any depth (weight 0.6, normalised by length); other keys, null and numbers skipped", () => {
    const idx = index([
      [
        info("one", "Does things.", {
          Tags: ["harbor", "glacier"],
          homepage: "https://example.com/meadow",
          v: null,
          n: 2,
        }),
      ],
      [info("two", "Does things.", { nested: { keywords: "canyon" }, flag: true })],
      [info("three", "Does things.")],
    ]);
    // Metadata lengths 2, 1, 0: average 1.
    expect(idx.analyses.map((a) => a.lengths[2])).toEqual([2, 1, 0]);
    expect(scores(idx, "harbor")).toEqual({ one: single(0.6 / (0.25 + 0.75 * 2)) });
    expect(scores(idx, "glacier")).toEqual({ one: single(0.6 / (0.25 + 0.75 * 2)) });
    expect(scores(idx, "canyon")).toEqual({ two: single(0.6 / (0.25 + 0.75 * 1)) });
    expect(scores(idx, "meadow")).toEqual({});
  });

  test("metadata: containers below depth 4 are not walked (frontmatter is untrusted)", () => {
    const idx = index([
      [info("objects-ok", "x", { a: { b: { c: { tags: ["harbor"] } } } })],
      [info("objects-deep", "x", { a: { b: { c: { d: { tags: ["glacier"] } } } } })],
      [info("arrays-ok", "x", { tags: [[[["meadow"]]]] })],
      [info("arrays-deep", "x", { tags: [[[[["canyon"]]]]] })],
    ]);
    expect(Object.keys(scores(idx, "harbor glacier meadow canyon")).sort()).toEqual([
      "arrays-ok",
      "objects-ok",
    ]);
  });

  test("body: weight 0.1 and length normalisation 0.75 against the average body length; no body counts 0", () => {
    const idx = index([
      [info("one", "Does things."), "harbor and glacier"],
      [info("two", "Does things.")],
      [info("three", "Does things."), "alpha beta gamma delta epsilon zeta eta"],
    ]);
    expect(idx.analyses.map((a) => a.lengths[3])).toEqual([2, 0, 7]);
    // Average body length 3: norm = 0.25 + 0.75 · 2/3.
    expect(scores(idx, "harbor")).toEqual({ one: single(0.1 / (0.25 + (0.75 * 2) / 3)) });
  });

  test("body: fenced code is left out; a body may open with a blank line; an inline ``` is no fence", () => {
    const body = [
      "",
      "First line ends with harbor",
      "glacier starts the second line. Quote ``` inline",
      "meadow after it",
      "```",
      "canyon in code",
      "```",
      "prairie after the code",
    ].join("\n");
    const idx = index([[info("one", "Does things."), body]]);
    expect(Object.keys(scores(idx, "harbor"))).toEqual(["one"]);
    expect(Object.keys(scores(idx, "glacier"))).toEqual(["one"]);
    expect(Object.keys(scores(idx, "meadow"))).toEqual(["one"]);
    expect(Object.keys(scores(idx, "prairie"))).toEqual(["one"]);
    expect(Object.keys(scores(idx, "canyon"))).toEqual([]);
  });

  test("a phrase alternative counts where all its terms occur, at the least of them, times 0.8", () => {
    // "ml" has the alternative "machine learning"; the description has machin twice and learn once.
    const idx = index([[info("trainer", "machine learning machine")], [info("other", "unrelated words")]]);
    expect(idx.analyses.map((a) => a.lengths[1])).toEqual([3, 2]);
    const norm = 0.25 + (0.75 * 3) / 2.5;
    expect(scores(idx, "ml")).toEqual({ trainer: single((0.8 * 1) / norm) });
  });
});

describe("the index", () => {
  test("the exact-name table keeps the first skill of a folded name", () => {
    const idx = index([[info("pdf-tools", "a")], [info("PDF Tools", "b")]]);
    expect(idx.names.get("pdf-tools")).toBe(0);
  });

  test("a rebuild reuses the analysis of an unchanged key and does not read its body again", () => {
    const skill = info("one", "Does things.");
    const first = buildIndex([{ skill, key: "k", body: () => "harbor" }]);
    const again: IndexInput = {
      skill,
      key: "k",
      body: () => {
        throw new Error("body read again");
      },
    };
    const second = buildIndex([again], first);
    expect(second.analyses[0]).toBe(first.analyses[0]);
    expect(Object.keys(scores(second, "harbor"))).toEqual(["one"]);
  });
});
