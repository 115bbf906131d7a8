// Warning codes and the process-wide warn sink every warning goes through.
import type { SkillWarning, WarnSink } from "./types.js";

/** Every code a {@link SkillWarning} can carry. */
export const WARNING_CODES = [
  "root_not_directory",
  "root_unreadable",
  "unreadable",
  "dangling_symlink",
  "multiple_manifests",
  "invalid_skill",
  "duplicate_skill",
  "yaml_repaired",
  "name_mismatch",
  "tools_ignored",
  "resource_skipped",
  "resource_limit",
  "watch_degraded",
] as const;

/** The closed set of warning codes. */
export type WarningCode = (typeof WARNING_CODES)[number];

let sink: WarnSink | null = null;

/**
 * Route every warning, as it is produced, to `sink`; `null` restores the default, which drops them
 * (the library never writes to the console by itself). Warnings of a scan are also kept on
 * `AgentSkills.warnings` whatever the sink.
 * @example
 * setWarnSink((w) => logger.warn(`${w.code}: ${w.message}`));
 */
export function setWarnSink(next: WarnSink | null): void {
  if (next !== null && typeof next !== "function") {
    throw new TypeError(`setWarnSink expects a function or null, received ${typeof next}`);
  }
  sink = next;
}

/** Build a frozen warning. */
export function warning(code: WarningCode, message: string, path?: string, skill?: string): SkillWarning {
  const w: { code: string; message: string; path?: string; skill?: string } = { code, message };
  if (path !== undefined) w.path = path;
  if (skill !== undefined) w.skill = skill;
  return Object.freeze(w);
}

/** Hand warnings to the sink; a throwing sink cannot break a scan. */
export function emit(warnings: readonly SkillWarning[]): void {
  const s = sink;
  if (s === null) return;
  for (const w of warnings) {
    try {
      s(w);
    } catch {
      // The sink is the caller's code; its failure must not lose the scan it reports on.
    }
  }
}
