// search() and searchSkills(): checks, ranking rules, the floor, determinism, refresh, fusion, and the catalog's query.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  type AgentSkills,
  createAgentSkills,
  type EmbedFunction,
  renderCatalog,
  type SearchOptions,
  SkillError,
  type SkillInfo,
  type SkillMatch,
  searchSkills,
} from "../src/index.js";
import { corpusRoots, corpusTest, fixtureRoots, manifest, skill, writeTree } from "./helpers/fixture.js";

/** A store of skills written from `[name, description, extra frontmatter?, body?]` rows. */
function store(rows: readonly (readonly [string, string, string?, string?])[]): AgentSkills {
  const tree: Record<string, string> = {};
  for (const [name, description, extra = "", body = "Body."] of rows)
    tree[`${name}/SKILL.md`] = manifest(
      `name: ${name}\ndescription: ${description}${extra === "" ? "" : `\n${extra}`}`,
      body,
    );
  return createAgentSkills({ roots: [{ path: writeTree(tree) }] });
}

const names = (matches: readonly { skill: SkillInfo }[]) => matches.map((m) => m.skill.name);

const SHOP = store([
  ["pdf", "Extract text and tables from PDF files."],
  ["pdf-tools", "Merge, split and compress PDF files; PDF pages, PDF forms, every PDF task."],
  ["slides", "Build a PowerPoint presentation from an outline."],
  ["kubernetes-deploy", "Write manifests and roll out services on a cluster."],
  ["debugging", "Find the root cause of an error, step by step."],
  ["resume-screener", "Score job candidates against the requirements."],
  ["vibes", "Share ephemeral vibes with other coders."],
  ["meeting-deck", "Turn meeting notes into a slide presentation with speaker notes."],
  ["gitCommitHelper", "Write the message for staged changes."],
  ["tagged", "A helper.", "tags: [invoices, receipts]\nhomepage: https://example.com/quarterly"],
]);

describe("bad input is refused before any work", () => {
  test.each([
    [undefined, {}, "search: query must be a string, got undefined"],
    ["pdf", null, "search: options must be an object"],
    ["pdf", { limit: 0 }, 'search: option "limit" must be a positive integer, got 0'],
    ["pdf", { limit: 1.5 }, 'search: option "limit" must be a positive integer, got 1.5'],
    ["pdf", { limit: "3" }, 'search: option "limit" must be a positive integer, got 3'],
    ["pdf", { floor: -0.1 }, 'search: option "floor" must be a number from 0 to 1, got -0.1'],
    ["pdf", { floor: 2 }, 'search: option "floor" must be a number from 0 to 1, got 2'],
    ["pdf", { embed: "model" }, 'search: option "embed" must be a function, got string'],
    ["pdf", { minSimilarity: 2 }, 'search: option "minSimilarity" must be a number from -1 to 1, got 2'],
  ])("query %o, options %o", (query, options, message) => {
    for (const call of [
      () => SHOP.search(query as string, options as object),
      () => searchSkills(SHOP.listSkills(), query as string, options as object),
    ]) {
      expect(call).toThrow(SkillError);
      expect(call).toThrow(message);
      try {
        call();
      } catch (e) {
        expect((e as SkillError).code).toBe("invalid_input");
      }
    }
  });

  test.each([
    ["not an array", "search: skills must be an array of SkillInfo, got string"],
    [[{ name: "a" }], "search: skills[0].description must be a string"],
    [[null], "search: skills[0].name must be a string"],
  ])("skills %o", (skills, message) => {
    expect(() => searchSkills(skills as unknown as SkillInfo[], "pdf")).toThrow(message);
  });
});

describe("ranking", () => {
  test("a skill named exactly as the query comes first, even when another mentions it more", () => {
    expect(names(SHOP.search("pdf")).slice(0, 2)).toEqual(["pdf", "pdf-tools"]);
    expect(names(SHOP.search("PDF Tools"))[0]).toBe("pdf-tools");
    const [first, second] = SHOP.search("pdf", { floor: 0 });
    expect(first?.score).toBeGreaterThan(second?.score ?? 1);
  });

  test("one word of a name does not beat a description that covers the whole request", () => {
    expect(names(SHOP.search("turn my meeting notes into slides with good vibes"))[0]).toBe("meeting-deck");
  });

  test.each([
    ["k8s rollout", "kubernetes-deploy"],
    ["debug this error", "debugging"],
    ["I'm debugging a crash", "debugging"],
    ["screen a résumé", "resume-screener"],
    ["git commit helper", "gitCommitHelper"],
    ["pptx from an outline", "slides"],
    ["receipts", "tagged"],
  ])("%s → %s (synonyms, stems, accents, camelCase, metadata tags)", (query, expected) => {
    expect(names(SHOP.search(query))[0]).toBe(expected);
  });

  test.each([
    ["policies", "policy-writer"],
    ["automation", "workflow-automator"],
    ["addresses", "address-book"],
    ["stopped", "stopper"],
  ])("light stemming: %s → %s", (query, expected) => {
    const s = store([
      ["policy-writer", "Draft security policy documents."],
      ["workflow-automator", "Automate repetitive workflows."],
      ["address-book", "Manage contacts."],
      ["stopper", "Stop a running job."],
    ]);
    expect(names(s.search(query))).toEqual([expected]);
  });

  test("an acronym's plural is the acronym: PDFs, URLs, LLMs", () => {
    const s = store([
      ["pdf-merge", "Merge PDF files into one."],
      ["link-check", "Check every URL of a site."],
      ["model-eval", "Compare LLM answers."],
      ["fs-tools", "Work with the fs module."],
    ]);
    expect(names(s.search("merge these PDFs"))).toEqual(["pdf-merge"]);
    expect(names(s.search("check the URLs"))).toEqual(["link-check"]);
    expect(names(s.search("compare LLMs"))).toEqual(["model-eval"]);
    // camelCase is still split where the lower-case part is more than a plural s.
    expect(names(s.search("PDFMerge"))).toEqual(["pdf-merge"]);
  });

  test("a synonym that is a phrase counts only where all its words occur", () => {
    const s = store([
      ["trainer", "Train machine learning models."],
      ["sewing", "Repair a sewing machine."],
      ["tutor", "Learning plans for students."],
    ]);
    expect(names(s.search("ml", { floor: 0 }))).toEqual(["trainer"]);
  });

  test("phrases people use: page me → on-call alerting", () => {
    const s = store([
      ["oncall-alerts", "Send PagerDuty alerts to the on-call engineer."],
      ["page-builder", "Build a landing page for me."],
    ]);
    expect(names(s.search("page me when the site goes down"))[0]).toBe("oncall-alerts");
  });

  test("metadata that is not prose (a homepage) is not searched", () => {
    expect(SHOP.search("quarterly", { floor: 0 })).toEqual([]);
  });

  test("options typed as plain SearchOptions are accepted; without embed the result is an array", () => {
    const options: SearchOptions = { limit: 1 };
    expect(names(SHOP.search("pdf", options) as readonly SkillMatch[])).toEqual(["pdf"]);
    expect(names(searchSkills(SHOP.listSkills(), "pdf", options) as readonly SkillMatch[])).toEqual(["pdf"]);
  });

  test("limit caps the list; scores are descending and results frozen", () => {
    const all = SHOP.search("pdf presentation notes", { floor: 0 });
    expect(all.length).toBeGreaterThan(2);
    expect(names(SHOP.search("pdf presentation notes", { floor: 0, limit: 2 }))).toEqual(
      names(all).slice(0, 2),
    );
    expect(all.map((m) => m.score)).toEqual([...all.map((m) => m.score)].sort((a, b) => b - a));
    expect(Object.isFrozen(all)).toBe(true);
    expect(Object.isFrozen(all[0])).toBe(true);
  });
});

describe("the floor", () => {
  test("a request no skill serves gets an empty list, not the least bad skills", () => {
    expect(SHOP.search("teach me a knitting pattern for a winter scarf")).toEqual([]);
    expect(SHOP.search("")).toEqual([]);
  });

  test("a long request whose extra words no skill uses is still served", () => {
    const query =
      "turn my meeting notes into slides for the quarterly review with the board of directors next week";
    expect(names(SHOP.search(query))[0]).toBe("meeting-deck");
    // The earlier floor of 0.1 dropped it: the words of context count against the best match.
    expect(SHOP.search(query, { floor: 0.1 })).toEqual([]);
  });

  test("a weak match is dropped by the default floor and kept with floor 0", () => {
    const query = "share the weather forecast with my neighbours at the lake";
    expect(SHOP.search(query)).toEqual([]);
    expect(names(SHOP.search(query, { floor: 0 }))).toEqual(["vibes"]);
  });
});

describe("determinism", () => {
  test("equal scores order by name; input order and repetition change nothing", () => {
    const rows = ["delta", "alpha", "charlie", "bravo"].map(
      (n) => [n, "Rotate the pages of a scanned PDF."] as const,
    );
    const s = store(rows);
    const first = s.search("rotate pdf pages");
    expect(names(first)).toEqual(["alpha", "bravo", "charlie", "delta"]);
    expect(new Set(first.map((m) => m.score)).size).toBe(1);
    const shuffled = [...s.listSkills()].reverse();
    expect(searchSkills(shuffled, "rotate pdf pages")).toEqual(first);
    expect(s.search("rotate pdf pages")).toEqual(first);
  });
});

describe("bodies and refresh", () => {
  test("the instance indexes the body's prose, not its fenced code; a bare SkillInfo[] has no body to index", () => {
    const body = [
      "# Usage",
      "Rotate landscape pages of a scan.",
      "```sh",
      "watermark every page",
      "```",
      "   ~~~",
      "stamp the cover",
      "   ~~~",
      "Then crop the margins.",
    ].join("\n");
    const s = store([
      ["pdf", "Work with PDF files.", "", body],
      ["other", "Something else."],
    ]);
    // The body weighs little: alone it ranks a skill, but far below a description's words.
    expect(names(s.search("rotate landscape", { floor: 0 }))).toEqual(["pdf"]);
    expect(names(s.search("crop margins", { floor: 0 }))).toEqual(["pdf"]);
    expect(s.search("rotate landscape", { floor: 0.2 })).toEqual([]);
    expect(names(s.search("pdf files", { floor: 0.2 }))).toEqual(["pdf"]);
    expect(s.search("watermark", { floor: 0 })).toEqual([]);
    expect(s.search("stamp cover", { floor: 0 })).toEqual([]);
    expect(searchSkills(s.listSkills(), "rotate landscape", { floor: 0 })).toEqual([]);
    const contents = s.listSkills().map((x) => s.loadSkill(x.name) as SkillInfo);
    expect(names(searchSkills(contents, "rotate landscape", { floor: 0 }))).toEqual(["pdf"]);
  });

  test("only the opening of a body is indexed: its first 2,000 characters of prose", () => {
    const filler = "lorem ".repeat(300); // 1,800 characters
    const s = store([
      ["short", "Work with files.", "", `${filler}\nzeppelin`],
      ["one-line", "Work with files.", "", `${filler}${"ipsum ".repeat(40)}dirigible`],
      ["after-code", "Work with files.", "", `\`\`\`\n${"x = 1\n".repeat(400)}\`\`\`\nblimp`],
    ]);
    expect(names(s.search("zeppelin", { floor: 0 }))).toEqual(["short"]);
    expect(s.search("dirigible", { floor: 0 })).toEqual([]);
    // Fenced code does not count toward the 2,000 characters.
    expect(names(s.search("blimp", { floor: 0 }))).toEqual(["after-code"]);
  });

  test("refresh() brings added, changed and removed skills into the next search", () => {
    const root = writeTree({
      "a/SKILL.md": skill("a", "Convert spreadsheets to CSV."),
      "b/SKILL.md": skill("b", "Send invoices by email."),
      "d/SKILL.md": skill("d", "Plan the cluster capacity."),
    });
    const s = createAgentSkills({ roots: [{ path: root }] });
    expect(names(s.search("kubernetes cluster"))).toEqual(["d"]);
    expect(names(s.search("invoices"))).toEqual(["b"]);
    fs.writeFileSync(path.join(root, "a/SKILL.md"), skill("a", "Roll out services on a Kubernetes cluster."));
    fs.rmSync(path.join(root, "b"), { recursive: true });
    writeTree({ "c/SKILL.md": skill("c", "Chase unpaid invoices.") }, root);
    expect(s.refresh()).toEqual({ added: ["c"], removed: ["b"], changed: ["a"] });
    expect(names(s.search("kubernetes cluster"))).toEqual(["a", "d"]);
    expect(names(s.search("invoices"))).toEqual(["c"]);
  });
});

describe("refreshAsync", () => {
  test("a skill added on disk is found after refreshAsync()", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "Convert spreadsheets to CSV.") });
    const s = createAgentSkills({ roots: [{ path: root }] });
    expect(s.search("invoices")).toEqual([]);
    writeTree({ "c/SKILL.md": skill("c", "Chase unpaid invoices.") }, root);
    await s.refreshAsync();
    expect(names(s.search("invoices"))).toEqual(["c"]);
  });
});

/** A fake embedder: each text becomes counts of a few topic words, so similarity is known in advance. */
function fakeEmbedder(): { embed: EmbedFunction; calls: string[][] } {
  const topics = ["flower", "garden", "invoice"];
  const calls: string[][] = [];
  const embed: EmbedFunction = async (texts) => {
    calls.push(texts);
    return texts.map((t) => topics.map((w) => t.toLowerCase().split(w).length - 1));
  };
  return { embed, calls };
}

describe("fusion with an embedder", () => {
  const rows = [
    ["roses", "Care for flower beds in the garden."],
    ["tulips", "Plant flower bulbs in autumn."],
    ["billing", "Send an invoice to a customer."],
    ["watering", "Schedule the garden sprinkler."],
  ] as const;

  test("returns a Promise; dense-only matches join the lexical ones by reciprocal rank fusion", async () => {
    const s = store(rows);
    const { embed, calls } = fakeEmbedder();
    const pending = s.search("flower garden", { embed });
    expect(pending).toBeInstanceOf(Promise);
    const matches = await pending;
    // roses is first in both rankings: 1/61 + 1/61. tulips and watering are second in one ranking each.
    expect(matches.map((m) => [m.skill.name, m.score])).toEqual([
      ["roses", 2 / 61],
      ["tulips", 1 / 62 + 1 / 63],
      ["watering", 1 / 62 + 1 / 63],
    ]);
    // The skills were embedded once (name and description), then the query alone.
    expect(calls).toEqual([s.listSkills().map((x) => `${x.name}: ${x.description}`), ["flower garden"]]);
    await s.search("invoice", { embed });
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual(["invoice"]);
  });

  test("minSimilarity keeps weak dense matches out; an exact name still comes first", async () => {
    const s = store(rows);
    const { embed } = fakeEmbedder();
    expect(names(await s.search("flower", { embed, minSimilarity: 0.99 }))).toEqual(["tulips", "roses"]);
    expect(names(await s.search("watering", { embed }))[0]).toBe("watering");
  });

  test("an embedder that fails rejects, and the next search asks again", async () => {
    const s = store(rows);
    let fail = true;
    const embed: EmbedFunction = async (texts) => {
      if (fail) throw new Error("model offline");
      return texts.map(() => [1, 0]);
    };
    await expect(s.search("flower", { embed })).rejects.toThrow("model offline");
    fail = false;
    expect(names(await s.search("flower", { embed })).length).toBeGreaterThan(0);
  });

  test.each([
    [
      async () => [[1, 0]],
      "search: embed must return one vector per text (4 skills and 1 query, got 1 and 1)",
    ],
    [
      async () => ({}),
      "search: embed must return one vector per text (4 skills and 1 query, got object and object)",
    ],
    [async (t: string[]) => t.map(() => "v"), "search: embed must return arrays of numbers"],
  ])("an embedder that answers %s is invalid_input", async (embed, message) => {
    const s = store(rows);
    await expect(s.search("flower", { embed: embed as unknown as EmbedFunction })).rejects.toThrow(message);
  });
});

describe("renderCatalog with a query", () => {
  const list = SHOP.listSkills();
  const shown = (text: string) => [...text.matchAll(/^- ([^:\s]+)/gm)].map((m) => m[1]);
  /**
   * The budget that holds exactly these skills: their whole entries (a description is never cut below
   * 60 characters, so a budget of names alone would hold none).
   */
  const namesOnly = (keep: readonly string[]) =>
    renderCatalog(
      list.filter((s) => keep.includes(s.name)),
      { format: "markdown" },
    ).text.length;

  test("without a query nothing changes: the later skills are dropped first", () => {
    const budget = namesOnly(["debugging", "gitCommitHelper"]);
    const { text, omitted } = renderCatalog(list, { format: "markdown", budget });
    expect(omitted).toBe(list.length - 2);
    expect(shown(text)).toEqual(["debugging", "gitCommitHelper"]);
  });

  test("with a query the most relevant skills are the ones kept, in the list's order", () => {
    const budget = namesOnly(["kubernetes-deploy", "meeting-deck"]);
    const query = "k8s cluster manifests, then meeting notes to a presentation";
    const { text, omitted } = renderCatalog(list, { format: "markdown", budget, query });
    expect(omitted).toBe(list.length - 2);
    expect(shown(text)).toEqual(["kubernetes-deploy", "meeting-deck"]);
  });

  test("the filter applies before the budget; relevance still decides among the skills it keeps", () => {
    const budget = namesOnly(["meeting-deck"]);
    const query = "k8s cluster manifests, then meeting notes to a presentation";
    const filter = (s: SkillInfo) => s.name !== "kubernetes-deploy";
    const { text, omitted } = renderCatalog(list, { format: "markdown", budget, query, filter });
    expect([shown(text), omitted]).toEqual([["meeting-deck"], list.length - 2]);
  });

  test("workspace skills are still kept before user skills, however relevant these are", () => {
    const user = writeTree({ "kube/SKILL.md": skill("kube", "Deploy to a Kubernetes cluster.") });
    const workspace = writeTree({ "notes/SKILL.md": skill("notes", "Keep meeting notes.") });
    const both = createAgentSkills({
      roots: [{ path: user, scope: "user" }, { path: workspace }],
    }).listSkills();
    const budget = renderCatalog(
      both.filter((s) => s.name === "notes"),
      { format: "markdown" },
    ).text.length;
    const { text } = renderCatalog(both, { format: "markdown", budget, query: "k8s cluster" });
    expect(shown(text)).toEqual(["notes"]);
  });

  test("an exact name is kept first", () => {
    const budget = namesOnly(["vibes"]);
    const { text } = renderCatalog(list, { format: "markdown", budget, query: "vibes" });
    expect(shown(text)).toEqual(["vibes"]);
  });

  test("a query that is not a string is invalid_input", () => {
    expect(() => renderCatalog(list, { query: 3 as unknown as string })).toThrow(
      'renderCatalog: option "query" must be a string, got number',
    );
  });
});

describe("real skills", () => {
  test("the vendored real skills: exact names first, requests found, unserved requests empty", () => {
    const s = createAgentSkills({ roots: fixtureRoots() });
    expect(names(s.search("skill-creator"))[0]).toBe("skill-creator");
    expect(names(s.search("create a linear issue"))[0]).toBe("linear");
    expect(names(s.search("generate an image with flux"))[0]).toBe("flux-image");
    expect(names(s.search("build an MCP server for an API"))[0]).toBe("mcp-builder");
    expect(s.search("teach me a knitting pattern for a winter scarf")).toEqual([]);
    const { search } = s;
    expect(search("create a linear issue")).toEqual(s.search("create a linear issue"));
  });

  corpusTest(
    "the 2,106-skill corpus: exact names first, paraphrases found, unserved empty, order-independent",
    () => {
      const s = createAgentSkills({ roots: corpusRoots() });
      expect(s.listSkills()).toHaveLength(2106);
      expect(names(s.search("brainstorming"))[0]).toBe("brainstorming");
      expect(names(s.search("combine these three PDFs into a single file")).slice(0, 2)).toEqual([
        "PDF Merge & Split",
        "pdftk-server",
      ]);
      expect(names(s.search("will it rain tomorrow")).slice(0, 3)).toContain("weather");
      expect(s.search("teach me a knitting pattern for a winter scarf")).toEqual([]);
      // The same input in another order gives the same list: equal scores are ordered by name.
      const query = "my k8s pod keeps crashing and restarting";
      const reversed = Object.freeze([...s.listSkills()].reverse());
      expect(searchSkills(reversed, query)).toEqual(searchSkills(s.listSkills(), query));
    },
  );
});
