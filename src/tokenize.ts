// Text → search terms: accent and case folding, word splitting, light stemming, and the synonym table.

/** Words that carry no meaning for finding a skill, including the ones every request is phrased with. */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from get got has have how i i'm if in into is it " +
    "its just let me my need of on or our please should so some that the their them then there these this " +
    "those to up us use using via want was we what when where which while who why will with would you your " +
    "help hey hi able like lets im ive dont doesnt something thing things way also any all now right really " +
    "very thanks thank out off turn kind sure maybe one two three"
  ).split(" "),
);

/**
 * Groups of words that mean the same thing to someone asking for a skill. A query word of a group also
 * looks for the others. Kept small and general: the vocabulary people type against the vocabulary
 * skill authors write, never words picked from one skill's description.
 */
const SYNONYM_GROUPS: readonly string[] = [
  "k8s kubernetes kubectl",
  "slides slide pptx powerpoint deck presentation keynote",
  "bug bugs debug debugging troubleshoot",
  "docx word",
  "xlsx excel spreadsheet spreadsheets sheet",
  "js javascript",
  "ts typescript",
  "py python",
  "pr prs pull-request",
  "repo repository",
  "db database",
  "postgres postgresql psql",
  "auth authentication login oauth",
  "email mail gmail inbox",
  "doc docs documentation",
  "image images picture photo img",
  "video videos movie clip",
  "ml machine-learning",
  "llm llms language-model",
  "ui frontend",
  "perf performance slow speed optimize",
  "vuln vulnerability vulnerabilities cve",
  "secret secrets credential credentials password",
  "calendar meeting meetings schedule",
  "chart charts graph plot visualization",
  "scrape scraping crawl crawler",
  "deploy deployment release ship",
  "docker container containers",
  "terraform iac",
  "cv resume",
  "invoice invoices receipt billing",
  "changelog release-notes",
  "summarize summary summarise tldr",
  "translate translation",
  "tweet twitter",
  "test tests testing",
  "contract contracts agreement",
  "stock stocks ticker",
  "refactor cleanup",
  "paper papers arxiv",
  "sec security",
  "incident outage on-call oncall pagerduty",
];

/** Phrases people use whose words alone would not find the skill: phrase → the words to add. */
const PHRASES: ReadonlyArray<readonly [string, string]> = [
  ["page me", "alert on-call pagerduty notify"],
  ["wake me", "alert notify"],
  ["ping me", "notify alert"],
  ["went down", "outage incident"],
  ["is down", "outage incident"],
  ["look nicer", "design style"],
  ["make it pretty", "design style"],
  ["pull request", "pr"],
  ["machine learning", "ml"],
  ["language model", "llm"],
  ["on call", "oncall incident"],
  ["code review", "review"],
  ["read later", "bookmark"],
  ["end to end", "e2e"],
  ["share price", "stock"],
  ["picture of", "image generate"],
  ["draw me", "image generate"],
  ["on google", "seo search"],
  ["rain", "weather forecast"],
  ["snow", "weather forecast"],
  ["sunny", "weather forecast"],
  ["crash", "debug error"],
  ["crashing", "debug error"],
  ["crashes", "debug error"],
  ["aloud", "speech tts"],
  ["monday", "calendar"],
  ["tuesday", "calendar"],
  ["wednesday", "calendar"],
  ["thursday", "calendar"],
  ["friday", "calendar"],
  ["song", "music"],
  ["songs", "music"],
  ["playlist", "music"],
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included.
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case, accents removed (NFKD then combining marks dropped), camelCase split apart. */
export function fold(text: string): string {
  // ASCII text (nearly all of a real catalog) needs neither Unicode classes nor normalisation: 4x faster.
  // Same result as the Unicode path below: "s" ends a word before anything but a letter or digit (not \b:
  // "_"); a capital never follows it here, as the first replace has put a space between them.
  if (ASCII.test(text))
    return text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z])([A-Z](?!s(?![a-z0-9]))[a-z])/g, "$1 $2")
      .toLowerCase();
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}(?!s(?![\p{L}\p{N}]))\p{Ll})/gu, "$1 $2")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase();
}

const VOWEL = /[aeiouy]/;

/**
 * A light suffix stripper: plurals, `-ing`, `-ed`, `-ation` and a final `e`, so that "debugging",
 * "debugged" and "debug", or "automation", "automate" and "automates", meet. Deliberately weaker than
 * Porter: over-stemming merges words a user keeps apart ("organ"/"organization").
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let cut = false;
  if (w.endsWith("ing") && w.length > 5 && VOWEL.test(w.slice(0, -3))) {
    w = w.slice(0, -3);
    cut = true;
  } else if (w.endsWith("ed") && w.length > 4 && VOWEL.test(w.slice(0, -2))) {
    w = w.slice(0, -2);
    cut = true;
  } else if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -3);
  // "debugg" → "debug", but "install" and "pass" keep their double letter.
  if (cut && /([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The folded words of `text`, before stemming and stopword removal. */
export function words(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/**
 * A run of ASCII letters and digits, or of anything beyond ASCII. A non-Unicode pattern: on whole
 * bodies it is several times faster than matching WORD over the folded text. Separators in ASCII are
 * separators either way; a run with other characters is split exactly by {@link words} (see termsOf).
 */
const RUN = /[A-Za-z0-9\u0080-\uffff]+/g;

/** How many runs the memo holds before it starts over. */
export const MEMO_RUNS = 200_000;
/** Longer runs (hashes, base64, a body's one long "word") are not memoised: they are rarely met again. */
const MEMO_RUN_LENGTH = 48;

const runTerms = new Map<string, readonly string[]>();

/** Test seam: how many runs the memo holds. Not exported from the package. */
export const memoSize = (): number => runTerms.size;

/**
 * The terms of one run: folded, split, stopwords out, stemmed; memoised, as a catalog repeats its words
 * thousands of times. The memo is module-wide and outlives instances, so it is bounded in bytes, not
 * only in entries: runs of at most MEMO_RUN_LENGTH characters, and it starts over once full (a 256 KiB
 * run in each of 200 searches kept 50-200 MiB of heap for good).
 */
function termsOf(run: string): readonly string[] {
  let out = runTerms.get(run);
  if (out === undefined) {
    out = words(run)
      .filter((w) => w.length >= 2 && !STOPWORDS.has(w))
      .map(stem);
    if (run.length <= MEMO_RUN_LENGTH) {
      if (runTerms.size >= MEMO_RUNS) runTerms.clear();
      runTerms.set(run, out);
    }
  }
  return out;
}

/** The search terms of `text`: folded, split on anything not a letter or digit, stopwords out, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(RUN) ?? []) for (const t of termsOf(run)) out.push(t);
  return out;
}

/** Each term of a synonym group → the other terms of its groups. Built once at module load. */
const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    // A hyphenated entry ("machine-learning") is one synonym made of several terms.
    const members = group.split(" ").map((g) => terms(g.replace(/-/g, " ")));
    // Only one-term members are looked up; a phrase member ("pull-request") is found through PHRASES.
    for (const m of members) {
      if (m.length !== 1) continue;
      const head = m[0] as string;
      const set = map.get(head) ?? new Set<string>();
      for (const other of members) if (other.join(" ") !== head) set.add(other.join(" "));
      map.set(head, set);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v].sort()]));
})();

/** One concept of a query: the term typed, and the alternatives (single terms or space-joined phrases) that also count. */
export interface QueryConcept {
  readonly term: string;
  readonly alternatives: readonly string[];
}

/** The concepts of a query, each once, in order of first appearance, with phrase additions appended. */
export function queryConcepts(query: string): QueryConcept[] {
  const seen = new Set<string>();
  const concepts: QueryConcept[] = [];
  const add = (term: string) => {
    if (seen.has(term)) return;
    seen.add(term);
    concepts.push({ term, alternatives: SYNONYMS.get(term) ?? [] });
  };
  for (const t of terms(query)) add(t);
  const flat = ` ${words(query).join(" ")} `;
  for (const [phrase, extra] of PHRASES) {
    if (flat.includes(` ${phrase} `)) for (const t of terms(extra)) add(t);
  }
  return concepts;
}

/** The name as a lookup key: folded, every run of other characters one hyphen ("PDF Tools" → "pdf-tools"). */
export function nameKey(text: string): string {
  return words(text).join("-");
}
