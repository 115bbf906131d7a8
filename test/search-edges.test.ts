// search.ts's edges: option bounds, the floor and its tail share, the exact-name score, ties, the embedder's
// answer checked, dense ranking and cosine edge cases, the index cache, relevanceOrder's ties. Each test
// searches arrays of its own (plain arrays are never cached), so each builds the index it checks.
import { describe, expect, test } from "vitest";
import {
  type EmbedFunction,
  renderCatalog,
  type SearchOptions,
  SkillError,
  type SkillInfo,
  searchSkills,
} from "../src/index.js";
import { relevanceOrder } from "../src/search.js";
import { skillInfo as info } from "./helpers/fixture.js";

const names = (matches: readonly { skill: SkillInfo }[]) => matches.map((m) => m.skill.name);

describe("options at and past their bounds", () => {
  test.each([
    [5, "search: options must be an object"],
    [{ floor: "0.5" }, 'search: option "floor" must be a number from 0 to 1, got 0.5'],
    [{ minSimilarity: "0.5" }, 'search: option "minSimilarity" must be a number from -1 to 1, got 0.5'],
    [{ minSimilarity: -1.5 }, 'search: option "minSimilarity" must be a number from -1 to 1, got -1.5'],
    [{ minSimilarity: 1.5 }, 'search: option "minSimilarity" must be a number from -1 to 1, got 1.5'],
  ])("options %o are refused", (options, message) => {
    const call = () => searchSkills([info("lantern", "Lights.")], "lantern", options as SearchOptions);
    expect(call).toThrow(SkillError);
    expect(call).toThrow(message);
  });

  test.each([{ floor: 0 }, { floor: 1 }, { minSimilarity: -1 }, { minSimilarity: 1 }])(
    "options %o are accepted",
    (options) => {
      expect(names(searchSkills([info("lantern", "Lights.")], "lantern", options))).toEqual(["lantern"]);
    },
  );
});

describe("the floor and the tail", () => {
  // The best match is a name hit; the others match the word only in a description or a body.
  const skills = () => [
    info("lantern-maker", "Builds things."),
    info("workshop", "Builds things.", {
      body: "Keeps a lantern, hammers, saws, nails, glue, paint, brushes and rope.",
    }),
    info("notes", "Takes notes.", { body: `${"Some words about nothing much. ".repeat(30)}A lantern.` }),
  ];
  /** The share of the floor a best match needs when the store uses every word of the request. */
  const KNOWN = 0.375;

  // x / KNOWN * KNOWN is not always x in floating point: the bounds below are a hair either side of it
  // (the exact bounds are tested on the whole floor, with "lantern zeppelin").
  const justUnder = 1 - 1e-12;
  const justOver = 1 + 1e-12;

  test("a request whose every word the store uses is served while its best match reaches 3/8 of the floor", () => {
    // "nails" is in the workshop's body only: every skill matches part of the request, none all of it.
    const open = searchSkills(skills(), "lantern nails", { floor: 0 });
    const [top, , last] = open.map((m) => m.score) as [number, number, number];
    expect(names(open)).toEqual(["lantern-maker", "workshop", "notes"]);
    const search = (floor: number) => names(searchSkills(skills(), "lantern nails", { floor }));
    expect(search((top / KNOWN) * justUnder)).toEqual(["lantern-maker", "workshop"]);
    expect(search((top / KNOWN) * justOver)).toEqual([]);
    // The others are kept down to a quarter of the floor that applies, and no lower.
    expect(search(((4 * last) / KNOWN) * justUnder)).toEqual(["lantern-maker", "workshop", "notes"]);
    expect(search(((4 * last) / KNOWN) * justOver)).toEqual(["lantern-maker", "workshop"]);
  });

  test("a request with words no skill uses needs the whole floor, and its tail a quarter of it", () => {
    const open = searchSkills(skills(), "lantern zeppelin", { floor: 0 });
    const [top, next] = open.map((m) => m.score) as [number, number];
    expect(names(open)).toEqual(["lantern-maker", "workshop", "notes"]);
    expect(names(searchSkills(skills(), "lantern zeppelin", { floor: top }))).toEqual(["lantern-maker"]);
    // 3/8 of this floor is far below the best match, but "zeppelin" is unknown to every skill.
    expect(searchSkills(skills(), "lantern zeppelin", { floor: top * 1.01 })).toEqual([]);
    expect(names(searchSkills(skills(), "lantern zeppelin", { floor: 4 * next }))).toEqual([
      "lantern-maker",
      "workshop",
    ]);
  });

  test("the whole floor applies from a quarter of the request's weight on unknown words", () => {
    // Each known word is in one skill (IDF ln 667.3 = 6.50 over the least catalog size of 1,000), the
    // unknown one in none (ln 2002 = 7.60): with three known words it carries 28.0 %, with four 22.6 %.
    const store = () => [info("amber", "Birch cedar dahlia ember."), info("other", "Something else.")];
    const needsWhole = (query: string) => {
      const [top] = searchSkills(store(), query, { floor: 0 }).map((m) => m.score) as [number];
      return searchSkills(store(), query, { floor: (0.99 * top) / KNOWN }).length === 0;
    };
    expect(needsWhole("amber birch cedar zeppelin")).toBe(true);
    expect(needsWhole("amber birch cedar dahlia zeppelin")).toBe(false);
  });
});

describe("the exact name", () => {
  test("keeps its own score when it is the best match: a one-word name hit scores 3 / (3 + k1)", () => {
    const got = searchSkills([info("lantern", "Lights."), info("workshop", "A lantern.")], "lantern");
    expect(got.map((m) => [m.skill.name, m.score])).toEqual([
      ["lantern", 0.6],
      ["workshop", expect.any(Number)],
    ]);
  });

  test("is returned above nothing when the floor drops every match: its score lifted to just above 0", () => {
    // A seven-word name among fifty one-word names is length-normalised down to 0.368, below 3/8 of 1.
    const name = "lantern-wick-glass-brass-hook-flame-oil";
    const skills = [info(name, "Lights."), ...Array.from({ length: 50 }, (_, i) => info(`s${i}`, "Other."))];
    const query = name.replace(/-/g, " ");
    expect(searchSkills(skills, query, { floor: 0 }).map((m) => m.score)).toEqual([0.3677419354838709]);
    const got = searchSkills(skills, query, { floor: 1 });
    expect(got.map((m) => [m.skill.name, m.score])).toEqual([[name, 1e-9]]);
  });

  test("of two skills whose names fold alike, the first in the array", () => {
    const a = info("lantern-tools", "One.");
    const b = info("Lantern Tools", "Two.");
    expect(searchSkills([a, b], "lantern tools")[0]?.skill).toBe(a);
  });
});

describe("ties", () => {
  test("equal scores order by name, whatever the array's order", () => {
    const got = searchSkills(
      [info("gamma", "A lantern."), info("beta", "A lantern."), info("alpha", "A lantern.")],
      "lantern",
    );
    expect(names(got)).toEqual(["alpha", "beta", "gamma"]);
    expect(new Set(got.map((m) => m.score)).size).toBe(1);
  });

  test("equal scores and equal names keep the array's order", () => {
    // The second word is matched first in the index's postings of the query, so the unsorted list starts with it.
    const skills = [
      info("same", "A harbor.", { path: "a/SKILL.md" }),
      info("same", "A glacier.", { path: "b/SKILL.md" }),
      info("same", "A meadow.", { path: "c/SKILL.md" }),
    ];
    const got = searchSkills(skills, "meadow glacier harbor", { floor: 0 });
    expect(got.map((m) => m.skill.path)).toEqual(["a/SKILL.md", "b/SKILL.md", "c/SKILL.md"]);
  });
});

test("fused: equal scores and equal names keep the array's order, whatever order the lists met them in", async () => {
  // Lexically the second skill ranks first (a shorter description), by similarity the first: each gets
  // 1/61 + 1/62, and the lexical list, met first, has them in the wrong order.
  const skills = [
    info("same", "A glacier among the mountains.", { path: "a/SKILL.md" }),
    info("same", "Glacier.", { path: "b/SKILL.md" }),
  ];
  const table: Record<string, number[]> = {
    "same: A glacier among the mountains.": [1, 0],
    "same: Glacier.": [0.8, 0.6],
    glacier: [1, 0],
  };
  const embed = (async (texts: string[]) => texts.map((t) => table[t] ?? [0, 0])) as EmbedFunction;
  expect(searchSkills(skills, "glacier").map((m) => m.skill.path)).toEqual(["b/SKILL.md", "a/SKILL.md"]);
  const got = await searchSkills(skills, "glacier", { embed });
  expect(got.map((m) => [m.skill.path, m.score])).toEqual([
    ["a/SKILL.md", 1 / 61 + 1 / 62],
    ["b/SKILL.md", 1 / 61 + 1 / 62],
  ]);
});

describe("with an embedder", () => {
  /** An embedder answering from a table of text → vector, and counting the catalog embeddings it made. */
  function embedder(table: Record<string, unknown>, answer?: (texts: string[]) => unknown) {
    const calls = { catalog: 0 };
    const embed = (async (texts: string[]) => {
      if (answer !== undefined) return answer(texts);
      if (texts.length > 1) calls.catalog++;
      return texts.map((t) => table[t] ?? [0, 0]);
    }) as EmbedFunction;
    return { embed, calls };
  }
  const skills = () => [info("amber", "One."), info("birch", "Two."), info("cedar", "Three.")];
  const table = {
    "amber: One.": [0.6, 0.8],
    "birch: Two.": [1, 0],
    "cedar: Three.": [0.8, 0.6],
    zzzz: [1, 0],
  };

  test("dense matches rank by similarity, fused as 1/(60 + rank)", async () => {
    const got = await searchSkills(skills(), "zzzz", { embed: embedder(table).embed });
    expect(got.map((m) => [m.skill.name, m.score])).toEqual([
      ["birch", 1 / 61],
      ["cedar", 1 / 62],
      ["amber", 1 / 63],
    ]);
  });

  test("a similarity exactly at minSimilarity is kept", async () => {
    const got = await searchSkills(skills(), "zzzz", { embed: embedder(table).embed, minSimilarity: 1 });
    expect(names(got)).toEqual(["birch"]);
  });

  test("a zero vector has similarity 0, not NaN: kept when minSimilarity allows 0", async () => {
    const zero = { ...table, "cedar: Three.": [0, 0] };
    const got = await searchSkills(skills(), "zzzz", { embed: embedder(zero).embed, minSimilarity: 0 });
    expect(names(got)).toEqual(["birch", "amber", "cedar"]);
    const query0 = { ...table, zzzz: [0, 0] };
    const all = await searchSkills(skills(), "zzzz", { embed: embedder(query0).embed, minSimilarity: 0 });
    expect(names(all)).toEqual(["amber", "birch", "cedar"]);
  });

  test("a skill vector shorter than the query's reads its missing dimensions as 0", async () => {
    const short = { ...table, "birch: Two.": [1] };
    const got = await searchSkills(skills(), "zzzz", { embed: embedder(short).embed, minSimilarity: 1 });
    expect(got.map((m) => [m.skill.name, m.score])).toEqual([["birch", 1 / 61]]);
  });

  test.each([
    [
      (texts: string[]) => (texts.length > 1 ? [[1, 0]] : [[1, 0]]),
      "search: embed must return one vector per text (3 skills and 1 query, got 1 and 1)",
    ],
    [
      (texts: string[]) => (texts.length > 1 ? [[1, 0], 5, [0, 1]] : [[1, 0]]),
      "search: embed must return arrays of numbers",
    ],
    [
      (texts: string[]) =>
        texts.length > 1
          ? [
              [1, 0],
              [0, 1],
              [1, 1],
            ]
          : ["nope"],
      "search: embed must return arrays of numbers",
    ],
  ])("a wrong answer is invalid_input (%#)", async (answer, message) => {
    const search = searchSkills(skills(), "zzzz", { embed: embedder({}, answer).embed });
    await expect(search).rejects.toThrow(SkillError);
    await expect(searchSkills(skills(), "zzzz", { embed: embedder({}, answer).embed })).rejects.toThrow(
      message,
    );
  });

  test("a frozen array's catalog is embedded once; a plain array's on every search", async () => {
    const frozen = Object.freeze(skills());
    const a = embedder(table);
    await searchSkills(frozen, "zzzz", { embed: a.embed });
    await searchSkills(frozen, "zzzz", { embed: a.embed });
    expect(a.calls.catalog).toBe(1);
    const plain = skills();
    const b = embedder(table);
    await searchSkills(plain, "zzzz", { embed: b.embed });
    await searchSkills(plain, "zzzz", { embed: b.embed });
    expect(b.calls.catalog).toBe(2);
  });

  // Audit F, findings 2-4.
  test("a wrong answer is not cached: the next search asks again", async () => {
    const frozen = Object.freeze(skills());
    let calls = 0;
    const embed = (async (texts: string[]) => {
      if (texts.length > 1 && ++calls === 1) return [];
      return texts.map((t) => (table as Record<string, number[]>)[t] ?? [0, 0]);
    }) as EmbedFunction;
    await expect(searchSkills(frozen, "zzzz", { embed })).rejects.toThrow(
      "search: embed must return one vector per text (3 skills and 1 query, got 0 and 1)",
    );
    expect(names(await searchSkills(frozen, "zzzz", { embed }))).toEqual(["birch", "cedar", "amber"]);
    expect(calls).toBe(2);
  });

  test("a skill vector longer than the query's counts its extra dimensions", async () => {
    const long = { ...table, "birch: Two.": [1, 100], zzzz: [1] };
    const got = await searchSkills(skills(), "zzzz", { embed: embedder(long).embed, minSimilarity: 0.5 });
    // cos([1], [1, 100]) is 0.01 (it read 1): only the skills whose vectors lie along the query's pass.
    expect(names(got)).toEqual(["cedar", "amber"]);
  });

  test("vectors of anything but numbers are invalid_input", async () => {
    const strings = embedder({}, (texts) => texts.map(() => [1, "0"]));
    await expect(searchSkills(skills(), "zzzz", { embed: strings.embed })).rejects.toThrow(
      "search: embed must return arrays of numbers",
    );
  });

  test("an embedder that answers without a Promise is awaited all the same", async () => {
    const sync = ((texts: string[]) =>
      texts.map((t) => (table as Record<string, number[]>)[t] ?? [0, 0])) as unknown as EmbedFunction;
    expect(names(await searchSkills(skills(), "zzzz", { embed: sync }))).toEqual(["birch", "cedar", "amber"]);
  });
});

test("a plain array is indexed again on each search: a skill added to it is found", () => {
  const skills = [info("amber", "One.")];
  expect(searchSkills(skills, "lantern")).toEqual([]);
  skills.push(info("lantern", "Lights."));
  expect(names(searchSkills(skills, "lantern"))).toEqual(["lantern"]);
});

describe("relevanceOrder", () => {
  test("skills sharing no word with the query come last, in list order", () => {
    // 70: past the length (64) up to which V8 sorts by insertion alone, so runs are merged too.
    const skills = Array.from({ length: 70 }, (_, i) => info(`skill-${i}`, "Does things."));
    skills.splice(30, 0, info("lantern", "Lights."));
    skills.push(info("lantern-oil", "Fuel."));
    const place = relevanceOrder(skills, skills, "lantern");
    expect(place[30]).toBe(0);
    expect(place[71]).toBe(1);
    expect(place.filter((_, i) => i !== 30 && i !== 71)).toEqual(Array.from({ length: 70 }, (_, i) => i + 2));
  });

  test("nothing shown, no places", () => {
    expect(relevanceOrder([info("lantern", "Lights.")], [], "lantern")).toEqual([]);
  });

  test("equally relevant skills keep list order, not name order (audit F, finding 1)", () => {
    const skills = [
      info("zulu", "Merge PDF files."),
      info("alfa", "Merge PDF files."),
      info("mid", "Other."),
    ];
    expect(relevanceOrder(skills, skills, "merge pdf")).toEqual([0, 1, 2]);
    // So the later of two equals is the one a budget drops first.
    const { text, omitted } = renderCatalog(skills, { format: "markdown", budget: 60, query: "merge pdf" });
    expect([text.split("\n").map((l) => l.split(":")[0]), omitted]).toEqual([["- zulu"], 2]);
  });
});
