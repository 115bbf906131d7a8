// Where the fast path is certain that `yaml` rejects what it declined to read: a top-level flow
// collection, or a line of prose among the top-level keys.
import { find, lineOf, MAX_NESTING } from "./fastscalar.js";

// What the innermost collection expects next.
const ITEM = 0;
const KEY = 1;
const COLON = 2;
const VALUE = 3;
const AFTER = 4;

/** Whether `c` may stand in a plain scalar here: letters, digits, `_.+-/\\` and any non-ASCII character. */
const isPlain = (c: number) =>
  (c >= 97 && c <= 122) ||
  (c >= 65 && c <= 90) ||
  (c >= 45 && c <= 57) ||
  c === 95 ||
  c === 43 ||
  c === 92 ||
  c >= 128;

/** The closing quote of the double-quoted scalar at `s[p]` as yaml's lexer finds it (after an even run of backslashes); -1 if none. */
function closingQuote(s: string, p: number): number {
  for (let end = s.indexOf('"', p + 1); end !== -1; end = s.indexOf('"', end + 1)) {
    let n = 0;
    while (s.charCodeAt(end - 1 - n) === 92) n++;
    if (n % 2 === 0) return end;
  }
  return -1;
}

/**
 * Whether `yaml` certainly rejects the flow collection opening at `s[p]`, read as JSON-like text to the
 * end of `s`: collections, double-quoted strings, plain words, `:` and `,` in their JSON places (a
 * trailing comma allowed), spaces and line breaks. Its brackets are then yaml's flow tokens, and yaml
 * reports an error when
 * - the collection never closes before the end of the text (real manifests' JSON metadata with a
 *   bracket missing; a string left open runs to the end too),
 * - a bracket closes a collection of the other kind,
 * - a mapping's scalar value is followed on its line by `[` or `{` (`"bins":\["curl"]`).
 * Anything else (the collection closing, nesting deeper than {@link MAX_NESTING}, a comment, a single quote, an indicator, a missing comma, a
 * scalar over two lines) is not sure.
 */
export function rejects(s: string, p: number): boolean {
  const open = s.charCodeAt(p);
  if (open !== 91 && open !== 123) return false;
  const closers: number[] = [];
  let state = VALUE;
  // The token before was a mapping's scalar value, on this line.
  let mapValue = false;
  // The key before the colon was quoted: yaml then takes the colon as an indicator, whatever follows it.
  let quotedKey = false;
  while (p < s.length) {
    const c = s.charCodeAt(p);
    if (c === 32 || c === 10) {
      if (c === 10) mapValue = false;
      p++;
    } else if (c === 91 || c === 123) {
      if (state === AFTER) return mapValue;
      // Deeper than the fast path reads, yaml's verdict may be that the text nests too deep.
      if ((state !== ITEM && state !== VALUE) || closers.length === MAX_NESTING) return false;
      // `]` and `}` are two after `[` and `{`.
      closers.push(c + 2);
      state = c === 91 ? ITEM : KEY;
      p++;
    } else if (c === 93 || c === 125) {
      if (state === COLON || state === VALUE) return false;
      if (c !== closers.at(-1)) return true;
      closers.pop();
      if (closers.length === 0) return false;
      state = AFTER;
      mapValue = false;
      p++;
    } else if (c === 44) {
      if (state !== AFTER) return false;
      state = closers.at(-1) === 93 ? ITEM : KEY;
      p++;
    } else if (c === 58) {
      const next = s.charCodeAt(p + 1);
      if (state !== COLON || !(quotedKey || next === 32 || next === 10 || p + 1 === s.length)) return false;
      state = VALUE;
      p++;
    } else {
      // A scalar where a token starts: after a bracket, a comma or a colon indicator.
      if (state !== ITEM && state !== KEY && state !== VALUE) return false;
      const quoted = c === 34;
      if (quoted) {
        const end = closingQuote(s, p);
        // A string left open runs to the end of the text, and so does the collection.
        if (end === -1) return true;
        p = end + 1;
      } else {
        // A dash before a space or a bracket is an indicator, not a plain scalar's start.
        if (!isPlain(c) || (c === 45 && !isPlain(s.charCodeAt(p + 1)))) return false;
        for (let d = c; isPlain(d) || d === 32; d = s.charCodeAt(++p));
      }
      mapValue = state === VALUE;
      quotedKey = quoted;
      state = state === KEY ? COLON : AFTER;
    }
  }
  // The text ended inside the collection (it returns when the collection closes).
  return true;
}

/**
 * `yaml`'s first error in a frontmatter, known without it: its message, on a 1-based line of the
 * frontmatter text, at column 1. What fastParse gives for a line of prose among the top-level keys.
 */
export class SureError {
  constructor(
    readonly message: string,
    readonly line: number,
  ) {}
}

/** yaml's error for prose that ends on its line, and for prose that runs on over the lines below. */
const ONE_LINE = "Implicit map keys need to be followed by map values";
const MORE_LINES = "Implicit keys need to be on a single line";

/** Longer prose may meet yaml's 1,024-character limit on implicit keys first: not sure. */
const MAX_PROSE = 1000;

/** Letters, digits, `_`, and the `<` and `=` of a merge conflict's markers. */
const isProseStart = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 60 || c === 61;

/**
 * What `yaml` reports for the line at `s[p]`, at column 0, after the top-level entries `map`, when that
 * line is prose (markdown pasted above the closing fence, a merge conflict's markers): two characters
 * from {@link isProseStart} start it, and it holds no `:` or `#`. yaml reads it as a key without a value.
 * Followed by blank lines, comments or the end of the text, the key ends on its line ({@link ONE_LINE});
 * followed by text, it runs on over the next line ({@link MORE_LINES}). Whatever comes later, that is
 * yaml's first error. Not sure (undefined): a `:` where the key's value could start, a document marker,
 * a key written before (a duplicate to yaml first), a single character, longer prose. `s` holds no tab
 * or CR (fastParse's `sureText`).
 */
export function strayLine(s: string, p: number, map: Record<string, unknown>): SureError | undefined {
  const eol = find(s, "\n", p);
  const second = s.charCodeAt(p + 1);
  if (eol - p < 2 || eol - p > MAX_PROSE || !isProseStart(s.charCodeAt(p)) || second === 32) return undefined;
  for (let i = p; i < eol; i++) {
    const c = s.charCodeAt(i);
    if (c === 58 || c === 35) return undefined;
  }
  let end = eol;
  while (s.charCodeAt(end - 1) === 32) end--;
  if (Object.hasOwn(map, s.slice(p, end))) return undefined;
  const line = lineOf(s, p);
  let comment = false;
  for (let start = eol + 1; start < s.length; ) {
    let at = start;
    while (at < s.length && s.charCodeAt(at) === 32) at++;
    const c = at < s.length ? s.charCodeAt(at) : 10;
    if (c === 10 || c === 35) {
      comment ||= c === 35;
      start = find(s, "\n", at) + 1;
      continue;
    }
    // After a comment the key has ended, but a `:` could still give it its value.
    if (comment) return c === 58 ? undefined : new SureError(ONE_LINE, line);
    const marker = at === start && (s.startsWith("---", at) || s.startsWith("...", at));
    return c === 58 || marker ? undefined : new SureError(MORE_LINES, line);
  }
  return new SureError(ONE_LINE, line);
}
