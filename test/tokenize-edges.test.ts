// The search tokeniser at its edges: folding beyond ASCII (camelCase, acronyms, plural acronyms, accents),
// the ASCII fast path giving exactly what the Unicode path gives, each suffix rule of the stemmer at and
// just past its length limit, stopwords and short words, and the concepts of a query.
import { describe, expect, test } from "vitest";
import { createAgentSkills } from "../src/index.js";
import { fold, MEMO_RUNS, memoSize, nameKey, queryConcepts, stem, terms, words } from "../src/tokenize.js";
import { skill, writeTree } from "./helpers/fixture.js";

describe("fold", () => {
  test.each([
    ["naïveBayes", "naive bayes"],
    ["caféBar", "cafe bar"],
    ["ÉCOLE", "ecole"],
    ["Été", "ete"],
    ["_Élan", "_elan"],
    ["HTMLParser café", "html parser cafe"],
    ["URLs café", "urls cafe"],
    ["APIs2 café", "ap is2 cafe"],
    ["e\u0301\u0302te\u0301", "ete"],
  ])("beyond ASCII: %j → %j", (text, expected) => {
    expect(fold(text)).toBe(expected);
  });

  test("a plural acronym before an underscore stays whole on the ASCII path too (regression)", () => {
    expect(fold("get_URLs_list")).toBe("get_urls_list");
    expect(nameKey("get_URLs_list")).toBe("get-urls-list");
    // So the skill named as the query comes first, as it did for the same query with an accent.
    const roots = [
      {
        path: writeTree({
          "get-urls-list/SKILL.md": skill("get-urls-list", "Fetch pages."),
          "url-list/SKILL.md": skill("url-list", "List URLs: the URLs of a page as a list of URLs."),
        }),
      },
    ];
    const skills = createAgentSkills({ roots });
    expect(skills.search("get_URLs_list").map((m) => m.skill.name)).toEqual(["get-urls-list", "url-list"]);
  });

  test("the ASCII fast path folds exactly as the Unicode path does", () => {
    const samples = [
      "get_URLs_list",
      "APIs_2",
      "URLs",
      "URLs2",
      "URLsX",
      "URLsx",
      "HTMLParser",
      "parseHTML5Doc",
      "myXMLs",
      "ABCs-x",
      "iOS_App",
      "PDFTools v2",
      "a_Bc",
      "K8s",
    ];
    // Text with one character beyond ASCII takes the Unicode path; " é" folds to " e" and touches nothing before it.
    for (const s of samples) expect([s, fold(s)]).toEqual([s, fold(`${s} é`).slice(0, -2)]);
  });
});

describe("stem", () => {
  test.each([
    // Three letters or fewer, or a digit: as is.
    ["gas", "gas"],
    ["mp3s", "mp3s"],
    // -ies → -y over four letters.
    ["ties", "tie"],
    ["queries", "query"],
    // -sses → -ss; a plural -s, but not after ss, us or is.
    ["esses", "ess"],
    ["classes", "class"],
    ["missions", "mission"],
    ["class", "class"],
    ["status", "status"],
    ["analysis", "analysis"],
    ["tools", "tool"],
    // -ing over five letters, with a vowel before it.
    ["doing", "doing"],
    ["string", "string"],
    ["ingest", "ingest"],
    ["scrolling", "scroll"],
    ["stringing", "string"],
    ["debugging", "debug"],
    ["buffering", "buffer"],
    // -ed over four letters, with a vowel before it.
    ["used", "used"],
    ["shred", "shred"],
    ["debugged", "debug"],
    ["passed", "pass"],
    // -ation over seven letters loses -ion; a final e over four letters goes.
    ["station", "station"],
    ["automation", "automat"],
    ["automate", "automat"],
    ["file", "file"],
    // A double letter is undone only after a cut suffix.
    ["staff", "staff"],
  ])("%s → %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe("words, terms, nameKey", () => {
  test("text without a letter or digit has no words and no terms", () => {
    expect(words("-- !")).toEqual([]);
    expect(terms("-- !")).toEqual([]);
    expect(nameKey("-- !")).toBe("");
  });

  test("stopwords and one-letter words are dropped; two-letter words are kept", () => {
    expect(terms("How do I use x with the ML API?")).toEqual(["ml", "api"]);
  });

  test("nameKey joins the folded words with one hyphen", () => {
    expect(nameKey("PDF  Tools_v2")).toBe("pdf-tools-v2");
  });
});

describe("the memo of runs' terms stays bounded in bytes (audit D, finding 4)", () => {
  test("a run longer than a word is not kept: a 256 KiB run grew the heap by that much, for good", () => {
    const before = memoSize();
    expect(terms(`${"a".repeat(49)} ${"b".repeat(256 * 1024)}`)).toEqual([
      "a".repeat(49),
      "b".repeat(256 * 1024),
    ]);
    expect(memoSize()).toBe(before);
    expect(terms(`zq${"a".repeat(46)}`)).toEqual([`zq${"a".repeat(46)}`]);
    expect(memoSize()).toBe(before + 1);
  });

  test("a full memo starts over instead of keeping what it holds for ever", () => {
    for (let i = memoSize(); i < MEMO_RUNS; i++) terms(`memo${i}`);
    expect(memoSize()).toBe(MEMO_RUNS);
    expect(terms("zzfull")).toEqual(["zzfull"]);
    expect(memoSize()).toBe(1);
  });
});

describe("queryConcepts", () => {
  test("each term once, without alternatives when it has no synonym, and no phrase by accident", () => {
    expect(queryConcepts("weather weather report")).toEqual([
      { term: "weather", alternatives: [] },
      { term: "report", alternatives: [] },
    ]);
  });

  test("a phrase adds its words after the typed terms, each once", () => {
    expect(queryConcepts("open a pull request for the pr").map((c) => c.term)).toEqual([
      "open",
      "pull",
      "request",
      "pr",
    ]);
  });
});
