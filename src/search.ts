// A request → the skills that fit it, best first: lexical BM25F, the exact-name rule, a floor, and optional dense fusion.
import { SkillError } from "./errors.js";
import { buildIndex, type SearchIndex, scoreAll } from "./searchindex.js";
import { nameKey, queryConcepts } from "./tokenize.js";
import type { EmbedFunction, SearchOptions, SkillInfo, SkillMatch } from "./types.js";

/** Options of a search that returns synchronously: no `embed`. */
export type LexicalSearchOptions = SearchOptions & { embed?: undefined };
/** Options of a search with `embed`: it returns a Promise. */
export type EmbeddingSearchOptions = SearchOptions & { embed: EmbedFunction };

const DEFAULT_LIMIT = 10;
/**
 * The least score the best match must reach for a request to be served when words that no skill uses
 * carry UNKNOWN_SHARE of its IDF or more: the floor of before the unknown-word rule, so a small store,
 * which knows few words, is floored as it was. Chosen on the development splits (README "Search",
 * Decisions): on `dev` and `dev-para` requests padded with generic context the floor costs at most
 * 5.4 % of recall@5.
 */
const DEFAULT_FLOOR = 0.08;
/**
 * The share of the floor a best match needs when the catalog knows (nearly) every word of the request.
 * Words no skill uses are the clearest sign of a request about something the catalog lacks; a request
 * whose words are all known but match weakly is more often one put in other words than the skill's
 * (README "Search", Decisions: chosen on the development splits).
 */
const KNOWN_WORDS_SHARE = 0.375;
/**
 * From this share of a request's IDF on words that no skill uses, the best match needs the whole floor.
 * A quarter, not the first design's fifth: over every labelled split but the last (182 answered, 39
 * no-answer requests) a fifth lost 6.0 % of Recall@5 to the floor, a quarter 3.0 %, for 26 of 39 no-answer
 * requests emptied instead of 28 (README "Search", Decisions).
 */
const UNKNOWN_SHARE = 0.25;
/** Once the best match clears the floor, the others are kept down to this share of it: a request's second-best skills often match fewer of its words. */
const TAIL_SHARE = 0.25;
/** Cosine similarity is model-specific; 0.5 keeps clearly related texts for common sentence embedders. */
const DEFAULT_MIN_SIMILARITY = 0.5;
/** The usual reciprocal-rank-fusion constant (Cormack et al. 2009): it damps the weight of the very top ranks. */
const RRF_K = 60;

interface Resolved {
  readonly limit: number;
  readonly floor: number;
  readonly embed: EmbedFunction | undefined;
  readonly minSimilarity: number;
}

function invalid(message: string): SkillError {
  return new SkillError("invalid_input", `search: ${message}`);
}

/**
 * Check that `skills` is an array whose every entry has a string under each of `keys`; `invalid` makes
 * the error. An index loop: forEach would skip the holes of a sparse array.
 */
export function checkSkills(
  skills: unknown,
  keys: readonly string[],
  invalid: (message: string) => SkillError,
): void {
  if (!Array.isArray(skills)) throw invalid(`skills must be an array of SkillInfo, got ${typeof skills}`);
  for (let i = 0; i < skills.length; i++) {
    const s = skills[i] as Partial<Record<string, unknown>> | null | undefined;
    for (const key of keys)
      if (typeof s?.[key] !== "string") throw invalid(`skills[${i}].${key} must be a string`);
  }
}

/** Check the query and options before any work, naming the option and the value received. */
export function resolveSearch(query: unknown, options: unknown): Resolved {
  if (typeof query !== "string") throw invalid(`query must be a string, got ${typeof query}`);
  if (options === null || typeof options !== "object") throw invalid("options must be an object");
  const {
    limit = DEFAULT_LIMIT,
    floor = DEFAULT_FLOOR,
    embed,
    minSimilarity = DEFAULT_MIN_SIMILARITY,
  } = options as SearchOptions;
  if (!(Number.isSafeInteger(limit) && limit > 0))
    throw invalid(`option "limit" must be a positive integer, got ${String(limit)}`);
  if (!(typeof floor === "number" && floor >= 0 && floor <= 1))
    throw invalid(`option "floor" must be a number from 0 to 1, got ${String(floor)}`);
  if (embed !== undefined && typeof embed !== "function")
    throw invalid(`option "embed" must be a function, got ${typeof embed}`);
  if (!(typeof minSimilarity === "number" && minSimilarity >= -1 && minSimilarity <= 1))
    throw invalid(`option "minSimilarity" must be a number from -1 to 1, got ${String(minSimilarity)}`);
  return { limit, floor, embed, minSimilarity };
}

/** Best first; equal scores by name in code-unit order, so every run and platform agrees. */
function byScore(index: SearchIndex): (a: [number, number], b: [number, number]) => number {
  return (a, b) => {
    if (b[1] !== a[1]) return b[1] - a[1];
    const x = (index.skills[a[0]] as SkillInfo).name;
    const y = (index.skills[b[0]] as SkillInfo).name;
    return x < y ? -1 : x > y ? 1 : a[0] - b[0];
  };
}

/**
 * The matches, best first, as [doc, score]: none when the best scores below the floor that applies
 * (no skill serves the request), else those scoring at least that floor times TAIL_SHARE. The floor
 * that applies is `floor` when words no skill uses carry UNKNOWN_SHARE of the request or more, else
 * `floor * KNOWN_WORDS_SHARE`. The skill named exactly as the query comes first whatever its score.
 */
function lexical(index: SearchIndex, query: string, floor: number): [number, number][] {
  const { scores, unknown } = scoreAll(index, queryConcepts(query));
  const ranked = [...scores];
  ranked.sort(byScore(index));
  const needed = unknown >= UNKNOWN_SHARE ? floor : floor * KNOWN_WORDS_SHARE;
  const served = ranked.length > 0 && (ranked[0] as [number, number])[1] >= needed;
  return pinExact(index, query, served ? ranked.filter(([, s]) => s >= needed * TAIL_SHARE) : []);
}

function pinExact(index: SearchIndex, query: string, ranked: [number, number][]): [number, number][] {
  const exact = index.names.get(nameKey(query));
  if (exact === undefined) return ranked;
  const rest = ranked.filter(([doc]) => doc !== exact);
  // It outranks everything: its score is lifted just above the best other one. `ranked` is best first, so
  // its head is either the exact match (keeping its own score) or the best other one (the lift passes it).
  const top = Math.max(ranked[0]?.[1] ?? 0, (rest[0]?.[1] ?? 0) + 1e-9);
  return [[exact, top], ...rest];
}

function toMatches(index: SearchIndex, ranked: readonly [number, number][], limit: number): SkillMatch[] {
  return ranked
    .slice(0, limit)
    .map(([doc, score]) => Object.freeze({ skill: index.skills[doc] as SkillInfo, score }));
}

/** What is embedded for a skill: its name and description, the text a catalog shows. */
const embedText = (s: SkillInfo) => `${s.name}: ${s.description}`;

const vectorCache = new WeakMap<SearchIndex, Map<EmbedFunction, Promise<number[][]>>>();

/** The caller's embedder, always as a Promise: one that answers at once or throws is awaited all the same. */
const call = (embed: EmbedFunction, texts: string[]) => Promise.resolve().then(() => embed(texts));

function skillVectors(index: SearchIndex, embed: EmbedFunction): Promise<number[][]> {
  let byFunction = vectorCache.get(index);
  if (byFunction === undefined) {
    byFunction = new Map();
    vectorCache.set(index, byFunction);
  }
  let vectors = byFunction.get(embed);
  if (vectors === undefined) {
    vectors = call(embed, index.skills.map(embedText));
    // A failed call is not cached: the next search tries again (a wrong answer is dropped in fused()).
    const cache = byFunction;
    vectors.catch(() => cache.delete(embed));
    byFunction.set(embed, vectors);
  }
  return vectors;
}

/** Skill vectors already checked to be arrays of numbers: checked once, as they are cached. */
const vetted = new WeakSet<object>();

const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === "number");

/** Cosine similarity; a dimension one vector lacks counts as 0. */
function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

async function fused(
  index: SearchIndex,
  query: string,
  o: Resolved,
  embed: EmbedFunction,
): Promise<SkillMatch[]> {
  const [vectors, queryVectors] = await Promise.all([skillVectors(index, embed), call(embed, [query])]);
  // The embedder is the caller's code: check its answer rather than fail deep inside cosine(), and
  // drop a wrong answer from the cache, so that the next search asks again.
  const wrong = (message: string) => {
    // skillVectors made this index's map before the answer came.
    (vectorCache.get(index) as Map<EmbedFunction, Promise<number[][]>>).delete(embed);
    return invalid(message);
  };
  const count = (v: unknown) => (Array.isArray(v) ? v.length : typeof v);
  if (count(vectors) !== index.skills.length || count(queryVectors) !== 1)
    throw wrong(
      `embed must return one vector per text (${index.skills.length} skills and 1 query, got ${count(vectors)} and ${count(queryVectors)})`,
    );
  const q = queryVectors[0];
  if (!isVector(q) || !(vetted.has(vectors) || vectors.every(isVector)))
    throw wrong("embed must return arrays of numbers");
  vetted.add(vectors);
  const dense = vectors
    .map((v, doc): [number, number] => [doc, cosine(q, v)])
    .filter(([, s]) => s >= o.minSimilarity);
  dense.sort(byScore(index));
  const lex = lexical(index, query, o.floor);
  const score = new Map<number, number>();
  for (const list of [lex, dense])
    for (const [rank, [doc]] of list.entries())
      score.set(doc, (score.get(doc) ?? 0) + 1 / (RRF_K + rank + 1));
  const ranked = [...score].sort(byScore(index));
  return toMatches(index, pinExact(index, query, ranked), o.limit);
}

/** Run a resolved search on a built index: synchronous without `embed`, a Promise with it. */
export function searchIndex(
  index: SearchIndex,
  query: string,
  o: Resolved,
): readonly SkillMatch[] | Promise<readonly SkillMatch[]> {
  if (o.embed !== undefined) return fused(index, query, o, o.embed).then((m) => Object.freeze(m));
  return Object.freeze(toMatches(index, lexical(index, query, o.floor), o.limit));
}

const indexCache = new WeakMap<readonly SkillInfo[], SearchIndex>();

/** The index of a skills array, built once per array (a catalog from `listSkills()` is one frozen array per snapshot). */
function indexOf(skills: readonly SkillInfo[]): SearchIndex {
  let index = indexCache.get(skills);
  if (index === undefined) {
    checkSkills(skills, ["name", "description"], invalid);
    const bodyOf = (s: SkillInfo) => (s as { body?: unknown }).body;
    index = buildIndex(
      skills.map((skill, i) => {
        const body = bodyOf(skill);
        return { skill, key: String(i), body: typeof body === "string" ? () => body : undefined };
      }),
    );
    // Only a frozen array cannot change behind the cache's back.
    if (Object.isFrozen(skills)) indexCache.set(skills, index);
  }
  return index;
}

/**
 * Rank `skills` for a request, best first. Pure: no I/O, the same input gives the same output.
 * Field-weighted BM25 over name, description, the string values of metadata and, for entries that
 * carry a `body` (a `SkillContent`), the opening of its body; a skill named exactly as the query comes first.
 * When the best lexical match scores below the floor that applies (see {@link SearchOptions.floor}), the
 * request is unserved and gets `[]`; otherwise matches are kept down to a quarter of that floor.
 * @throws {SkillError} `invalid_input` for a bad query, skills array or option.
 * @example
 * const top = searchSkills(skills.listSkills(), "turn these notes into slides", { limit: 5 });
 */
export function searchSkills(
  skills: readonly SkillInfo[],
  query: string,
  options?: LexicalSearchOptions,
): readonly SkillMatch[];
export function searchSkills(
  skills: readonly SkillInfo[],
  query: string,
  options: EmbeddingSearchOptions,
): Promise<readonly SkillMatch[]>;
/** With options whose `embed` is not known statically: an array, or a Promise when `embed` is given. */
export function searchSkills(
  skills: readonly SkillInfo[],
  query: string,
  options?: SearchOptions,
): readonly SkillMatch[] | Promise<readonly SkillMatch[]>;
export function searchSkills(
  skills: readonly SkillInfo[],
  query: string,
  options: SearchOptions = {},
): readonly SkillMatch[] | Promise<readonly SkillMatch[]> {
  const resolved = resolveSearch(query, options);
  return searchIndex(indexOf(skills), query, resolved);
}

/**
 * For each of `shown` (a subset of `skills`, in its order), its place when ranked by relevance to
 * `query`: 0 for the best, the exact name first, skills sharing no word with the query last, ties in
 * list order. Ranked over the whole of `skills`, whose index is cached when it is a catalog from
 * `listSkills()`. Used by renderCatalog, which drops the highest place first.
 */
export function relevanceOrder(
  skills: readonly SkillInfo[],
  shown: readonly SkillInfo[],
  query: string,
): number[] {
  const index = indexOf(skills);
  // By score, not by rank: the ranking breaks ties by name, and equals here keep list order (the exact
  // name's lifted score still puts it first).
  const score = new Map(lexical(index, query, 0).map(([doc, s]) => [index.skills[doc] as SkillInfo, s]));
  const scoreOf = (i: number) => score.get(shown[i] as SkillInfo) ?? Number.NEGATIVE_INFINITY;
  // Two unscored skills compare as NaN (−∞ + ∞), which sort() reads as equal; it is stable, so they keep list order.
  const byRelevance = shown.map((_, i) => i).sort((a, b) => scoreOf(b) - scoreOf(a));
  const place: number[] = [];
  byRelevance.forEach((i, p) => {
    place[i] = p;
  });
  return place;
}
