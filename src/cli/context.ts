// What every command works from: the io it writes to, the parsed command line, and the roots it names.
import {
  type AgentSkills,
  agentsSkillRoots,
  type CatalogFormat,
  clarvisSkillRoots,
  claudeSkillRoots,
  createAgentSkills,
  type SkillRootInput,
  type SkillWarning,
  type ValidationTarget,
  type WarnSink,
} from "../index.js";
import { paint, showMessage } from "./text.js";

/** The root presets `--preset` chooses from. */
export const PRESETS = {
  clarvis: clarvisSkillRoots,
  agents: agentsSkillRoots,
  claude: claudeSkillRoots,
} as const;

/** A `--preset` name. */
export type Preset = keyof typeof PRESETS;

/** What the command line reads from and writes to; tests pass their own. */
export interface CliIo {
  /** Writes to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** The current directory: base of every relative path given. */
  readonly cwd: string;
  /** The environment; only NO_COLOR and COLUMNS are read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal: colour and the terminal width apply only then. @default false */
  readonly stdoutIsTTY?: boolean;
  /** Whether standard error is a terminal. @default false */
  readonly stderrIsTTY?: boolean;
  /** The terminal's width in columns, when standard output is a terminal. */
  readonly columns?: number;
  /** Ends a long-running command (`list --watch`); bin.ts aborts it on SIGINT and SIGTERM. */
  readonly signal?: AbortSignal;
}

/** The command line after parsing, shared by every command. */
export interface Invocation {
  /** The command, a key of the command table. */
  readonly command: string;
  /** The command's positional arguments. */
  readonly args: readonly string[];
  /** --root and --user-root in the order given, paths absolute; empty means the preset. */
  readonly roots: readonly SkillRootInput[];
  /** --preset. @default "clarvis" */
  readonly preset: Preset;
  /** --workspace, absolute. */
  readonly workspace?: string;
  /** --home, absolute. */
  readonly home?: string;
  /** --strict. */
  readonly strict: boolean;
  /** Not --no-follow-symlinks. */
  readonly followSymlinks: boolean;
  /** --json. */
  readonly json: boolean;
  /** --wide: no cutting to the terminal width. */
  readonly wide: boolean;
  /** catalog --format. @default "xml" */
  readonly format: CatalogFormat;
  /** catalog --budget. */
  readonly budget?: number;
  /** catalog --query: over the budget, the skills most relevant to it are kept. */
  readonly query?: string;
  /** validate --recursive. */
  readonly recursive: boolean;
  /** validate --target. */
  readonly target?: ValidationTarget;
  /** --limit, for search. */
  readonly limit?: number;
  /** --watch (list only). */
  readonly watch?: boolean;
}

/** The roots of an invocation: those given, else the preset's for the workspace and home. */
export function rootsOf(inv: Invocation, io: CliIo): SkillRootInput[] {
  if (inv.roots.length > 0) return [...inv.roots];
  return PRESETS[inv.preset]({
    cwd: io.cwd,
    ...(inv.workspace === undefined ? {} : { workspace: inv.workspace }),
    ...(inv.home === undefined ? {} : { home: inv.home }),
  });
}

/** The skills of an invocation's roots, loaded with its options; warnings go to `onWarning` (by default nowhere: they are on `warnings`). */
export function open(inv: Invocation, io: CliIo, onWarning: WarnSink = () => {}): AgentSkills {
  return createAgentSkills({
    roots: rootsOf(inv, io),
    cwd: io.cwd,
    ...(inv.workspace === undefined ? {} : { workspace: inv.workspace }),
    ...(inv.home === undefined ? {} : { home: inv.home }),
    strict: inv.strict,
    followSymlinks: inv.followSymlinks,
    // The scan's warnings are on `warnings`; the global sink of a program importing the library is never touched.
    onWarning,
  });
}

/** Warnings on stderr, one line each, made safe for the terminal. */
export function printWarnings(warnings: readonly SkillWarning[], io: CliIo): void {
  const yellow = paint(io.stderrIsTTY ?? false, io.env).yellow;
  for (const w of warnings) io.stderr(`${yellow("warning")}: ${w.code}: ${showMessage(w.message, io.cwd)}\n`);
}

/** A failure the command line itself decides (not the library's): printed like a SkillError, with this code. */
export class CliError extends Error {
  /** The code printed and put in the `--json` error object. */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
