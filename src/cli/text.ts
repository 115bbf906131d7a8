// Terminal output: control-character stripping, colour, widths, relative paths and the JSON form.
import * as path from "node:path";

// ESC sequences first (string-type ones end at BEL or ST), then single control characters.
// biome-ignore-start lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const STRING_SEQUENCE = /\x1b[\]P^_X][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: the block above

/**
 * `text` without terminal control characters: escape sequences, C0 controls other than tab and
 * newline (a carriage return included), DEL and C1 controls. Text from a skill must not move the
 * cursor, recolour the terminal or set its title.
 */
export function stripControls(text: string): string {
  return text.replace(STRING_SEQUENCE, "").replace(CSI, "").replace(OTHER_ESCAPE, "").replace(CONTROL, "");
}

/** {@link stripControls}, then every run of white space (newlines included) as one space: for one-line cells. */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, " ").trim();
}

/** Display width, counted in code points. */
export const widthOf = (s: string): number => [...s].length;

/** `s` cut to `width` code points, ending in "…" when cut. */
export function cut(s: string, width: number): string {
  const chars = [...s];
  if (chars.length <= width) return s;
  return width <= 1 ? "…".slice(0, width) : `${chars.slice(0, width - 1).join("")}…`;
}

/** `s` padded with spaces to `width` code points. */
export const pad = (s: string, width: number): string => s + " ".repeat(Math.max(0, width - widthOf(s)));

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

/** A library message for the terminal: absolute paths under `cwd` made relative, control characters stripped. */
export function showMessage(message: string, cwd: string): string {
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  return oneLine(message.split(prefix).join(""));
}

/**
 * `value` as JSON, indented by `indent` spaces (0: one line). JSON.stringify escapes C0 controls but not
 * DEL or C1 ones (U+0080–U+009F, which some terminals obey), so those are escaped here too; the data is
 * unchanged for a JSON reader.
 */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    /[\x7f-\x9f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
