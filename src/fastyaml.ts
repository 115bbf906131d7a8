// A fast path for the common, simple frontmatter shapes; declines (undefined) whatever it is not sure of.
//
// The subset: block mappings with plain keys, block sequences (of scalars, flow collections or
// compact mappings), plain scalars (one line, or folded over more-indented lines), single-line
// quoted scalars, `|`/`|-`/`>`/`>-` block scalars (after a key or a dash, or alone on the line below a
// key), single-line flow collections, and `#` comments.
// Scalars resolve by the YAML 1.2 core schema exactly as the `yaml` package does. Anything else,
// and anything that package would report as an error (duplicate keys, `: ` inside a plain value),
// declines, so that the caller's `yaml` parse decides and reports.

import {
  DECLINE,
  decline,
  flow,
  keyEnd,
  MAX_NESTING,
  plainStart,
  resolvePlain,
  SPECIAL_KEYS,
  skipSpaces,
  YAML_ERROR,
} from "./fastscalar.js";

export { YAML_ERROR } from "./fastscalar.js";

/** Text the scanner does not vouch for: control, special space and line-break characters, BOM, lone CR or surrogate, tab. */
const UNSURE_CHARS =
  /[^\n\r\x20-\x7E\u{A1}-\u{167F}\u{1681}-\u{1FFF}\u{200B}-\u{2027}\u{202A}-\u{202E}\u{2030}-\u{205E}\u{2060}-\u{2FFF}\u{3001}-\u{D7FF}\u{E000}-\u{FEFE}\u{FF00}-\u{FFFD}\u{10000}-\u{10FFFF}]|\r(?!\n)/u;

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

  /**
   * After a flow or quoted value: only a comment may follow it on its line. A deeper line after it is
   * left unread, which declines the whole text (every structure stops at a line it cannot read).
   */
  endOfValue(rest: string): void {
    const p = skipSpaces(rest, 0);
    if (p < rest.length && (p === 0 || rest[p] !== "#")) {
      // A colon may start an implicit key, which yaml reads; any other text is yaml's error, in any context.
      if (rest[p] === ":") decline();
      throw YAML_ERROR;
    }
    this.i++;
  }

  mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_NESTING) decline();
    const map: Record<string, unknown> = {};
    for (let j = this.next(this.i); j < this.lines.length; j = this.next(this.i)) {
      const line = this.lines[j] as string;
      const at = skipSpaces(line, 0);
      const colon = at === indent ? keyEnd(line, at) : -1;
      // The mapping ends here; a line that belongs to nothing is left unread, and fastParse declines.
      if (colon === -1) break;
      const key = line.slice(at, colon);
      if (Object.hasOwn(map, key) || ("tTfFnN_".includes(key[0] as string) && SPECIAL_KEYS.has(key)))
        decline();
      this.i = j;
      map[key] = this.value(line.slice(skipSpaces(line, colon + 1)), indent, depth);
    }
    return map;
  }

  /** The value of a mapping entry whose key sits at `indent`; `rest` is what follows `key: `. */
  value(rest: string, indent: number, depth: number): unknown {
    const c = rest[0];
    if (c === undefined || c === "#") {
      const j = this.next(this.i + 1);
      // -1 past the end: the value is null.
      const at = this.indentAt(j);
      this.i = j;
      // A sequence may sit at its key's own indentation.
      if (at >= indent && (this.lines[j] as string).startsWith("- ", at)) return this.sequence(at, depth + 1);
      if (at <= indent) return null;
      const line = this.lines[j] as string;
      if (keyEnd(line, at) !== -1) return this.mapping(at, depth + 1);
      return this.inline(line.slice(at), indent, depth);
    }
    return this.inline(rest, indent, depth, true);
  }

  /**
   * A value that starts on the current line after an indicator or key: quoted, flow, block or plain.
   * A mapping's flow collection may run on over the lines below (`lines`), not a sequence item's.
   */
  inline(rest: string, indent: number, depth: number, keyed = false, lines = true): unknown {
    const c = rest[0] as string;
    if (c === '"' || c === "'" || c === "[" || c === "{") {
      let parsed: [unknown, number];
      try {
        parsed = flow(rest, 0, depth + 1);
      } catch (e) {
        // Not closed on its line (or not simple): the lines below may hold the rest of the collection.
        if (e !== DECLINE || !lines) throw e;
        return this.flowLines(rest, indent, depth);
      }
      this.endOfValue(rest.slice(parsed[1]));
      return parsed[0];
    }
    if (c === "|" || c === ">") return this.block(rest, indent);
    return this.plain(rest, indent, keyed);
  }

  /**
   * A flow collection that starts with `rest` and runs on over the following lines indented deeper
   * than `indent` (its key's), as real manifests write JSON metadata. Those lines are joined by "\n"
   * for {@link flow}; the collection must end the last of them. A blank or comment line, a line at
   * `indent` or less before the collection closes (yaml's column 0 closing bracket included), or a
   * scalar or comment within declines.
   */
  flowLines(rest: string, indent: number, depth: number): unknown {
    const { lines } = this;
    let text = rest;
    let j = this.i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as string;
      const at = skipSpaces(line, 0);
      if (at <= indent || at === line.length) break;
      text += `\n${line.slice(at)}`;
    }
    const [value, end] = flow(text, 0, depth + 1);
    // Nothing may follow the closing bracket but spaces: a comment or more text is left to yaml.
    if (skipSpaces(text, end) !== text.length) decline();
    this.i = j;
    return value;
  }

  sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_NESTING) decline();
    const seq: unknown[] = [];
    for (let j = this.next(this.i); j < this.lines.length; j = this.next(this.i)) {
      const line = this.lines[j] as string;
      const at = skipSpaces(line, 0);
      // The sequence ends here; a deeper line is left unread, and fastParse declines.
      if (at !== indent || !line.startsWith("- ", at)) break;
      this.i = j;
      const col = skipSpaces(line, at + 1);
      const item = line.slice(col);
      // A nested `- ` item is not a plain scalar (plain() declines it); `|` and `>` are block scalars.
      if (keyEnd(item, 0) !== -1) {
        // A compact mapping: its first entry shares the dash's line, the rest align with it.
        this.lines[j] = " ".repeat(col) + item;
        seq.push(this.mapping(col, depth + 1));
      } else {
        seq.push(this.inline(item, indent, depth, false, false));
      }
    }
    return seq;
  }

  /** A plain scalar starting with `first`, folded over following lines indented deeper than `indent`. */
  plain(first: string, indent: number, keyed: boolean): unknown {
    let text = first;
    const comment = text.indexOf(" #");
    if (comment !== -1) text = text.slice(0, comment);
    text = text.trimEnd();
    // A value may not start with a reserved or flow indicator: yaml's BAD_SCALAR_START, in any context.
    if (!plainStart(text)) throw ",@`%".includes(text[0] as string) ? YAML_ERROR : DECLINE;
    // On a top-level key's line, `: ` is yaml's "nested mappings are not allowed" error for sure.
    if (text.includes(": ")) throw keyed && indent === 0 ? YAML_ERROR : DECLINE;
    if (text.endsWith(":")) decline();
    let blanks = 0;
    let j = this.i + 1;
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
      this.i = j;
    }
    this.i++;
    // Folded text holds a space or line break, which no core-schema form does: it stays a string.
    return resolvePlain(text);
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
    while (kept.at(-1) === "") kept.pop();
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
 * {@link YAML_ERROR} means `yaml` rejects the text for a top-level plain value holding `: ` — the
 * case the lenient repair is for.
 */
export function fastParse(text: string): Record<string, unknown> | undefined | typeof YAML_ERROR {
  if (UNSURE_CHARS.test(text)) return undefined;
  const scanner = new Scanner(text.replaceAll("\r\n", "\n"));
  try {
    // No content is yaml's null, not a mapping. Indented content is left unread by mapping(0).
    if (scanner.next(0) === scanner.lines.length) return undefined;
    const map = scanner.mapping(0, 0);
    return scanner.next(scanner.i) === scanner.lines.length ? map : undefined;
  } catch (e) {
    if (e === DECLINE) return undefined;
    if (e === YAML_ERROR) return YAML_ERROR;
    throw e;
  }
}
