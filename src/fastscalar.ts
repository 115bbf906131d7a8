// The fast path's scalars and flow collections, resolved exactly as the `yaml` package does.

/** Thrown (caught by fastParse, never further) to abandon the fast path. */
export const DECLINE: unique symbol = Symbol("decline");

/** Thrown when the text is one `yaml` certainly rejects: a top-level plain value holding `: `. */
export const YAML_ERROR: unique symbol = Symbol("yaml error");

/** Abandon the fast path: what follows is not something it vouches for. */
export function decline(): never {
  throw DECLINE;
}

/** Keys that would not stay plain strings, or would touch a prototype. */
export const SPECIAL_KEYS: ReadonlySet<string> = new Set(
  "true True TRUE false False FALSE null Null NULL __proto__".split(" "),
);
/** Characters that may not start a plain scalar here (YAML indicators, kept conservative). */
const INDICATORS: ReadonlySet<string> = new Set([..."?:,[]{}#&*!|>'\"%@`"]);
/** Deeper nesting declines, so a fast result always stays well within the yaml path's MAX_DEPTH (64). */
export const MAX_NESTING = 32;

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value under the YAML 1.2 core schema, tags tried in the `yaml` package's order. */
export function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most values start with a letter that no core tag can match: skip every test.
  if (!((c >= 48 && c <= 57) || "+-.~tTfFnN".includes(s[0] as string))) return s;
  if (NULL.test(s)) return null;
  if (BOOL.test(s)) return c === 116 || c === 84;
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

/** Whether `text` may be a plain scalar as it stands: not empty, not opening with an indicator. */
export function plainStart(text: string): boolean {
  return text !== "" && !INDICATORS.has(text[0] as string) && text !== "-" && !text.startsWith("- ");
}

const isKeyStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isKeyChar = (c: number) => isKeyStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;

/**
 * Where the colon is when `s` holds, from `p`, a plain key (`[A-Za-z_][A-Za-z0-9_.-]`, at most 128
 * characters) followed by `:` and a space or the end; -1 otherwise.
 */
export function keyEnd(s: string, p: number): number {
  if (!isKeyStart(s.charCodeAt(p))) return -1;
  let q = p + 1;
  // The scan stops at 128 characters: a 129th key character then stands where the colon must be.
  while (q - p < 128 && isKeyChar(s.charCodeAt(q))) q++;
  if (s.charCodeAt(q) !== 58) return -1;
  return q + 1 === s.length || s.charCodeAt(q + 1) === 32 ? q : -1;
}

// Double-quoted escapes: the character after the backslash and what it stands for.
const ESCAPED = '0abtnvfre "/\\N_LP';
const ESCAPES = '\0\x07\b\t\n\v\f\r\x1b "/\\\x85\xa0\u2028\u2029';
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at `s[p]`, closed on the same line: [value, index after the closing quote]. */
export function quoted(s: string, p: number): [string, number] {
  const q = s[p];
  let out = "";
  let start = p + 1;
  for (let j = start; j < s.length; j++) {
    const c = s[j];
    // Only a flow collection's text holds line breaks: a quoted scalar folded over lines is not vouched for.
    if (c === "\n") decline();
    if (c === q) {
      if (q === "'" && s[j + 1] === "'") {
        out += s.slice(start, j + 1);
        start = ++j + 1;
        continue;
      }
      return [out + s.slice(start, j), j + 1];
    }
    if (c !== "\\" || q === "'") continue;
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

/** The index of the first non-space from `p`. */
export function skipSpaces(s: string, p: number): number {
  while (s.charCodeAt(p) === 32) p++;
  return p;
}

/** The index of the first character from `p` that is neither a space nor a line break (flow text). */
function skipBlank(s: string, p: number): number {
  for (let c = s.charCodeAt(p); c === 32 || c === 10; c = s.charCodeAt(p)) p++;
  return p;
}

/**
 * A flow collection or scalar at `s[p]`: [value, index after it]. `s` is one line, or the lines of a
 * flow collection joined by "\n" (their indentation cut), where a line break is white space between
 * tokens; no scalar may run over one (yaml would fold it), and a comment declines.
 */
export function flow(s: string, p: number, depth: number): [unknown, number] {
  if (depth > MAX_NESTING) decline();
  const c = s[p];
  if (c === '"' || c === "'") return quoted(s, p);
  if (c !== "[" && c !== "{") {
    // A `:` or `#` where it stops is declined by the caller, which wants `,` or the closing bracket.
    const [text, end] = flowPlain(s, p);
    return [resolvePlain(text), end];
  }
  const close = c === "[" ? "]" : "}";
  const seq: unknown[] = [];
  const map: Record<string, unknown> = {};
  p = skipBlank(s, p + 1);
  if (s[p] === close) return [c === "[" ? seq : map, p + 1];
  for (;;) {
    let value: unknown;
    if (c === "[") {
      [value, p] = flow(s, p, depth + 1);
      seq.push(value);
    } else {
      let key: string;
      const q = s[p] === '"' || s[p] === "'";
      [key, p] = q ? quoted(s, p) : flowPlain(s, p);
      if ((!q && keyEnd(`${key}:`, 0) === -1) || SPECIAL_KEYS.has(key) || Object.hasOwn(map, key)) decline();
      // A quoted key may touch its colon (JSON style); a plain one needs a space after it.
      if (s[p] !== ":" || (!q && s[p + 1] !== " ")) decline();
      [value, p] = flow(s, skipBlank(s, p + 1), depth + 1);
      map[key] = value;
    }
    p = skipBlank(s, p);
    if (s[p] === close) return [c === "[" ? seq : map, p + 1];
    if (s[p] !== ",") decline();
    p = skipBlank(s, p + 1);
    // One trailing comma is allowed (`[a, b,]`); an empty item (`[a, , b]`) declines in flowPlain.
    if (s[p] === close) return [c === "[" ? seq : map, p + 1];
  }
}

/** The text of a plain scalar inside a flow collection: it stops at a flow indicator, `:` or a line break. */
function flowPlain(s: string, p: number): [string, number] {
  let end = p;
  while (end < s.length && !",[]{}#:\n".includes(s[end] as string)) end++;
  const text = s.slice(p, end).trimEnd();
  // Stopping at `#` or `:` needs no check here: the caller wants `,`, the bracket, or a key's `: `.
  if (!plainStart(text)) decline();
  return [text, end];
}
