// The one error model: SkillError with a closed set of codes, StartupError for bad options, and how a message is made safe to print.

// C0 and C1 controls and DEL (terminal escapes, newlines), the line and paragraph separators, the
// bidirectional overrides and isolates (which reorder what a reader sees), and lone surrogates.
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeUnit(c: string): string {
  const n = c.charCodeAt(0);
  // U+009F is the highest unit of UNPRINTABLE that fits two hex digits; the next, U+2028, takes four, as
  // every later one does.
  return n <= 0x9f ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16)}`;
}

/**
 * `text` safe to print on a terminal or in a log line: every control character is written as a
 * visible escape (`\x1b`, `\u202e`) instead of being removed, so a name or path in a message can
 * neither drive the terminal nor read as another path. Backslashes are left alone, so applying it
 * twice changes nothing; the exact value is in the `path`/`skill` field beside the message.
 * Every warning and error message goes through it.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeUnit);
}

/** Every code a {@link SkillError} can carry. */
export const SKILL_ERROR_CODES = [
  "invalid_skill",
  "duplicate_skill",
  "path_escape",
  "invalid_input",
  "not_found",
  "not_a_file",
] as const;

/** The closed set of {@link SkillError} codes. */
export type SkillErrorCode = (typeof SKILL_ERROR_CODES)[number];

/** Options of {@link SkillError}. */
export interface SkillErrorOptions {
  /** The file or directory concerned. */
  path?: string | undefined;
  /** The skill concerned. */
  skill?: string | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A problem with a skill or a request for one. `code` says which; the message names the file or value.
 * @example
 * try { skills.resourcePath("pdf", "../x") } catch (e) { if (e instanceof SkillError && e.code === "path_escape") … }
 */
export class SkillError extends Error {
  /** Which problem this is. */
  readonly code: SkillErrorCode;
  // `declare`: no own property unless the constructor sets one, so an error without a path has none
  // (a class field would be an own property holding undefined).
  /** The file or directory concerned, when there is one. */
  declare readonly path?: string;
  /** The skill concerned, when known. */
  declare readonly skill?: string;

  constructor(code: SkillErrorCode, message: string, options: SkillErrorOptions = {}) {
    super(printable(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SkillError";
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.skill !== undefined) this.skill = options.skill;
  }
}

/**
 * Arguments or options that cannot be used, given to `createAgentSkills`, `createAgentSkillsAsync`,
 * `resolveConfig`, `watch`, `validateSkills`, `setWarnSink`, `resolveAgainst` or a preset; the message
 * names the option and the value.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(printable(message), options);
    this.name = "StartupError";
  }
}

/**
 * `read()`, which reads values the caller gave; what it throws other than a StartupError (a Proxy's
 * trap, a revoked Proxy) becomes a StartupError saying that `what` cannot be read.
 */
export function readable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof StartupError) throw e;
    throw new StartupError(`${what} cannot be read: ${describeError(e)}`, { cause: e });
  }
}

/** A short description of a caller's error for a message (fs errors are described by `fsCode`). */
export function describeError(e: unknown): string {
  return e instanceof Error ? e.message : describeValue(e);
}

/**
 * A value as a message shows it: a string quoted, a primitive with its type, anything else by its kind
 * only. Never throws, whatever the value (a BigInt, a circular object, a Proxy whose traps throw, a
 * revoked Proxy).
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "object") {
    try {
      return Array.isArray(value) ? "an array" : "an object";
    } catch {
      // Array.isArray throws for a revoked Proxy, the one object it cannot look through.
      return "an object";
    }
  }
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  return `${typeof value} ${String(value)}`;
}
