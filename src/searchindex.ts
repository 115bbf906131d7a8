// SkillInfo (+ body) → an inverted index, and a query → field-weighted BM25 (BM25F) scores in [0, 1].
import { nameKey, type QueryConcept, terms } from "./tokenize.js";
import type { SkillInfo } from "./types.js";

/** The fields a skill is indexed on, in this order everywhere below. */
const FIELDS = ["name", "description", "metadata", "body"] as const;
/**
 * Field weights and length normalisation, measured on the development split of bench/search-eval.json:
 * a word of the name counts most; the body adds the vocabulary a one-line description leaves out, at a
 * low weight because it also mentions much the skill is not for. Body weights 0.05 to 0.15 ranked alike
 * (nDCG@10 0.80–0.81); 0.2 and more let long bodies outrank better descriptions (README "Search").
 */
const WEIGHT: readonly number[] = [3, 1, 0.6, 0.1];
const B: readonly number[] = [0.3, 0.75, 0.75, 0.75];
/**
 * BM25 term saturation. Higher than the usual 1.2 because the field weights already multiply a name
 * hit by 3: with 1.2 one name word saturated, and Success@1 on the development split was 4 points lower.
 */
const K1 = 2;
/** An alternative from the synonym table counts this much of the word typed. */
const ALTERNATIVE = 0.8;
/**
 * Metadata keys whose string values describe what a skill is for, in metadata or up to four mappings
 * below it (see metadataText). An allowlist: the rest of real frontmatter is commands, URLs, versions
 * and environment names, which only add noise.
 */
const PROSE_KEYS = new Set([
  "tags",
  "keywords",
  "triggers",
  "aliases",
  "category",
  "categories",
  "topics",
  "domain",
  "type",
  "summary",
  "short-description",
  "when_to_use",
  "when-to-use",
  "use-when",
  "argument-hint",
]);

/** The least catalog size IDF is computed for; see scoreAll. */
const MIN_DOCS = 1000;
/**
 * How much of a body is indexed. On the development split, 1,000 to 20,000 characters ranked alike
 * (Recall@5 73.4–74.7 %, nDCG@10 0.80–0.81); tokenising costs about 0.1 ms per skill per 1,000 characters.
 */
const BODY_CHARS = 2000;

/** One skill to index: its entry, a function giving its body (called only when the skill is new), and what identifies this version of it. */
export interface IndexInput {
  readonly skill: SkillInfo;
  readonly body?: (() => string) | undefined;
  readonly key: string;
}

/** The terms of one skill version, per field, with the field lengths. Reused across rebuilds while its key holds. */
interface Analysis {
  readonly key: string;
  readonly counts: ReadonlyMap<string, readonly number[]>;
  readonly lengths: readonly number[];
}

/** The built index of one catalog. Immutable. */
export interface SearchIndex {
  readonly skills: readonly SkillInfo[];
  readonly analyses: readonly Analysis[];
  /** term → [doc, pseudo term frequency] pairs, doc ascending. */
  readonly postings: ReadonlyMap<string, Float64Array>;
  /** Folded name (see nameKey) → doc, for the exact-name rule. */
  readonly names: ReadonlyMap<string, number>;
}

/** The string values under PROSE_KEYS anywhere in metadata (depth-limited: frontmatter is untrusted). */
function metadataText(value: unknown, out: string[], depth: number, prose: boolean): void {
  if (typeof value === "string") {
    if (prose) out.push(value);
  } else if (depth > 4 || value === null || typeof value !== "object") return;
  // An array too: its keys ("0", "1", …) are no prose keys, so its items inherit `prose` as they should.
  else
    for (const [k, v] of Object.entries(value))
      metadataText(v, out, depth + 1, prose || PROSE_KEYS.has(k.toLowerCase()));
}

/**
 * The opening of a body, fenced code left out, up to BODY_CHARS: the prose that says what the skill is
 * for and when to use it. Code is commands and identifiers (the metadata allowlist keeps them out for
 * the same reason). A line scan that stops at the cap, so a long reference body costs no more than a short one.
 */
function bodyProse(body: string): string {
  const out: string[] = [];
  let fenced = false;
  let length = 0;
  for (let start = 0; start < body.length && length < BODY_CHARS; ) {
    const end = body.indexOf("\n", start);
    const line = body.slice(start, end < 0 ? body.length : end);
    start = end < 0 ? body.length : end + 1;
    if (/^ {0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      out.push(line);
      length += line.length + 1;
    }
  }
  return out.join("\n").slice(0, BODY_CHARS);
}

function analyse(input: IndexInput): Analysis {
  const meta: string[] = [];
  metadataText(input.skill.metadata, meta, 0, false);
  const texts = [
    input.skill.name,
    input.skill.description,
    meta.join("\n"),
    input.body === undefined ? "" : bodyProse(input.body()),
  ];
  const counts = new Map<string, number[]>();
  const lengths = texts.map((text, f) => {
    const list = terms(text);
    for (const t of list) {
      const c = counts.get(t) ?? [0, 0, 0, 0];
      c[f] = (c[f] as number) + 1;
      counts.set(t, c);
    }
    return list.length;
  });
  return { key: input.key, counts, lengths };
}

/**
 * Index `inputs` (sorted by name, as a catalog is). Skills whose key is found in `previous` reuse its
 * analysis, so a rebuild after a refresh tokenises only what changed.
 */
export function buildIndex(inputs: readonly IndexInput[], previous?: SearchIndex): SearchIndex {
  const reuse = new Map(previous?.analyses.map((a) => [a.key, a]));
  const analyses = inputs.map((input) => reuse.get(input.key) ?? analyse(input));
  const average = FIELDS.map((_, f) => {
    const total = analyses.reduce((sum, a) => sum + (a.lengths[f] as number), 0);
    return Math.max(total / Math.max(analyses.length, 1), 1);
  });
  const lists = new Map<string, number[]>();
  analyses.forEach((a, doc) => {
    const norm = FIELDS.map((_, f) => {
      const b = B[f] as number;
      return 1 - b + (b * (a.lengths[f] as number)) / (average[f] as number);
    });
    for (const [term, c] of a.counts) {
      let tf = 0;
      for (let f = 0; f < FIELDS.length; f++)
        tf += ((WEIGHT[f] as number) * (c[f] as number)) / (norm[f] as number);
      const list = lists.get(term);
      if (list === undefined) lists.set(term, [doc, tf]);
      else list.push(doc, tf);
    }
  });
  const postings = new Map([...lists].map(([t, l]) => [t, Float64Array.from(l)]));
  const names = new Map<string, number>();
  inputs.forEach((input, doc) => {
    const key = nameKey(input.skill.name);
    if (!names.has(key)) names.set(key, doc);
  });
  return { skills: inputs.map((i) => i.skill), analyses, postings, names };
}

/**
 * Add `weight` × the pseudo term frequency of one alternative to `tf` per doc, recording each doc's
 * first touch in `docs`. A phrase ("machin learn") counts where all its terms occur, at the least of them.
 */
function addAlternative(
  index: SearchIndex,
  alternative: string,
  weight: number,
  tf: Float64Array,
  docs: number[],
): void {
  const add = (doc: number, value: number) => {
    if (tf[doc] === 0) docs.push(doc);
    tf[doc] = (tf[doc] as number) + weight * value;
  };
  const parts = alternative.split(" ");
  if (parts.length === 1) {
    // The common case, a single term: straight from its postings, no intermediate map.
    const list = index.postings.get(alternative);
    if (list !== undefined)
      for (let i = 0; i < list.length; i += 2) add(list[i] as number, list[i + 1] as number);
    return;
  }
  let acc: Map<number, number> | undefined;
  for (const part of parts) {
    const list = index.postings.get(part);
    const next = new Map<number, number>();
    if (list !== undefined)
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i] as number;
        const value = list[i + 1] as number;
        if (acc === undefined) next.set(doc, value);
        else if (acc.has(doc)) next.set(doc, Math.min(value, acc.get(doc) as number));
      }
    acc = next;
  }
  for (const [doc, value] of acc as Map<number, number>) add(doc, value);
}

/** A query's scores, with how much of it the catalog does not know. */
export interface Scored {
  /** Each doc that matched a concept → its score in [0, 1), doc ascending; the caller sorts. */
  readonly scores: Map<number, number>;
  /** The share of the query's IDF carried by concepts that no skill matches at all (0 for an empty query). */
  readonly unknown: number;
}

/**
 * Each doc's score for the concepts of a query: the BM25F sum over concepts, divided by the sum of
 * the concepts' IDF (what a doc matching every concept strongly would approach), so it lies in
 * [0, 1) and one floor fits every query. Multiplied by the square root of the share of the query's
 * IDF the doc matches at all, so one strongly matched word (a skill named "vibes") does not beat a description that
 * covers the whole request.
 */
export function scoreAll(index: SearchIndex, concepts: readonly QueryConcept[]): Scored {
  // IDF over a handful of skills is noise (a word in 2 of 3 skills would weigh almost nothing), so a
  // small store is scored as a sample of a catalog of at least MIN_DOCS; the 2,106-skill corpus is unaffected.
  const n = Math.max(index.skills.length, MIN_DOCS);
  // Dense per-doc accumulators: a common word's postings cover a large part of the catalog once bodies
  // are indexed, and typed arrays keep a query well under a millisecond where maps took twice as long.
  const size = index.skills.length;
  const raw = new Float64Array(size);
  const matched = new Float64Array(size);
  const tf = new Float64Array(size);
  let ideal = 0;
  let unknown = 0;
  for (const c of concepts) {
    const docs: number[] = [];
    addAlternative(index, c.term, 1, tf, docs);
    for (const alt of c.alternatives) addAlternative(index, alt, ALTERNATIVE, tf, docs);
    // A word no skill uses still counts in the ideal: a request about something the catalog lacks
    // should score low, which is what lets the floor return nothing.
    const idf = Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
    ideal += idf;
    if (docs.length === 0) unknown += idf;
    for (const doc of docs) {
      const t = tf[doc] as number;
      tf[doc] = 0;
      raw[doc] = (raw[doc] as number) + (idf * t) / (K1 + t);
      matched[doc] = (matched[doc] as number) + idf;
    }
  }
  const scores = new Map<number, number>();
  // Every doc that matched a concept (each idf is > 0), doc ascending. The square root: a full power
  // penalised partial matches too hard (nDCG@10 0.753 against 0.783 on the development split).
  matched.forEach((m, doc) => {
    if (m > 0) scores.set(doc, ((raw[doc] as number) / ideal) * Math.sqrt(m / ideal));
  });
  return { scores, unknown: ideal > 0 ? unknown / ideal : 0 };
}
