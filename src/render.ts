// SkillInfo[] → the catalog text an agent puts in its prompt (xml, markdown or json), within a character budget.
import { SkillError } from "./errors.js";
import { cleanText, SHAPES, type Shape, unshowablePath } from "./escape.js";
import { checkSkills, relevanceOrder } from "./search.js";
import type { CatalogFormat, SkillInfo } from "./types.js";

export type { CatalogFormat } from "./types.js";

/** Options of {@link renderCatalog}. */
export interface RenderCatalogOptions {
  /**
   * `xml`: an `<available_skills>` element with one `<skill>` (`<name>`, `<description>`, `<location>`)
   * per skill; `markdown`: one `- name: description (location)` line per skill; `json`: an array of
   * `{ name, description, location }` objects, one per line.
   * @default "xml"
   */
  format?: CatalogFormat;
  /**
   * The most characters (UTF-16 code units, as `text.length` counts them) the text may take, a
   * non-negative integer. Descriptions are shortened first, but never below their first
   * {@link MIN_DESCRIPTION} characters; when the skills still do not fit, the least important are
   * left out. @default no limit
   */
  budget?: number;
  /** Keeps only the skills for which it returns `true`, before any budgeting. @default every skill */
  filter?: (skill: SkillInfo) => boolean;
  /**
   * The request at hand: when the budget cannot hold every skill, those least relevant to it (see
   * `searchSkills`) are left out first, after the user-scope rule. The order of the text is unchanged.
   * @default no query: the order of the list decides
   */
  query?: string;
}

/** The text of a rendered catalog. Frozen. */
export interface RenderedCatalog {
  /** The catalog, without a trailing newline; `""` when no skill is left to show. */
  readonly text: string;
  /**
   * How many skills (of those the filter kept) were left out: those that did not fit the budget even
   * with shortened descriptions, those whose location holds a control character (a path is never
   * rewritten, and a cleaned path would name another file), and those whose name cleaning would change
   * (a control character, a lone surrogate, white space other than single spaces between words, a
   * no-break space or U+FEFF included: the model would call the skill by a name that is not its own).
   */
  readonly omitted: number;
}

const ELLIPSIS = "…";

/**
 * A description is never shortened below this many characters (code points) of its text: the model
 * chooses skills by their descriptions, and a few letters tell it less than leaving the skill out.
 */
export const MIN_DESCRIPTION = 60;

interface Entry {
  readonly index: number;
  readonly user: boolean;
  readonly name: string;
  readonly location: string;
  /**
   * The cleaned, unescaped description as code points (as one unit, the whole text, without a budget);
   * `cut[k]` is the escaped length of the first `k`.
   */
  readonly points: readonly string[];
  readonly cut: readonly number[];
  /** Entry lengths with an empty description, and with a description less its own length. */
  readonly bare: number;
  readonly framed: number;
}

function toEntry(
  skill: SkillInfo,
  index: number,
  shape: Shape,
  costs: Map<string, number>,
  budgeted: boolean,
): Entry {
  // Only names that cleaning leaves as they are get here (see renderCatalog).
  const name = shape.name(skill.name);
  const location = shape.location(skill.path);
  const description = cleanText(skill.description);
  // Without a budget no cut is ever sought, so the description is one unit: the per-character arrays
  // took about 20 times the text (`catalog` of 2,000 descriptions of 15 KB: 758 MB, `list`: 178 MB).
  const points = budgeted ? Array.from(description) : [description];
  const cut = [0];
  let total = 0;
  for (const p of points) {
    const cost = costs.get(p) ?? shape.text(p).length;
    costs.set(p, cost);
    total += cost;
    cut.push(total);
  }
  return {
    index,
    user: skill.scope === "user",
    name,
    location,
    points,
    cut,
    bare: shape.entry(name, "", location).length,
    framed: shape.entry(name, ELLIPSIS, location).length - ELLIPSIS.length,
  };
}

/** `e.cut[k]`, for a `k` from 0 to the description's length in code points, where it is always set. */
const cutAt = (e: Entry, k: number): number => e.cut[k] as number;

/** How many code points of the description stay within `cap` escaped characters, and whether `…` follows. */
function shorten(e: Entry, cap: number): { keep: number; ellipsis: boolean } {
  const whole = e.points.length;
  if (cutAt(e, whole) <= cap) return { keep: whole, ellipsis: false };
  if (whole <= MIN_DESCRIPTION) return { keep: whole, ellipsis: false };
  const floor = trimmed(e, MIN_DESCRIPTION);
  // A cut that saves nothing (a 61-character description) would only lose text.
  if (cutAt(e, whole) <= cutAt(e, floor.keep) + ELLIPSIS.length) return { keep: whole, ellipsis: false };
  if (cutAt(e, MIN_DESCRIPTION) > cap - ELLIPSIS.length) return floor;
  let low = MIN_DESCRIPTION; // the largest k with cut[k] <= cap - 1, by bisection
  let high = whole;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cutAt(e, mid) <= cap - ELLIPSIS.length) low = mid;
    else high = mid - 1;
  }
  return trimmed(e, low);
}

/** The first `keep` code points and `…`; white space was folded to single spaces, so at most one trails the cut. */
function trimmed(e: Entry, keep: number): { keep: number; ellipsis: boolean } {
  return { keep: e.points[keep - 1] === " " ? keep - 1 : keep, ellipsis: true };
}

function entryLength(e: Entry, cap: number): number {
  const { keep, ellipsis } = shorten(e, cap);
  const length = cutAt(e, keep) + (ellipsis ? ELLIPSIS.length : 0);
  return length === 0 ? e.bare : e.framed + length;
}

/** Each entry's length at cap 0: its description at the floor. What `keepNames` must fit. */
const floorLength = (e: Entry): number => entryLength(e, 0);

function render(shape: Shape, entries: readonly Entry[], cap: number): string {
  if (entries.length === 0) return "";
  const texts = entries.map((e) => {
    const { keep, ellipsis } = shorten(e, cap);
    const description = shape.text(e.points.slice(0, keep).join("")) + (ellipsis ? ELLIPSIS : "");
    return shape.entry(e.name, description, e.location);
  });
  return `${shape.open}${texts.join(shape.separator)}${shape.close}`;
}

/**
 * The length of `render(shape, entries, cap)`, without building it. Right for one entry or more only;
 * what it gives for none is never used (`keepNames` has no entry to drop, `fairCap` no cap to seek).
 */
function renderedLength(shape: Shape, entries: readonly Entry[], cap: number): number {
  const frame = shape.open.length + shape.close.length + shape.separator.length * (entries.length - 1);
  return entries.reduce((sum, e) => sum + entryLength(e, cap), frame);
}

/**
 * The least important skill goes first: user scope before workspace scope (a project's own skills
 * matter most to an agent working in it), then the later in the given order.
 */
function leastImportantFirst(entries: readonly Entry[]): Entry[] {
  return [...entries].sort((a, b) => (a.user === b.user ? b.index - a.index : a.user ? -1 : 1));
}

/** The entries that fit `budget` with every description at its floor, dropping the least important first. */
function keepNames(shape: Shape, entries: readonly Entry[], budget: number): Entry[] {
  const dropped = new Set<number>();
  let total = renderedLength(shape, entries, 0);
  for (const e of leastImportantFirst(entries)) {
    if (total <= budget) break;
    dropped.add(e.index);
    // Once the last entry is dropped the loop ends, so the total is never read without an entry left.
    total -= floorLength(e) + shape.separator.length;
  }
  return entries.filter((e) => !dropped.has(e.index));
}

/** The largest description cap whose text fits `budget`; `0` always fits once `keepNames` has run. */
function fairCap(shape: Shape, entries: readonly Entry[], budget: number): number {
  let low = 0;
  // A loop, not Math.max(...): a spread of 130,000 arguments overflows the stack.
  let high = 0;
  for (const e of entries) high = Math.max(high, cutAt(e, e.points.length));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (renderedLength(shape, entries, mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return low;
}

function invalid(message: string): SkillError {
  return new SkillError("invalid_input", `renderCatalog: ${message}`);
}

function checkInput(skills: unknown, options: RenderCatalogOptions): void {
  checkSkills(skills, ["name", "description", "path"], invalid);
  if (typeof options !== "object" || options === null) throw invalid("options must be an object");
  const { format, budget, filter, query } = options;
  if (format !== undefined && !Object.hasOwn(SHAPES, format))
    throw invalid(`option "format" must be "xml", "markdown" or "json", got ${JSON.stringify(format)}`);
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget >= 0))
    throw invalid(`option "budget" must be a non-negative integer, got ${String(budget)}`);
  if (filter !== undefined && typeof filter !== "function")
    throw invalid(`option "filter" must be a function, got ${typeof filter}`);
  if (query !== undefined && typeof query !== "string")
    throw invalid(`option "query" must be a string, got ${typeof query}`);
}

/**
 * Render a catalog as the text an agent puts in its prompt. Pure: no I/O, the same input gives the same text.
 * Descriptions have control characters stripped and become one line; every field is escaped for the
 * format. A location or a name is never rewritten: a skill whose path holds a control character, or
 * whose name cleaning would change, is left out and counted in `omitted`. Under a `budget`, the longest
 * descriptions are shortened first, all to the same length, ending in `…`, but never below
 * {@link MIN_DESCRIPTION} characters; when the skills still do not fit, the least important (user scope
 * before workspace, then the least relevant to `query` if given, else the later in the list) are left
 * out and counted in `omitted`.
 * @throws {SkillError} `invalid_input` for a bad `skills` array or option, naming it and the value.
 * @example
 * const { text } = renderCatalog(skills.listSkills(), {
 *   format: "xml",
 *   budget: 8000,
 *   filter: (s) => s.metadata["disable-model-invocation"] !== true,
 * });
 */
export function renderCatalog(
  skills: readonly SkillInfo[],
  options: RenderCatalogOptions = {},
): RenderedCatalog {
  checkInput(skills, options);
  const shape = SHAPES[options.format ?? "xml"];
  const { budget = Number.POSITIVE_INFINITY, filter, query } = options;
  const shown = filter === undefined ? skills : skills.filter((s) => filter(s));
  const costs = new Map<string, number>();
  // With a query, an entry's index is its place by relevance, so "the later first" drops the least relevant first.
  const place = query === undefined ? undefined : relevanceOrder(skills, shown, query);
  const budgeted = budget !== Number.POSITIVE_INFINITY;
  const entries: Entry[] = [];
  shown.forEach((s, index) => {
    // The model reads a location, and calls a skill by its name: neither may be shown rewritten.
    if (!unshowablePath(s.path) && cleanText(s.name) === s.name)
      entries.push(toEntry(s, place?.[index] ?? index, shape, costs, budgeted));
  });
  const kept = budgeted ? keepNames(shape, entries, budget) : entries;
  const cap = budgeted ? fairCap(shape, kept, budget) : Number.POSITIVE_INFINITY;
  return Object.freeze({ text: render(shape, kept, cap), omitted: shown.length - kept.length });
}
