// Opt-in root layouts (clarvis, agents, claude); the library itself has no default roots.
import * as os from "node:os";
import * as path from "node:path";
import { describeValue, readable, StartupError } from "./errors.js";
import type { SkillRootInput } from "./types.js";

/** Options of the root presets. */
export interface PresetOptions {
  /** The workspace whose `.agents`/`.clarvis` folders are used. @default cwd */
  workspace?: string;
  /** Base of a relative `workspace` or `home`. @default process.cwd() */
  cwd?: string;
  /** Where `~` expands. @default os.homedir() */
  home?: string;
}

/**
 * The clarvis roots, ascending: `~/.agents/skills` (user, agents), `<ws>/.agents/skills`
 * (workspace, agents), `~/.clarvis/skills` (user, clarvis), `<ws>/.clarvis/skills` (workspace, clarvis).
 * The order is the rule: `.clarvis` beats `.agents`, and within one source the workspace beats the user.
 * @throws {StartupError} when `opts` is not an object or an option is not a non-empty string (so for every preset).
 * @example createAgentSkills({ roots: clarvisSkillRoots({ workspace: process.cwd() }) })
 */
export function clarvisSkillRoots(opts: PresetOptions = {}): SkillRootInput[] {
  const { ws, home } = presetBase(opts);
  return [
    { path: path.join(home, ".agents", "skills"), scope: "user", source: "agents" },
    { path: path.join(ws, ".agents", "skills"), scope: "workspace", source: "agents" },
    { path: path.join(home, ".clarvis", "skills"), scope: "user", source: "clarvis" },
    { path: path.join(ws, ".clarvis", "skills"), scope: "workspace", source: "clarvis" },
  ];
}

function presetBase(opts: PresetOptions): { ws: string; home: string } {
  if (typeof opts !== "object" || opts === null) {
    throw new StartupError(`preset options must be an object, received ${describeValue(opts)}`);
  }
  for (const key of ["workspace", "cwd", "home"] as const) {
    // A Proxy's trap: the caller's own error, reported as the option it concerns.
    const value: unknown = readable(`preset option "${key}"`, () => opts[key]);
    if (value !== undefined && (typeof value !== "string" || value === "" || value.includes("\0"))) {
      throw new StartupError(
        `preset option "${key}" must be a non-empty string without NUL bytes, received ${describeValue(value)}`,
      );
    }
  }
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  // The user roots need a home: an empty os.homedir() (HOME="") would make them the current directory's.
  const home = opts.home ?? os.homedir();
  if (home === "")
    throw new StartupError(`the home directory is unknown (os.homedir() is empty): pass "home"`);
  return { ws: path.resolve(cwd, opts.workspace ?? cwd), home: path.resolve(cwd, home) };
}

/**
 * The cross-client layout, ascending: `~/.agents/skills` (user, agents) then `<ws>/.agents/skills`
 * (workspace, agents): a project's own skill overrides the user's.
 * @example createAgentSkills({ roots: agentsSkillRoots({ workspace: process.cwd() }) })
 */
export function agentsSkillRoots(opts: PresetOptions = {}): SkillRootInput[] {
  const { ws, home } = presetBase(opts);
  return [
    { path: path.join(home, ".agents", "skills"), scope: "user", source: "agents" },
    { path: path.join(ws, ".agents", "skills"), scope: "workspace", source: "agents" },
  ];
}

/**
 * Claude Code's layout, ascending: `~/.claude/skills` (user, claude) then `<ws>/.claude/skills`
 * (workspace, claude): a project's own skill overrides the user's.
 * @example createAgentSkills({ roots: claudeSkillRoots({ workspace: process.cwd() }) })
 */
export function claudeSkillRoots(opts: PresetOptions = {}): SkillRootInput[] {
  const { ws, home } = presetBase(opts);
  return [
    { path: path.join(home, ".claude", "skills"), scope: "user", source: "claude" },
    { path: path.join(ws, ".claude", "skills"), scope: "workspace", source: "claude" },
  ];
}
