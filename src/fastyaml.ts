// A fast path for the common, simple frontmatter shapes; declines (undefined) whatever it is not sure of.
//
// The subset: block mappings with plain keys, block sequences (of scalars, flow collections or
// compact mappings), plain scalars (one line, or folded over more-indented lines), single-line
// quoted scalars, `|`/`|-`/`>`/`>-` block scalars, single-line flow collections, and `#` comments.
// Scalars resolve by the YAML 1.2 core schema exactly as the `yaml` package does. Anything else,
// and anything that package would report as an error (duplicate keys, `: ` inside a plain value),
// declines, so that the caller's `yaml` parse decides and reports.

/** Thrown (never escapes this module) to abandon the fast path. */
const DECLINE: unique symbol = Symbol("decline");
function decline(): never {
  throw DECLINE;
}

/** Text the scanner does not vouch for: control, special space and line-break characters, BOM, lone CR or surrogate, tab. */
const UNSURE_CHARS =
  /[^\n\r\x20-\x7E\u{A1}-\u{167F}\u{1681}-\u{1FFF}\u{200B}-\u{2027}\u{202A}-\u{202E}\u{2030}-\u{205E}\u{2060}-\u{2FFF}\u{3001}-\u{D7FF}\u{E000}-\u{FEFE}\u{FF00}-\u{FFFD}\u{10000}-\u{10FFFF}]|\r(?!\n)/u;
/** A plain key followed by `:` and a space or the end of the line. */
const KEY = /^( *)([A-Za-z_][A-Za-z0-9_.-]{0,127}):(?: +|$)/;
/** Keys that would not stay plain strings, or would touch a prototype. */
const SPECIAL_KEYS = new Set([
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "null",
  "Null",
  "NULL",
  "__proto__",
]);
/** Characters that may not start a plain scalar here (YAML indicators, kept conservative). */
const INDICATORS = new Set([..."?:,[]{}#&*!|>'\"%@`"]);
/** A plain key inside a flow mapping. */
const FLOW_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
/** Deeper nesting declines, so a fast result always stays well within the yaml path's MAX_DEPTH (64). */
const MAX_NESTING = 32;

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value under the core schema, in the `yaml` package's tag order. */
function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most values start with a letter that no core tag can match: skip every test.
  const maybeTagged = (c >= 48 && c <= 57) || "+-.~tTfFnN".includes(s[0] as string);
  if (!maybeTagged) return s;
  if (NULL.test(s)) return null;
  if (BOOL.test(s)) return c === 116 || c === 84;
  if (INT_OCT.test(s)) return Number.parseInt(s.slice(2), 8);
  if (INT.test(s)) return Number.parseInt(s, 10);
  if (INT_HEX.test(s)) return Number.parseInt(s.slice(2), 16);
  if (FLOAT_SPECIAL.test(s)) {
    if (s.endsWith("nan") || s.endsWith("NaN") || s.endsWith("NAN")) return Number.NaN;
    return s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return Number.parseFloat(s);
  return s;
}

const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at `s[p]`, closed on the same line: [value, index after the closing quote]. */
function quoted(s: string, p: number): [string, number] {
  const q = s[p];
  let out = "";
  let start = p + 1;
  for (let j = start; j < s.length; j++) {
    const c = s[j];
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
    const e = s[j + 1] ?? "";
    const digits = HEX_DIGITS[e];
    if (digits !== undefined) {
      const hex = s.slice(j + 2, j + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) decline();
      const cp = Number.parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) decline();
      out += String.fromCodePoint(cp);
      j += 1 + digits;
    } else {
      out += ESCAPES[e] ?? decline();
      j += 1;
    }
    start = j + 1;
  }
  return decline();
}

const skipSpaces = (s: string, p: number) => {
  while (s[p] === " ") p++;
  return p;
};

/** A flow collection or scalar at `s[p]`, all on one line: [value, index after it]. */
function flow(s: string, p: number, depth: number): [unknown, number] {
  if (depth > MAX_NESTING) decline();
  const c = s[p];
  if (c === '"' || c === "'") return quoted(s, p);
  if (c === "[" || c === "{") {
    const close = c === "[" ? "]" : "}";
    const seq: unknown[] = [];
    const map: Record<string, unknown> = {};
    p = skipSpaces(s, p + 1);
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
        if ((!q && !FLOW_KEY.test(key)) || SPECIAL_KEYS.has(key) || Object.hasOwn(map, key)) decline();
        // A quoted key may touch its colon (JSON style); a plain one needs a space after it.
        if (s[p] !== ":" || (!q && s[p + 1] !== " ")) decline();
        [value, p] = flow(s, skipSpaces(s, p + 1), depth + 1);
        map[key] = value;
      }
      p = skipSpaces(s, p);
      if (s[p] === close) return [c === "[" ? seq : map, p + 1];
      if (s[p] !== ",") decline();
      p = skipSpaces(s, p + 1);
      if (s[p] === close) decline();
    }
  }
  const [text, end] = flowPlain(s, p);
  if (s[end] === ":") decline();
  return [resolvePlain(text), end];
}

/** The text of a plain scalar inside a flow collection: it stops at a flow indicator or `:`. */
function flowPlain(s: string, p: number): [string, number] {
  let end = p;
  while (end < s.length && !",[]{}#:".includes(s[end] as string)) end++;
  const text = s.slice(p, end).trimEnd();
  if (s[end] === "#" || !plainStart(text)) decline();
  return [text, end];
}

/** Whether `text` may be a plain scalar as it stands: not empty, not opening with an indicator. */
function plainStart(text: string): boolean {
  return text !== "" && !INDICATORS.has(text[0] as string) && text !== "-" && !text.startsWith("- ");
}

/** The parser over the frontmatter's lines; `i` is the next line to read. */
class Scanner {
  readonly lines: string[];
  i = 0;

  constructor(text: string) {
    this.lines = text.split("\n");
  }

  /** Index of the next line that is neither blank nor a comment, from `from`. */
  next(from: number): number {
    const { lines } = this;
    for (let j = from; j < lines.length; j++) {
      const line = lines[j] as string;
      const p = skipSpaces(line, 0);
      if (p < line.length && line[p] !== "#") return j;
    }
    return lines.length;
  }

  indentAt(j: number): number {
    return j < this.lines.length ? skipSpaces(this.lines[j] as string, 0) : -1;
  }

  /** After a value that ends on its line: the next content must not be indented deeper than `indent`. */
  endOfValue(rest: string, indent: number): void {
    const p = skipSpaces(rest, 0);
    if (p < rest.length && (rest[p] !== "#" || p === 0)) decline();
    this.i++;
    if (this.indentAt(this.next(this.i)) > indent) decline();
  }

  mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_NESTING) decline();
    const map: Record<string, unknown> = {};
    for (let j = this.next(this.i); j < this.lines.length; j = this.next(this.i)) {
      const line = this.lines[j] as string;
      const m = KEY.exec(line);
      if (m === null || (m[1] as string).length !== indent) {
        if (skipSpaces(line, 0) < indent) break;
        decline();
      }
      const key = m[2] as string;
      if (SPECIAL_KEYS.has(key) || Object.hasOwn(map, key)) decline();
      this.i = j;
      map[key] = this.value(line.slice(m[0].length), indent, depth);
    }
    return map;
  }

  /** The value of a mapping entry whose key sits at `indent`; `rest` is what follows `key: `. */
  value(rest: string, indent: number, depth: number): unknown {
    const c = rest[0];
    if (c === undefined || c === "#") {
      const j = this.next(this.i + 1);
      const at = this.indentAt(j);
      const line = this.lines[j] ?? "";
      this.i = j;
      if (at === indent && line.startsWith("- ", at)) return this.sequence(at, depth + 1);
      if (at <= indent) return null;
      if (line.startsWith("- ", at)) return this.sequence(at, depth + 1);
      if (KEY.test(line)) return this.mapping(at, depth + 1);
      if (line[at] === "|" || line[at] === ">") decline();
      return this.inline(line.slice(at), indent, depth);
    }
    return this.inline(rest, indent, depth);
  }

  /** A value that starts on the current line after an indicator or key: quoted, flow, block or plain. */
  inline(rest: string, indent: number, depth: number): unknown {
    const c = rest[0] as string;
    if (c === '"' || c === "'" || c === "[" || c === "{") {
      const [value, end] = flow(rest, 0, depth + 1);
      this.endOfValue(rest.slice(end), indent);
      return value;
    }
    if (c === "|" || c === ">") return this.block(rest, indent);
    return this.plain(rest, indent);
  }

  sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_NESTING) decline();
    const seq: unknown[] = [];
    for (let j = this.next(this.i); j < this.lines.length; j = this.next(this.i)) {
      const line = this.lines[j] as string;
      const at = skipSpaces(line, 0);
      if (at < indent || (at === indent && !line.startsWith("- ", at))) break;
      if (at > indent) decline();
      this.i = j;
      const col = skipSpaces(line, at + 1);
      const item = line.slice(col);
      if (item.startsWith("-") || item.startsWith("|") || item.startsWith(">")) decline();
      if (KEY.test(item)) {
        // A compact mapping: its first entry shares the dash's line, the rest align with it.
        this.lines[j] = " ".repeat(col) + item;
        seq.push(this.mapping(col, depth + 1));
      } else {
        seq.push(this.inline(item, indent, depth));
      }
    }
    return seq;
  }

  /** A plain scalar starting with `first`, folded over following lines indented deeper than `indent`. */
  plain(first: string, indent: number): unknown {
    let text = first;
    const comment = text.indexOf(" #");
    if (comment !== -1) text = text.slice(0, comment);
    text = text.trimEnd();
    if (!plainStart(text) || text.includes(": ") || text.endsWith(":")) decline();
    let blanks = 0;
    let j = this.i + 1;
    let folded = false;
    for (; j < this.lines.length; j++) {
      const line = this.lines[j] as string;
      const at = skipSpaces(line, 0);
      if (at === line.length) {
        blanks++;
        continue;
      }
      if (at <= indent) break;
      const more = line.slice(at).trimEnd();
      if (comment !== -1 || "#:-?".includes(more[0] as string)) decline();
      if (more.includes(": ") || more.endsWith(":") || more.includes(" #")) decline();
      text += (blanks === 0 ? " " : "\n".repeat(blanks)) + more;
      blanks = 0;
      folded = true;
      this.i = j;
    }
    this.i++;
    return folded ? text : resolvePlain(text);
  }

  /** A `|`, `|-`, `>` or `>-` block scalar whose header is `header`, under a key at `indent`. */
  block(header: string, indent: number): string {
    if (!/^[|>]-? *$/.test(header)) decline();
    const literal = header[0] === "|";
    const start = this.i + 1;
    const body = this.indentAt(start);
    if (body <= indent || body === (this.lines[start] as string).length) decline();
    const kept: string[] = [];
    let j = start;
    for (; j < this.lines.length; j++) {
      const line = this.lines[j] as string;
      const at = skipSpaces(line, 0);
      if (at === line.length) {
        if (at > body) decline();
        kept.push("");
      } else if (at >= body) {
        if (!literal && at > body) decline();
        kept.push(line.slice(body));
      } else break;
    }
    while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
    this.i = j;
    let text = "";
    if (literal) text = kept.join("\n");
    else {
      let blanks = -1;
      for (const line of kept) {
        if (line === "") blanks++;
        else {
          text += blanks === -1 ? line : blanks === 0 ? ` ${line}` : "\n".repeat(blanks) + line;
          blanks = 0;
        }
      }
    }
    return header[1] === "-" ? text : `${text}\n`;
  }
}

/**
 * Parse `text` when it is made only of the simple shapes this scanner knows, giving exactly what the
 * `yaml` package would; `undefined` means "not sure", and the caller falls back to `yaml`.
 */
export function fastParse(text: string): Record<string, unknown> | undefined {
  if (UNSURE_CHARS.test(text)) return undefined;
  const scanner = new Scanner(text.includes("\r") ? text.replaceAll("\r\n", "\n") : text);
  try {
    const first = scanner.next(0);
    if (first === scanner.lines.length || scanner.indentAt(first) !== 0) return undefined;
    const map = scanner.mapping(0, 0);
    return scanner.next(scanner.i) === scanner.lines.length ? map : undefined;
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  }
}
