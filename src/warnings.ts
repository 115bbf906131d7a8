// Warning codes, and the warn sink every warning goes through: stderr by default, a function when set.
import { describeValue, printable, StartupError } from "./errors.js";
import type { SkillWarning, WarningCode, WarnSink } from "./types.js";

/** The default sink: one line per warning on stderr, its message already safe to print. */
function stderrSink(w: SkillWarning): void {
  process.stderr.write(`agent-skills: warning: ${w.code}: ${printable(w.message)}\n`);
}

let sink: WarnSink = stderrSink;

/**
 * Route every warning, as it is produced, to `next`; `null` restores the default, which writes each
 * warning to stderr as one line `agent-skills: warning: <code>: <message>`. Instances created with an
 * `onWarning` option send their warnings there instead. Warnings of a scan are also kept on
 * `AgentSkills.warnings` whatever the sink.
 * @throws {StartupError} when `next` is neither a function nor `null`.
 * @example
 * setWarnSink((w) => logger.warn(`${w.code}: ${w.message}`)); // redirect
 * setWarnSink(() => {}); // silence (the behaviour of 0.1.0)
 */
export function setWarnSink(next: WarnSink | null): void {
  if (next !== null && typeof next !== "function") {
    throw new StartupError(`setWarnSink expects a function or null, received ${describeValue(next)}`);
  }
  sink = next ?? stderrSink;
}

/**
 * The `onWarning` option checked: a function or absent.
 * @throws {StartupError} for anything else.
 */
export function checkSink(value: unknown): WarnSink | undefined {
  if (value === undefined || typeof value === "function") return value as WarnSink | undefined;
  throw new StartupError(`option "onWarning" must be a function, received ${describeValue(value)}`);
}

/** Build a frozen warning; its message is made safe to print, `path` and `skill` stay exact. */
export function warning(code: WarningCode, message: string, path?: string, skill?: string): SkillWarning {
  const w: { code: WarningCode; message: string; path?: string; skill?: string } = {
    code,
    message: printable(message),
  };
  if (path !== undefined) w.path = path;
  if (skill !== undefined) w.skill = skill;
  return Object.freeze(w);
}

/** Hand warnings to `own` (an instance's `onWarning`) or else the global sink; a throwing sink cannot break a scan. */
export function emit(warnings: readonly SkillWarning[], own?: WarnSink): void {
  const s = own ?? sink;
  for (const w of warnings) {
    try {
      const returned: unknown = s(w);
      // An async sink's rejection would end the process as unhandled: it is dropped like a throw.
      if (typeof (returned as { then?: unknown } | null)?.then === "function")
        (returned as PromiseLike<unknown>).then(undefined, () => {});
    } catch {
      // The sink is the caller's code; its failure must not lose the scan it reports on.
    }
  }
}
