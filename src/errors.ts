// The one error model: SkillError with a closed set of codes, StartupError for bad options.

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
  /** The file or directory concerned, when there is one. */
  readonly path?: string;
  /** The skill concerned, when known. */
  readonly skill?: string;

  constructor(code: SkillErrorCode, message: string, options: SkillErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SkillError";
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.skill !== undefined) this.skill = options.skill;
  }
}

/** The options given to {@link createAgentSkills} or {@link resolveConfig} cannot be used; the message names the option and the value. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartupError";
  }
}

/** The errno code of a Node fs error, or `undefined`. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A short description of an error for a message: its errno code, else its message. */
export function describeError(e: unknown): string {
  const code = errnoCode(e);
  if (code !== undefined) return code;
  return e instanceof Error ? e.message : String(e);
}
