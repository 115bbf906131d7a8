// Terminal output: control-character stripping, colour, widths, relative paths and the JSON form.
import * as path from "node:path";

// ESC sequences first (string-type ones end at BEL or ST), then single control characters.
// biome-ignore-start lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const STRING_SEQUENCE = /\x1b[\]P^_X][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: the block above

/**
 * `text` without terminal control characters: escape sequences, C0 controls other than tab and
 * newline (a carriage return included), DEL and C1 controls, and the bidirectional embedding, override
 * and isolate controls (U+202A-U+202E, U+2066-U+2069). Text from a skill must not move the cursor,
 * recolour the terminal, set its title, or display in another order than it reads.
 */
export function stripControls(text: string): string {
  return text.replace(STRING_SEQUENCE, "").replace(CSI, "").replace(OTHER_ESCAPE, "").replace(CONTROL, "");
}

/** {@link stripControls}, then every run of white space (newlines included) as one space: for one-line cells. */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, " ").trim();
}

// East-Asian Wide and Fullwidth code points (Unicode's EastAsianWidth W and F, main blocks and emoji):
// a terminal gives each two columns. A table, not a dependency: the CLI keeps the runtime deps at two.
const WIDE = new RegExp(
  "[\\u{1100}-\\u{115F}\\u{231A}\\u{231B}\\u{2329}\\u{232A}\\u{23E9}-\\u{23EC}\\u{23F0}\\u{23F3}\\u{25FD}\\u{25FE}" +
    "\\u{2614}\\u{2615}\\u{2648}-\\u{2653}\\u{267F}\\u{2693}\\u{26A1}\\u{26AA}\\u{26AB}\\u{26BD}\\u{26BE}\\u{26C4}\\u{26C5}" +
    "\\u{26CE}\\u{26D4}\\u{26EA}\\u{26F2}\\u{26F3}\\u{26F5}\\u{26FA}\\u{26FD}\\u{2705}\\u{270A}\\u{270B}\\u{2728}\\u{274C}" +
    "\\u{274E}\\u{2753}-\\u{2755}\\u{2757}\\u{2795}-\\u{2797}\\u{27B0}\\u{27BF}\\u{2B1B}\\u{2B1C}\\u{2B50}\\u{2B55}" +
    "\\u{2E80}-\\u{303E}\\u{3041}-\\u{33FF}\\u{3400}-\\u{4DBF}\\u{4E00}-\\u{9FFF}\\u{A000}-\\u{A4CF}\\u{A960}-\\u{A97F}" +
    "\\u{AC00}-\\u{D7A3}\\u{F900}-\\u{FAFF}\\u{FE10}-\\u{FE19}\\u{FE30}-\\u{FE6F}\\u{FF00}-\\u{FF60}\\u{FFE0}-\\u{FFE6}" +
    "\\u{16FE0}-\\u{16FE4}\\u{17000}-\\u{18AFF}\\u{1B000}-\\u{1B2FF}\\u{1F004}\\u{1F0CF}\\u{1F18E}\\u{1F191}-\\u{1F19A}" +
    "\\u{1F200}-\\u{1F251}\\u{1F300}-\\u{1F64F}\\u{1F680}-\\u{1F6FF}\\u{1F900}-\\u{1F9FF}\\u{1FA70}-\\u{1FAFF}" +
    "\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}]",
  "u",
);
// Marks that combine with the previous character, zero-width spaces and joiners, variation selectors.
// Tested one code point at a time, so a class holding combining marks is what is meant here.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each test is of a single code point
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFE00-\uFE0F]/u;

/** Columns one code point takes on a terminal: 0, 1 or 2. */
function columnsOf(c: string): number {
  if (ZERO.test(c)) return 0;
  return WIDE.test(c) ? 2 : 1;
}

/** Display width: the terminal columns `s` takes (wide East-Asian characters and emoji count two). */
export function widthOf(s: string): number {
  let width = 0;
  for (const c of s) width += columnsOf(c);
  return width;
}

/** `s` cut to `width` display columns, ending in "…" when cut. */
export function cut(s: string, width: number): string {
  if (widthOf(s) <= width) return s;
  if (width <= 1) return "…".slice(0, Math.max(0, width));
  let out = "";
  let used = 0;
  for (const c of s) {
    const w = columnsOf(c);
    if (used + w > width - 1) break;
    out += c;
    used += w;
  }
  return `${out}…`;
}

/** `s` padded with spaces to `width` display columns. */
export const pad = (s: string, width: number): string => s + " ".repeat(Math.max(0, width - widthOf(s)));

/**
 * The width output is cut to: none with `--wide`; the terminal's when stdout is one; else `COLUMNS`
 * when it holds a positive integer (the shell convention for pipes); else 80.
 */
export function outputWidth(
  io: {
    readonly stdoutIsTTY?: boolean;
    readonly columns?: number;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
  wide: boolean,
): number {
  if (wide) return Number.POSITIVE_INFINITY;
  if (io.stdoutIsTTY && io.columns !== undefined && io.columns > 0) return io.columns;
  const env = io.env.COLUMNS ?? "";
  return /^[1-9]\d{0,5}$/.test(env) ? Number(env) : 80;
}

/** Colour functions; each is the identity when colour is off. */
export interface Paint {
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly green: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
}

const sgr = (on: number, off: number) => (s: string) => `\x1b[${on}m${s}\x1b[${off}m`;

/** Colour for a stream: only on a terminal, and never when `NO_COLOR` is set to a non-empty value. */
export function paint(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): Paint {
  const on = isTTY && (env.NO_COLOR ?? "") === "";
  const id = (s: string) => s;
  return on
    ? { red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39), bold: sgr(1, 22), dim: sgr(2, 22) }
    : { red: id, yellow: id, green: id, bold: id, dim: id };
}

/** Paths under `cwd` shown relative to it (`.` for `cwd` itself), control characters stripped. */
export function showPath(p: string, cwd: string): string {
  if (p === cwd) return ".";
  const rel = p.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep) ? path.relative(cwd, p) : p;
  return stripControls(rel);
}

/**
 * A library message for the terminal: absolute paths under `cwd` made relative, control characters
 * stripped. A path is cut only where it starts: at the start of the message or after a space, quote or
 * opening parenthesis, never where `cwd` happens to recur inside another path (`/x/work/a` from `/work`).
 */
export function showMessage(message: string, cwd: string): string {
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  // From the root the prefix is the separator itself: cutting it would garble every path, so none is cut.
  if (prefix === path.sep) return oneLine(message);
  const starts = new RegExp(`(^|[\\s"'(])${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=(.?))`, "g");
  // The cwd itself (nothing of a path follows its separator) is ".", as showPath shows it.
  return oneLine(
    message.replace(starts, (_, before: string, next: string) =>
      /^[\s"'),:;]?$/.test(next) ? `${before}.` : before,
    ),
  );
}

/**
 * `value` as JSON, indented by `indent` spaces (0: one line). JSON.stringify escapes C0 controls but not
 * DEL or C1 ones (U+0080–U+009F, which some terminals obey), nor the bidirectional controls that
 * {@link stripControls} removes, so those are escaped here too; the data is unchanged for a JSON reader.
 */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
