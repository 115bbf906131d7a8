// Frontmatter text → a plain mapping, with located YAML errors and the lenient line-oriented repair.

import { lineOf } from "./fastscalar.js";
import { type FastResult, fastParse, isValue, SureError, YAML_ERROR } from "./fastyaml.js";
import yaml from "./loadyaml.cjs";

/**
 * The parsed frontmatter, or a reason, located or not. `line`/`column` are 1-based within the
 * frontmatter text, and come together.
 */
export type ParsedFrontmatter =
  | { readonly ok: true; readonly data: Record<string, unknown>; readonly repaired: boolean }
  | { readonly ok: false; readonly message: string; readonly line?: undefined; readonly column?: undefined }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number };

/** Deeper frontmatter than this is refused: real manifests nest two or three levels. */
export const MAX_DEPTH = 64;

/**
 * Longer frontmatter (in UTF-16 code units) is refused. Real manifests stay under 2 KiB (the corpus's
 * longest is 1.4 KiB). The fast path is linear: 16 KiB of keys takes it about 1 ms, so this keeps any
 * manifest it reads well under the 50 ms budget (the line-array parser before it took ~30 ms on 64 KiB).
 */
export const MAX_FRONTMATTER_LENGTH = 16 * 1024;

/**
 * Frontmatter longer than this (in UTF-16 code units) is refused when it needs the full `yaml` parser
 * (the fast path declined it). `yaml` takes 2–5 µs a character on this kind of text, more on crafted
 * input, so this keeps one manifest's parse to a few milliseconds (the README's budget: 50 ms a
 * manifest, 20 ms of event loop). The longest frontmatter of the 2,360 corpus skills is 1.4 KiB.
 */
export const MAX_YAML_LENGTH = 4 * 1024;

/**
 * More YAML aliases than this in one frontmatter are refused before `yaml` composes it. No real
 * manifest uses aliases (none of the 2,360 corpus skills has one), and `yaml` walks the whole document
 * once per alias (in composing and in toJS), so their cost grows with aliases × text: 16,000 aliases
 * in 64 KiB took 16–25 s. Counted by `yaml`'s own lexer, linear in the text.
 */
export const MAX_ALIASES = 32;

/**
 * The most a frontmatter may weigh once its aliases are expanded: one per node plus the length of
 * each string. Four times the full parser's text limit: aliases can repeat a little but never
 * multiply the metadata (a DAG of aliases otherwise expands ~100× into every catalog and JSON output).
 */
export const MAX_EXPANDED_WEIGHT = 16 * 1024;

/** How many alias tokens the text holds; `yaml`'s lexer tells an alias from a `*` inside a scalar. */
function aliasCount(text: string): number {
  if (!text.includes("*")) return 0;
  let n = 0;
  for (const token of new (yaml().Lexer)().lex(text)) if (token.charCodeAt(0) === 0x2a) n++;
  return n;
}

/**
 * Whether `text` holds at most `limit` `*` characters. Every alias token starts with one, so such a text
 * is never refused for its aliases: the prose of a Markdown page with some bold words left above the
 * closing fence (the corpus's molthunt: 28) keeps the fast path's known error, without `yaml`.
 */
function starsAtMost(text: string, limit: number): boolean {
  let left = limit;
  for (let at = text.indexOf("*"); at !== -1; at = text.indexOf("*", at + 1)) if (--left < 0) return false;
  return true;
}

/** A document as the `yaml` package parses it. */
type YamlDocument = ReturnType<ReturnType<typeof yaml>["parseDocument"]>;

/** Where a parsed node starts: `yaml` sets the range of every node it composes (only built ones lack it). */
const start = (node: { range?: [number, number, number] | null | undefined }): number =>
  (node.range as [number, number, number])[0];

/** Whether the composed document, aliases expanded, weighs more than `limit`; a cycle of aliases does. */
function expansionExceeds(doc: YamlDocument, limit: number): boolean {
  const y = yaml();
  const memo = new Map<unknown, number>();
  // Alias.resolve walks the whole document each time (42 % of a parse at the limits); with every anchor
  // name defined once, one walk finds them all. A name defined twice leaves its aliases to resolve().
  const anchors = new Map<string, unknown>();
  const twice = new Set<string>();
  y.visit(doc, {
    Node(_, node) {
      const name = y.isAlias(node) ? undefined : node.anchor;
      if (name === undefined) return;
      if (anchors.has(name)) twice.add(name);
      anchors.set(name, node);
    },
  });
  const weigh = (node: unknown): number => {
    if (y.isAlias(node)) {
      const source = twice.has(node.source) ? node.resolve(doc) : anchors.get(node.source);
      if (memo.get(source) === -1) return Number.POSITIVE_INFINITY;
      // Every alias has its anchor here: unresolved ones were refused before this runs.
      return weigh(source);
    }
    const known = memo.get(node);
    if (known !== undefined && known >= 0) return known;
    let w = 1;
    if (y.isScalar(node)) {
      if (typeof node.value === "string") w += node.value.length;
    } else if (y.isCollection(node)) {
      memo.set(node, -1);
      for (const item of node.items) {
        w += y.isPair(item) ? weigh(item.key) + weigh(item.value) : weigh(item);
        if (w > limit) break;
      }
    }
    memo.set(node, w);
    return w;
  };
  return weigh(doc.contents) > limit;
}

function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Too deep is one verdict, without a position, whoever finds it: the parser running out of stack
 * (which depends on how deep the caller's stack already is), the parsed tree, or the value once
 * aliases are expanded. So the same text gets the same outcome from every caller, and no repair.
 */
const TOO_DEEP: ParsedFrontmatter = {
  ok: false,
  message: `frontmatter nests deeper than ${MAX_DEPTH} levels`,
};

/**
 * Whether the parsed tree nests collections deeper than `limit`, keys included (they nest in the parser
 * too), counting only collections that start before offset `before`.
 */
function treeExceeds(root: unknown, limit: number, before = Number.POSITIVE_INFINITY): boolean {
  const y = yaml();
  const stack: [unknown, number][] = [[root, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (!y.isCollection(node) || start(node) >= before) continue;
    if (depth > limit) return true;
    for (const child of node.items) {
      if (y.isPair(child)) stack.push([child.key, depth + 1], [child.value, depth + 1]);
      else stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The 1-based line and column of offset `at` in `text`, as `yaml` counts them (a line ends at "\n"). */
function lineColumn(text: string, at: number): { line: number; column: number } {
  return { line: lineOf(text, at), column: at - text.lastIndexOf("\n", at - 1) };
}

/** The first alias (in document order) whose anchor is not set before it: `toJS` would throw for it. */
function unresolvedAlias(doc: YamlDocument): { source: string; at: number } | undefined {
  const y = yaml();
  const anchors = new Set<string | undefined>();
  let found: { source: string; at: number } | undefined;
  y.visit(doc, {
    Node(_, node) {
      // An alias's source is a name, never undefined.
      if (!y.isAlias(node)) anchors.add(node.anchor);
      else if (!anchors.has(node.source)) {
        found = { source: node.source, at: start(node) };
        return y.visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function parseYaml(text: string): ParsedFrontmatter {
  const aliases = aliasCount(text);
  if (aliases > MAX_ALIASES) {
    return {
      ok: false,
      message: `frontmatter uses ${aliases} YAML aliases, over the limit of ${MAX_ALIASES}`,
    };
  }
  let data: unknown;
  try {
    // resolveKnownTags off: `!!set`, `!!omap`, `!!timestamp`, `!!binary` would give a Set, a Map, a Date
    // or bytes; metadata is JSON data, so such a value stays the plain string, list or mapping written.
    const doc = yaml().parseDocument(text, {
      uniqueKeys: true,
      // Not pretty: yaml would build a message with context for every error (one a token in `a: }}}…`,
      // 85 ms at the length limit against 30), and only the first is reported, located below.
      prettyErrors: false,
      logLevel: "error",
      resolveKnownTags: false,
    });
    // The earliest problem in the text decides. The yaml package reports a stack overflow while building
    // nested collections as RESOURCE_EXHAUSTION, after the errors met before it; and nesting counts only
    // up to the first error, as yaml's recovery after one nests lines the text does not (33 flat lines
    // of `k: a: b` became 68 levels). So an error before deep nesting wins whatever the caller's stack.
    // A stack overflow that yaml reports under another code (resolving a scalar's tag) is too deep too.
    let err: (typeof doc.errors)[number] | undefined;
    for (const e of doc.errors) if (err === undefined || e.pos[0] < err.pos[0]) err = e;
    if (
      err?.code === "RESOURCE_EXHAUSTION" ||
      err?.message.includes("Maximum call stack") ||
      treeExceeds(doc.contents, MAX_DEPTH, err?.pos[0])
    ) {
      return TOO_DEEP;
    }
    if (err !== undefined) {
      const message = `invalid YAML: ${err.message.split("\n")[0]}`;
      return { ok: false, message, ...lineColumn(text, err.pos[0]) };
    }
    const unresolved = unresolvedAlias(doc);
    if (unresolved !== undefined) {
      const message = `invalid YAML: Unresolved alias (the anchor must be set before the alias): ${unresolved.source}`;
      return { ok: false, message, ...lineColumn(text, unresolved.at) };
    }
    if (aliases > 0 && expansionExceeds(doc, MAX_EXPANDED_WEIGHT)) {
      return {
        ok: false,
        message: `frontmatter aliases expand to more than ${MAX_EXPANDED_WEIGHT} characters and nodes, or refer to themselves`,
      };
    }
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // toJS throws for alias bombs (ReferenceError), and overflows its stack on aliases nested in aliases;
    // `yaml` throws nothing but errors.
    if (e instanceof RangeError) return TOO_DEEP;
    return { ok: false, message: `invalid YAML: ${(e as Error).message}` };
  }
  return checkMapping(data, false);
}

function checkMapping(data: unknown, repaired: boolean): ParsedFrontmatter {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    // toJS gives null for an empty document, never undefined.
    const what = data === null ? "empty" : Array.isArray(data) ? "a list" : `a ${typeof data}`;
    return { ok: false, message: `frontmatter is ${what}, not a mapping of keys to values` };
  }
  if (depthExceeds(data, MAX_DEPTH)) return TOO_DEEP;
  return { ok: true, data: data as Record<string, unknown>, repaired };
}

// The value runs to the end of the line; its trailing blanks are cut by `trimBlanks`, not by the
// pattern: a lazy value followed by `[ \t]*$` backtracks quadratically on a long run of blanks.
const TOP_LEVEL_PLAIN = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)([ \t]*:[ \t]+)(.*)$/;
const NEEDS_QUOTES = /: |^[`@[{,%]/;

function trimBlanks(s: string): string {
  let end = s.length;
  // At 0, s[-1] is undefined and stops the loop.
  while (s[end - 1] === " " || s[end - 1] === "\t") end--;
  return s.slice(0, end);
}

/**
 * Quote the top-level plain values that real manifests write as prose (`description: Use when: x`).
 * Block scalars and quoted values are left alone; a value's indented continuation lines move inside
 * its quotes. `undefined` when no line needed it.
 */
export function repairYaml(text: string): string | undefined {
  return repairLines(text)?.text;
}

/** Where {@link repairYaml} put a quote: the 1-based line of `text` and the column where the value starts. */
export interface QuotedValue {
  readonly line: number;
  readonly column: number;
}

/** {@link repairYaml}'s text, with where each value it quoted starts; `undefined` when no line needed it. */
export function repairLines(text: string): { text: string; quoted: QuotedValue[] } | undefined {
  const lines = text.split("\n");
  const quoted: QuotedValue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = TOP_LEVEL_PLAIN.exec((lines[i] as string).replace(/\r$/, ""));
    if (m === null) continue;
    const written = trimBlanks(m[3] as string);
    // A comment (`#` after a blank) ends a plain value, as in YAML: it stays a comment, after the
    // quotes, and no continuation line follows it.
    const hash = written.search(/[ \t]#/);
    const value = hash === -1 ? written : trimBlanks(written.slice(0, hash));
    const comment = hash === -1 ? "" : written.slice(hash);
    // An empty value never matches NEEDS_QUOTES.
    if (/^["'|>]/.test(value) || !NEEDS_QUOTES.test(value)) continue;
    let last = i;
    // Past the last line, `?? ""` fails the test and stops the loop.
    if (hash === -1) while (/^[ \t]+\S/.test(lines[last + 1] ?? "")) last++;
    const cr = (lines[last] as string).endsWith("\r") ? "\r" : "";
    const quoteSafe = (s: string) => s.replace(/\r$/, "").replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    for (let j = i + 1; j <= last; j++) lines[j] = quoteSafe(lines[j] as string);
    lines[i] = `${m[1]}${m[2]}"${quoteSafe(value)}`;
    lines[last] = `${lines[last]}"${comment}${cr}`;
    if (last !== i) lines[i] += cr;
    quoted.push({ line: i + 1, column: (m[1] as string).length + (m[2] as string).length + 1 });
    i = last;
  }
  return quoted.length > 0 ? { text: lines.join("\n"), quoted } : undefined;
}

/** {@link repairYaml}'s text for a frontmatter (undefined: nothing to quote), and the fast path's verdict on it. */
interface Repair {
  readonly text: string | undefined;
  readonly fast: FastResult;
}

function repairOf(text: string): Repair {
  const fixed = repairYaml(text);
  return { text: fixed, fast: fixed === undefined ? undefined : fastParse(fixed) };
}

/**
 * Parse frontmatter text of at most {@link MAX_FRONTMATTER_LENGTH}. With `repair`, a YAML error is
 * retried once on {@link repairYaml}'s output; if that parses, the result says `repaired`, otherwise
 * the original error stands.
 */
export function parseFrontmatter(text: string, repair: boolean): ParsedFrontmatter {
  if (text.length > MAX_FRONTMATTER_LENGTH) {
    return {
      ok: false,
      message: `frontmatter is ${text.length} characters long, over the limit of ${MAX_FRONTMATTER_LENGTH}`,
    };
  }
  const fast = fastParse(text);
  // The fast path gives only mappings, nested far less than MAX_DEPTH: nothing left to check.
  if (isValue(fast)) return { ok: true, data: fast, repaired: false };
  // The lenient repair's text and the fast path's verdict on it: made when first needed (yaml certainly
  // fails, or it failed), at most once, and never for a text yaml reads.
  let fix: Repair | undefined;
  const repaired = (): Repair => {
    fix ??= repairOf(text);
    return fix;
  };
  if (repair && fast === YAML_ERROR) {
    // yaml would fail and the repair would run: when its output is simple, no yaml parse is needed.
    const again = repaired().fast;
    if (isValue(again)) return { ok: true, data: again, repaired: true };
  }
  if (text.length > MAX_YAML_LENGTH) {
    return {
      ok: false,
      message: `frontmatter is ${text.length} characters long and needs the full YAML parser, which reads at most ${MAX_YAML_LENGTH}; keep it to plain keys and values`,
    };
  }
  // yaml's error, when the fast path knows it; aliases, though, may be counted over their limit first,
  // which only a text holding more `*` than the limit can reach.
  const first: ParsedFrontmatter =
    fast instanceof SureError && starsAtMost(text, MAX_ALIASES)
      ? { ok: false, message: `invalid YAML: ${fast.message}`, line: fast.line, column: 1 }
      : parseYaml(text);
  if (first.ok || first.line === undefined || !repair) return first;
  const { text: fixed, fast: again } = repaired();
  if (fixed === undefined) return first;
  if (isValue(again)) return { ok: true, data: again, repaired: true };
  // The fast path's verdict on the repaired text stands for yaml's: a failure for sure.
  if (again !== undefined) return first;
  const second = parseYaml(fixed);
  return second.ok ? { ...second, repaired: true } : first;
}
