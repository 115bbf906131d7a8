// The fast path's keys and scalars: plain keys, block scalars, core-schema values, as the `yaml` package reads them.

/** Thrown (caught by fastParse, never further) to abandon the fast path. */
export const DECLINE: unique symbol = Symbol("decline");

/**
 * Thrown when the text is one `yaml` certainly rejects, in a way the lenient repair is made for: a
 * top-level value it quotes (a plain one holding `: ` or opening with a reserved indicator, a flow
 * collection that never closes), or text run on after a closed quote or bracket.
 */
export const YAML_ERROR: unique symbol = Symbol("yaml error");

/** Abandon the fast path: what follows is not something it vouches for. */
export function decline(): never {
  throw DECLINE;
}

/** Keys that would not stay plain strings, or would touch a prototype. */
const SPECIAL_KEYS: ReadonlySet<string> = new Set(
  "true True TRUE false False FALSE null Null NULL __proto__".split(" "),
);

/** Whether `key` is one of {@link SPECIAL_KEYS}; every one of them is 4, 5 or 9 characters long. */
export function isSpecialKey(key: string): boolean {
  const n = key.length;
  return (n === 4 || n === 5 || n === 9) && SPECIAL_KEYS.has(key);
}

/** The index of `c` in `s` from `p`, or the length of `s`. */
export function find(s: string, c: string, p: number): number {
  const i = s.indexOf(c, p);
  return i === -1 ? s.length : i;
}

/** The 1-based line of offset `at` in `s`, as `yaml` counts lines (each ends at a "\n"). */
export function lineOf(s: string, at: number): number {
  let line = 1;
  for (let i = s.indexOf("\n"); i !== -1 && i < at; i = s.indexOf("\n", i + 1)) line++;
  return line;
}

/** Deeper nesting declines, so a fast result always stays well within the yaml path's MAX_DEPTH (64). */
export const MAX_NESTING = 32;

/** Characters that may not start a plain scalar here (YAML indicators, kept conservative), by char code. */
const INDICATOR = new Uint8Array(128);
for (const c of "?:,[]{}#&*!|>'\"%@`") INDICATOR[c.charCodeAt(0)] = 1;

/**
 * Whether `s[p, end)` (trimmed, on one line) may be a plain scalar as it stands: not empty, not opening
 * with an indicator, not `-` alone or `- ` (a sequence entry).
 */
export function plainStart(s: string, p: number, end: number): boolean {
  if (end <= p) return false;
  const c = s.charCodeAt(p);
  if (c < 128 && INDICATOR[c] === 1) return false;
  return c !== 45 || (end !== p + 1 && s.charCodeAt(p + 1) !== 32);
}

const isKeyStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isKeyChar = (c: number) => isKeyStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;

/**
 * Where the colon is when `s` holds, from `p`, a plain key (`[A-Za-z_][A-Za-z0-9_.-]`, at most 128
 * characters) followed by `:` and a space or the end of the line; -1 otherwise.
 */
export function keyEnd(s: string, p: number): number {
  if (!isKeyStart(s.charCodeAt(p))) return -1;
  let q = p + 1;
  // The scan stops at 128 characters: a 129th key character then stands where the colon must be.
  while (q - p < 128 && isKeyChar(s.charCodeAt(q))) q++;
  if (s.charCodeAt(q) !== 58) return -1;
  return q + 1 === s.length || s.charCodeAt(q + 1) === 32 || s.charCodeAt(q + 1) === 10 ? q : -1;
}

/** Whether `s[p, end)` is, whole, a plain key as {@link keyEnd} reads one. */
export function isPlainKey(s: string, p: number, end: number): boolean {
  if (end - p > 128 || !isKeyStart(s.charCodeAt(p))) return false;
  for (let q = p + 1; q < end; q++) if (!isKeyChar(s.charCodeAt(q))) return false;
  return true;
}

/**
 * The keys real manifests use most (89 % of the corpus's block mapping keys, 80 % of its JSON metadata's),
 * by the char code of their first letter. Taking the literal spares a scan and a slice, and a look-up in
 * V8's string table when the key becomes a property: 0.2–0.3 µs a frontmatter, of 1.3–1.8.
 */
const COMMON_KEYS: (string[] | undefined)[] = [];
for (const key of [
  ..."name description metadata license version homepage allowed-tools author argument-hint model".split(" "),
  ..."skill-author user-invocable triggers source compatibility tags".split(" "),
  ..."bins emoji requires clawdbot id kind label env install primaryEnv openclaw package".split(" "),
]) {
  const keys = COMMON_KEYS[key.charCodeAt(0)] ?? [];
  keys.push(key);
  COMMON_KEYS[key.charCodeAt(0)] = keys;
}

/** The common key at `p`, when one is there followed by its colon and a space or the end of the line. */
export function commonKey(s: string, p: number): string | undefined {
  const keys = COMMON_KEYS[s.charCodeAt(p)];
  if (keys === undefined) return undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    // Its colon, then a space or the end of the line: read inside the text only (see nextContent).
    const q = p + key.length + 1;
    if (q <= s.length && s.charCodeAt(q - 1) === 58 && s.startsWith(key, p)) {
      if (q === s.length || s.charCodeAt(q) === 32 || s.charCodeAt(q) === 10) return key;
    }
  }
  return undefined;
}

/** The key `s[p, end)`: a common key's literal when it is one. */
export function keyText(s: string, p: number, end: number): string {
  const keys = COMMON_KEYS[s.charCodeAt(p)];
  if (keys !== undefined) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (key.length === end - p && s.startsWith(key, p)) return key;
    }
  }
  return s.slice(p, end);
}

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** The union of the number forms below, tested first so that a version or a date costs one test, not six. */
const NUMBER =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value under the YAML 1.2 core schema, tags tried in the `yaml` package's order. */
export function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Only null and the booleans start with these letters, and each is 4 or 5 characters long: most values
  // starting with them ("name: nodejs") cost no test at all, and a version one test (0.1 µs a corpus
  // frontmatter, for this and NUMBER).
  if (c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70) {
    if (s.length !== 4 && s.length !== 5) return s;
    if (NULL.test(s)) return null;
    return BOOL.test(s) ? c === 116 || c === 84 : s;
  }
  if (c === 126) return s.length === 1 ? null : s;
  // Most values start with a letter or a sign no core tag can match: skip every test.
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) || !NUMBER.test(s)) return s;
  if (INT_OCT.test(s)) return Number.parseInt(s.slice(2), 8);
  if (INT.test(s)) return Number.parseInt(s, 10);
  // Radix 16 takes the `0x` prefix itself.
  if (INT_HEX.test(s)) return Number.parseInt(s, 16);
  if (FLOAT_SPECIAL.test(s)) {
    if (/nan/i.test(s)) return Number.NaN;
    return s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return Number.parseFloat(s);
  return s;
}

/** The start of the line after the last block scalar {@link blockScalar} read. */
export let blockNext = 0;

/**
 * A `|`, `|-`, `>` or `>-` block scalar whose header is at `s[p]`, under a key (or a sequence entry's dash)
 * at `indent`; its lines are indented as the first, and a folded one's no deeper. Sets {@link blockNext}.
 */
export function blockScalar(s: string, p: number, indent: number): string {
  const literal = s.charCodeAt(p) === 124;
  const strip = s.charCodeAt(p + 1) === 45;
  let start = strip ? p + 2 : p + 1;
  while (s.charCodeAt(start) === 32) start++;
  // Only spaces may follow the header (no comment, indentation or keep indicator).
  if (start < s.length && s.charCodeAt(start) !== 10) decline();
  start++;
  let at = start;
  while (s.charCodeAt(at) === 32) at++;
  const body = at - start;
  if (start > s.length || body <= indent || at === s.length || s.charCodeAt(at) === 10) decline();
  let text = "";
  // Blank lines since the last content line; -1 before the first.
  let blanks = -1;
  for (; start < s.length; at = start) {
    while (at < s.length && s.charCodeAt(at) === 32) at++;
    if (at === s.length || s.charCodeAt(at) === 10) {
      // A blank line holding more spaces than the indentation keeps them in yaml: not vouched for.
      if (at - start > body) decline();
      blanks++;
      start = at + 1;
      continue;
    }
    if (at - start < body) break;
    if (!literal && at - start > body) decline();
    const end = find(s, "\n", at);
    const line = s.slice(start + body, end);
    if (blanks === -1) text = line;
    else if (literal) text += (blanks === 0 ? "\n" : "\n".repeat(blanks + 1)) + line;
    else text += (blanks === 0 ? " " : "\n".repeat(blanks)) + line;
    blanks = 0;
    start = end + 1;
  }
  blockNext = start;
  return strip ? text : `${text}\n`;
}
