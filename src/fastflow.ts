// The fast path's flow collections and quoted scalars, read in place in the frontmatter text.
import { rejects } from "./fastreject.js";
import {
  DECLINE,
  decline,
  find,
  isPlainKey,
  isSpecialKey,
  keyText,
  MAX_NESTING,
  plainStart,
  resolvePlain,
  YAML_ERROR,
} from "./fastscalar.js";

// The reader's state: one text at a time (fastParse is not re-entrant), read in one forward pass, so the
// next line break and backslash it found stay valid until it passes them.
let s = "";
/** Where the token after the last value read starts. */
let pos = 0;
/** A line break may be crossed only onto a non-blank line indented deeper than this; -1: none may. */
let region = -1;
/** Whether the value read so far crossed a line break. */
let crossed = false;
let breakAt = -1;
let backslashAt = -1;

/** The start of the line after the last value {@link flowValue} read. */
export let flowNext = 0;

/** Read `text` from now on ("" to let go of the last one). */
export function flowText(text: string): void {
  s = text;
  breakAt = -1;
  backslashAt = -1;
}

/**
 * The flow collection or quoted scalar at `p`, the value of a key (or the item of a sequence entry) at
 * `indent`. With `lines`, a collection may run on over the lines below that are indented deeper than
 * `indent`, as real manifests write JSON metadata; it must then end its last line. A line break is white
 * space between tokens; no scalar may run over one (yaml would fold it), and a comment within declines.
 * A `top` value (a top-level key's) that declines is {@link YAML_ERROR} when `yaml` certainly rejects it.
 * Sets {@link flowNext}.
 */
export function flowValue(p: number, indent: number, depth: number, lines: boolean, top: boolean): unknown {
  region = lines ? indent : -1;
  crossed = false;
  let value: unknown;
  try {
    value = node(p, depth + 1);
  } catch (e) {
    // A top-level key's value that yaml certainly rejects is the lenient repair's to quote.
    if (top && e === DECLINE && rejects(s, p)) throw YAML_ERROR;
    throw e;
  }
  let q = pos;
  while (q < s.length && s.charCodeAt(q) === 32) q++;
  const c = q < s.length ? s.charCodeAt(q) : 10;
  if (c !== 10) {
    // After a collection over several lines nothing may follow: a comment or more text is left to yaml.
    // On one line a comment may follow; a colon may start an implicit key, which yaml reads; any other
    // text is yaml's error, in any context.
    if (crossed || c === 58) decline();
    if (q === pos || c !== 35) throw YAML_ERROR;
    q = find(s, "\n", q);
  } else if (crossed && q < s.length) {
    // The collection must end the last of its lines: a deeper line after it is left unread, and declines.
    let r = q + 1;
    while (r < s.length && s.charCodeAt(r) === 32) r++;
    if (r - q - 1 > indent && r < s.length && s.charCodeAt(r) !== 10) decline();
  }
  flowNext = q + 1;
  return value;
}

/** The index of the first character from `p` that is neither a space nor a line break that may be crossed. */
function skipBlank(p: number): number {
  for (let c = s.charCodeAt(p); c === 32 || c === 10; c = s.charCodeAt(p)) {
    p++;
    if (c === 32) continue;
    if (region === -1) decline();
    const start = p;
    while (s.charCodeAt(p) === 32) p++;
    // A blank line, or one at the key's indentation or less (yaml's column 0 closing bracket included).
    if (p - start <= region || p === s.length || s.charCodeAt(p) === 10) decline();
    crossed = true;
  }
  return p;
}

/** A flow collection or scalar at `p` (not a space), nested `depth` deep; sets `pos` past it. */
function node(p: number, depth: number): unknown {
  if (depth > MAX_NESTING) decline();
  const c = s.charCodeAt(p);
  if (c === 34 || c === 39) return quoted(p);
  if (c === 91) return sequence(p, depth);
  if (c === 123) return mapping(p, depth);
  // A `:` or `#` where it stops is declined by the caller, which wants `,` or the closing bracket.
  return resolvePlain(s.slice(p, plainEnd(p)));
}

/**
 * The end of a plain scalar at `p` inside a flow collection, trailing spaces cut: it stops at a flow
 * indicator, `:`, `#` or a line break, where `pos` is set.
 */
function plainEnd(p: number): number {
  let q = p;
  for (; q < s.length; q++) {
    const c = s.charCodeAt(q);
    if (c === 44 || c === 58 || c === 93 || c === 125 || c === 91 || c === 123 || c === 35 || c === 10) break;
  }
  pos = q;
  while (q > p && s.charCodeAt(q - 1) === 32) q--;
  if (!plainStart(s, p, q)) decline();
  return q;
}

function sequence(p: number, depth: number): unknown[] {
  const seq: unknown[] = [];
  p = skipBlank(p + 1);
  while (s.charCodeAt(p) !== 93) {
    seq.push(node(p, depth + 1));
    p = skipBlank(pos);
    if (s.charCodeAt(p) === 93) break;
    if (s.charCodeAt(p) !== 44) decline();
    // One trailing comma is allowed (`[a, b,]`); an empty item (`[a, , b]`) declines in plainEnd.
    p = skipBlank(p + 1);
  }
  pos = p + 1;
  return seq;
}

function mapping(p: number, depth: number): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  p = skipBlank(p + 1);
  while (s.charCodeAt(p) !== 125) {
    const c = s.charCodeAt(p);
    const q = c === 34 || c === 39;
    let key: string;
    if (q) key = quoted(p, true);
    else {
      const end = plainEnd(p);
      if (!isPlainKey(s, p, end)) decline();
      key = keyText(s, p, end);
    }
    if (isSpecialKey(key) || Object.hasOwn(map, key)) decline();
    // A quoted key may touch its colon (JSON style); a plain one needs a space after it.
    if (s.charCodeAt(pos) !== 58 || (!q && s.charCodeAt(pos + 1) !== 32)) decline();
    map[key] = node(skipBlank(pos + 1), depth + 1);
    p = skipBlank(pos);
    if (s.charCodeAt(p) === 125) break;
    if (s.charCodeAt(p) !== 44) decline();
    p = skipBlank(p + 1);
  }
  pos = p + 1;
  return map;
}

/**
 * A quoted scalar at `p`, closed on its line; sets `pos` past it. Most hold no escape: one slice, found
 * by native searches (a character loop over them cost 0.2–0.6 µs a corpus frontmatter more).
 */
function quoted(p: number, key = false): string {
  const dq = s.charCodeAt(p) === 34;
  const close = s.indexOf(dq ? '"' : "'", p + 1);
  if (breakAt < p) breakAt = find(s, "\n", p);
  if (close === -1 || close > breakAt) decline();
  if (dq) {
    if (backslashAt < p) backslashAt = find(s, "\\", p);
    if (backslashAt < close) return escaped(p);
  } else if (s.charCodeAt(close + 1) === 39) return escaped(p);
  pos = close + 1;
  return key ? keyText(s, p + 1, close) : s.slice(p + 1, close);
}

// Double-quoted escapes: the character after the backslash and what it stands for.
const ESCAPED = '0abtnvfre "/\\N_LP';
const ESCAPES = '\0\x07\b\t\n\v\f\r\x1b "/\\\x85\xa0\u2028\u2029';
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A quoted scalar at `p` holding an escape or a doubled single quote, closed on its line. */
function escaped(p: number): string {
  const q = s.charCodeAt(p);
  let out = "";
  let start = p + 1;
  for (let j = start; j < s.length; j++) {
    const c = s.charCodeAt(j);
    // A quoted scalar folded over lines is not vouched for.
    if (c === 10) decline();
    if (c === q) {
      if (q === 39 && s.charCodeAt(j + 1) === 39) {
        out += s.slice(start, j + 1);
        start = ++j + 1;
        continue;
      }
      pos = j + 1;
      return out + s.slice(start, j);
    }
    if (c !== 92 || q === 39) continue;
    out += s.slice(start, j);
    // A backslash or escape cut by the end of the text leaves the string unclosed: declined after the
    // loop, whatever is appended here (so `e` may be "", and `hex` short).
    const e = s.charAt(j + 1);
    const digits = HEX_DIGITS[e];
    if (digits !== undefined) {
      const hex = s.slice(j + 2, j + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex)) decline();
      const cp = Number.parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) decline();
      out += String.fromCodePoint(cp);
      j += 1 + digits;
    } else {
      const k = ESCAPED.indexOf(e);
      if (k === -1) decline();
      out += ESCAPES[k];
      j += 1;
    }
    start = j + 1;
  }
  return decline();
}
