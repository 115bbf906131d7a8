// A fast path for the common, simple frontmatter shapes; declines (undefined) whatever it is not sure of.
//
// The subset: block mappings with plain keys, block sequences (of scalars, flow collections or
// compact mappings), plain scalars (one line, or folded over more-indented lines), single-line
// quoted scalars with every double-quoted escape, `|`/`|-`/`>`/`>-` block scalars (after a key or a
// dash, or alone on the line below a key), flow collections on one line or, as JSON metadata, over
// several (fastflow.ts), `#` comments and CRLF line ends.
// Scalars resolve by the YAML 1.2 core schema exactly as the `yaml` package does. Anything else,
// and anything that package would report as an error (duplicate keys, `: ` inside a nested plain
// value), declines, so that the caller's `yaml` parse decides and reports; where the error is certain
// and the lenient repair is made for it, fastParse says so instead (YAML_ERROR), and for a line of
// prose among the top-level keys it gives yaml's first error itself (SureError, fastreject.ts).

import { flowNext, flowText, flowValue } from "./fastflow.js";
import { SureError, strayLine } from "./fastreject.js";
import {
  blockNext,
  blockScalar,
  commonKey,
  DECLINE,
  decline,
  find,
  isSpecialKey,
  keyEnd,
  MAX_NESTING,
  plainStart,
  resolvePlain,
  YAML_ERROR,
} from "./fastscalar.js";

export { SureError } from "./fastreject.js";
export { YAML_ERROR } from "./fastscalar.js";

/**
 * Text the scanner vouches for: no control, special space or line-break character (CR included), BOM,
 * lone surrogate or tab. Checked in two steps ({@link sureText}): a search for the first character that
 * is not printable ASCII or LF, which most frontmatter (four in five of the corpus's) does not hold, then
 * this class over the rest. The class alone, matched over the whole text, cost twice the search: 1.1 µs a
 * corpus frontmatter, about a seventh of its parse. With CRLF looked for only when the check fails.
 */
const SURE_REST =
  /[\n\x20-\x7E\u{A1}-\u{167F}\u{1681}-\u{1FFF}\u{200B}-\u{2027}\u{202A}-\u{202E}\u{2030}-\u{205E}\u{2060}-\u{2FFF}\u{3001}-\u{D7FF}\u{E000}-\u{FEFE}\u{FF00}-\u{FFFD}\u{10000}-\u{10FFFF}]*$/uy;
/** A character other than printable ASCII and LF: where {@link SURE_REST} must take over. */
const NOT_PLAIN_ASCII = /[^\n\x20-\x7E]/;

/** Whether the scanner vouches for every character of `s` (see {@link SURE_REST}). */
function sureText(s: string): boolean {
  const at = s.search(NOT_PLAIN_ASCII);
  if (at === -1) return true;
  SURE_REST.lastIndex = at;
  return SURE_REST.test(s);
}

// The scanner's state: one text at a time (fastParse is not re-entrant), read in place, in one forward
// pass. Offsets in module variables, not a line array and a parser object with a slice a line: under the
// benchmark's protocol (a forced gc and a pause before each run) fastParse went from 8.5 µs a corpus
// frontmatter to 1.8, and from 4.7 a synthetic one to 1.3, with a third of the allocation.
let src = "";
/** The start of the line being read (a value's), or past the end of the text. */
let cursor = 0;
/** The start of the line {@link nextContent} last found. */
let lineStart = 0;
/** The next `#` and `: ` at or after where they were last looked for: valid until the scan passes them. */
let hashAt = -1;
let colonAt = -1;

/**
 * The first character of the next line, from the one starting at `from`, that is neither blank nor a
 * comment; -1 if none. Sets {@link lineStart}.
 */
function nextContent(from: number): number {
  const s = src;
  const n = s.length;
  for (let start = from; start < n; ) {
    let p = start;
    // Never past the end: TurboFan's charCodeAt deoptimizes there, and calls the builtin ever after.
    while (p < n && s.charCodeAt(p) === 32) p++;
    const c = p < n ? s.charCodeAt(p) : 10;
    if (c === 10) start = p + 1;
    else if (c === 35) start = find(s, "\n", p) + 1;
    else {
      lineStart = start;
      return p;
    }
  }
  return -1;
}

/** A block mapping at `indent`; `first` is its first key when the caller found it (a compact mapping's). */
function mapping(indent: number, depth: number, first: number): Record<string, unknown> {
  if (depth > MAX_NESTING) decline();
  const map: Record<string, unknown> = {};
  for (let p = first; ; p = -1) {
    if (p === -1) {
      p = nextContent(cursor);
      // The mapping ends here; a line that belongs to nothing is left unread, and fastParse declines.
      if (p === -1 || p - lineStart !== indent) break;
    }
    let key = commonKey(src, p);
    let colon: number;
    if (key !== undefined) colon = p + key.length;
    else {
      colon = keyEnd(src, p);
      if (colon === -1) break;
      key = src.slice(p, colon);
      if (isSpecialKey(key)) decline();
    }
    if (Object.hasOwn(map, key)) decline();
    cursor = lineStart;
    map[key] = value(colon + 1, indent, depth);
  }
  return map;
}

/** The value of a mapping entry whose key sits at `indent`; its colon ends before `v`. */
function value(v: number, indent: number, depth: number): unknown {
  const s = src;
  let p = v;
  while (p < s.length && s.charCodeAt(p) === 32) p++;
  const c = p < s.length ? s.charCodeAt(p) : 10;
  if (c !== 10 && c !== 35) return inline(p, indent, depth, true, true);
  // Nothing after the key but perhaps a comment: the value is on the lines below, or null.
  const below = (c === 35 ? find(s, "\n", p) : p) + 1;
  const q = nextContent(below);
  if (q === -1) {
    cursor = s.length + 1;
    return null;
  }
  cursor = lineStart;
  const at = q - lineStart;
  // A sequence may sit at its key's own indentation.
  if (at >= indent && s.charCodeAt(q) === 45 && s.charCodeAt(q + 1) === 32) return sequence(at, depth + 1);
  if (at <= indent) return null;
  if (keyEnd(s, q) !== -1) return mapping(at, depth + 1, q);
  // A comment line between: after a blank line, one at the key's indentation lets yaml run a plain value
  // on into what follows (the next key, an error). Not vouched for, whatever the lines are.
  const d = s.charCodeAt(q);
  const plainValue = d !== 34 && d !== 39 && d !== 91 && d !== 123 && d !== 124 && d !== 62;
  if (plainValue) {
    if (hashAt < below) hashAt = find(s, "#", below);
    if (hashAt < lineStart) decline();
  }
  return inline(q, indent, depth, false, true);
}

/**
 * A value that starts at `p`, after an indicator or key: quoted, flow, block or plain. A mapping's flow
 * collection may run on over the lines below (`lines`), not a sequence item's.
 */
function inline(p: number, indent: number, depth: number, keyed: boolean, lines: boolean): unknown {
  const c = src.charCodeAt(p);
  if (c === 34 || c === 39 || c === 91 || c === 123) {
    const parsed = flowValue(p, indent, depth, lines, keyed && indent === 0);
    cursor = flowNext;
    return parsed;
  }
  if (c === 124 || c === 62) {
    const text = blockScalar(src, p, indent);
    cursor = blockNext;
    return text;
  }
  return plain(p, indent, keyed);
}

function sequence(indent: number, depth: number): unknown[] {
  if (depth > MAX_NESTING) decline();
  const s = src;
  const seq: unknown[] = [];
  for (;;) {
    const p = nextContent(cursor);
    // The sequence ends here; a deeper line is left unread, and fastParse declines.
    if (p === -1 || p - lineStart !== indent || s.charCodeAt(p) !== 45 || s.charCodeAt(p + 1) !== 32) break;
    cursor = lineStart;
    let item = p + 2;
    while (s.charCodeAt(item) === 32) item++;
    // A compact mapping: its first entry shares the dash's line, the rest align with it. A nested `- `
    // item is not a plain scalar (plain() declines it); `|` and `>` are block scalars.
    if (keyEnd(s, item) !== -1) seq.push(mapping(item - lineStart, depth + 1, item));
    else seq.push(inline(item, indent, depth, false, false));
  }
  return seq;
}

/** A plain scalar at `p`, folded over following lines indented deeper than `indent`. */
function plain(p: number, indent: number, keyed: boolean): unknown {
  const s = src;
  const eol = find(s, "\n", p);
  // A comment ends the value: a `#` after a space. The search is for `#` alone, a rare character: one
  // for ` #` stops at every space, 0.2–0.3 µs a frontmatter more.
  let end = eol;
  if (hashAt < p) hashAt = find(s, "#", p);
  for (; hashAt < eol; hashAt = find(s, "#", hashAt + 1)) {
    if (hashAt > p && s.charCodeAt(hashAt - 1) === 32) {
      end = hashAt - 1;
      break;
    }
  }
  const comment = end !== eol;
  while (end > p && s.charCodeAt(end - 1) === 32) end--;
  // A value may not start with a reserved or flow indicator: yaml's BAD_SCALAR_START, in any context.
  if (!plainStart(s, p, end)) {
    const c = s.charCodeAt(p);
    throw end > p && (c === 44 || c === 64 || c === 96 || c === 37) ? YAML_ERROR : DECLINE;
  }
  // On a top-level key's line, `: ` is yaml's "nested mappings are not allowed" error for sure.
  if (colonAt < p) colonAt = find(s, ": ", p);
  if (colonAt < end - 1) throw keyed && indent === 0 ? YAML_ERROR : DECLINE;
  if (s.charCodeAt(end - 1) === 58) decline();
  let text = s.slice(p, end);
  let blanks = 0;
  cursor = eol + 1;
  for (let start = eol + 1; start < s.length; ) {
    let at = start;
    while (at < s.length && s.charCodeAt(at) === 32) at++;
    if (at === s.length || s.charCodeAt(at) === 10) {
      blanks++;
      start = at + 1;
      continue;
    }
    if (at - start <= indent) break;
    let last = find(s, "\n", at);
    start = last + 1;
    while (s.charCodeAt(last - 1) === 32) last--;
    const c = s.charCodeAt(at);
    if (comment || c === 35 || c === 58 || c === 45 || c === 63) decline();
    const more = s.slice(at, last);
    if (more.includes(": ") || more.endsWith(":") || more.includes(" #")) decline();
    text += (blanks === 0 ? " " : "\n".repeat(blanks)) + more;
    blanks = 0;
    cursor = start;
  }
  // Folded text holds a space or line break, which no core-schema form does: it stays a string.
  return resolvePlain(text);
}

/** What {@link fastParse} gives. */
export type FastResult = Record<string, unknown> | undefined | typeof YAML_ERROR | SureError;

/** Whether fastParse gave the mapping itself, not a decline or an error. */
export const isValue = (r: FastResult): r is Record<string, unknown> =>
  r !== undefined && r !== YAML_ERROR && !(r instanceof SureError);

/**
 * Parse `text` when it is made only of the simple shapes this scanner knows, giving exactly what the
 * `yaml` package would; `undefined` means "not sure", and the caller falls back to `yaml`.
 * {@link YAML_ERROR} means `yaml` certainly rejects the text in a way the lenient repair is made for: a
 * top-level plain value holding `: ` or starting with a reserved indicator, or a top-level flow
 * collection that never closes (fastreject.ts). A {@link SureError} is yaml's error itself, for a line
 * of prose among the top-level keys, which no repair changes.
 */
export function fastParse(text: string): FastResult {
  let s = text;
  if (!sureText(s)) {
    // CRLF line ends are read as LF; a CR left over was not followed by a LF, a line break yaml reads
    // and the scanner does not.
    if (!s.includes("\r")) return undefined;
    s = s.replaceAll("\r\n", "\n");
    if (!sureText(s)) return undefined;
  }
  src = s;
  cursor = 0;
  hashAt = -1;
  colonAt = -1;
  flowText(s);
  try {
    // No content is yaml's null, not a mapping. Indented content is left unread by mapping(0).
    if (nextContent(0) === -1) return undefined;
    const map = mapping(0, 0, -1);
    const p = nextContent(cursor);
    if (p === -1) return map;
    // A line left unread at the top level, after an entry: prose, perhaps, that yaml rejects for sure.
    // Before any entry, prose is a string document, no error.
    return p === lineStart && cursor > 0 ? strayLine(s, p, map) : undefined;
  } catch (e) {
    if (e === DECLINE) return undefined;
    if (e === YAML_ERROR) return YAML_ERROR;
    throw e;
  } finally {
    src = "";
    flowText("");
  }
}
