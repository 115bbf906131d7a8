// Options → frozen SkillConfig, checked whole before discovery touches a root.
import * as os from "node:os";
import * as path from "node:path";
import { describeValue, readable, StartupError } from "./errors.js";
import { fsCode, statSync } from "./fsx.js";
import type { AgentSkillsOptions, SkillConfig, SkillRoot, SkillScope } from "./types.js";
import { checkSink } from "./warnings.js";

const SCOPES: readonly SkillScope[] = ["user", "workspace"];

/**
 * Resolve `p` the way roots are resolved: `"~"` is `home`, `"~/x"` is `x` under `home`, a relative
 * path resolves against `base`, an absolute path is normalized. `"~user/x"` is an ordinary relative path.
 * @throws {StartupError} when an argument is not a string.
 * @example resolveAgainst("~/skills", "/ws", "/home/me") // "/home/me/skills"
 */
export function resolveAgainst(p: string, base: string, home: string = os.homedir()): string {
  for (const [label, value] of [
    ["path", p],
    ["base", base],
    ["home", home],
  ] as const) {
    if (typeof value !== "string") {
      throw new StartupError(`resolveAgainst: ${label} must be a string, received ${describeValue(value)}`);
    }
  }
  // An empty path or base would silently mean the process's cwd; home counts only where `~` needs it.
  if (p === "" || base === "")
    throw new StartupError(`resolveAgainst: ${p === "" ? "path" : "base"} must not be empty`);
  if (home === "" && needsHome(p))
    throw new StartupError(`resolveAgainst: ${JSON.stringify(p)} needs a home, and home is empty`);
  if (p === "~") return path.resolve(home);
  if (startsAtHome(p)) return path.resolve(home, p.slice(2));
  return path.resolve(base, p);
}

/**
 * Whether `p` is `~` then a separator: `~/` everywhere, `~\` too where `sep` is `\` (Windows). `sep` is
 * a parameter so that the Windows rule is tested on every system.
 */
export function startsAtHome(p: string, sep: string = path.sep): boolean {
  return p.startsWith("~/") || (sep === "\\" && p.startsWith("~\\"));
}

/** Whether `p` is resolved against the home directory: `~` itself, or a path under it. */
const needsHome = (p: string): boolean => p === "~" || startsAtHome(p);

function optionalString(options: AgentSkillsOptions, key: "workspace" | "cwd" | "home"): string | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new StartupError(`option "${key}" must be a non-empty string, received ${describeValue(value)}`);
  }
  return noNul(value, `option "${key}"`);
}

/** `value`, refused when it holds a NUL byte: no file system path does, and fs would throw its own error. */
function noNul(value: string, what: string): string {
  if (value.includes("\0"))
    throw new StartupError(`${what} must not hold a NUL byte, received ${describeValue(value)}`);
  return value;
}

/**
 * `options[key]` checked as a boolean, `fallback` when it is not given.
 * @throws {StartupError} naming the option and the value received.
 */
export function optionalBoolean(options: object, key: string, fallback: boolean): boolean {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return fallback;
  if (typeof value !== "boolean")
    throw new StartupError(`option "${key}" must be a boolean, received ${describeValue(value)}`);
  return value;
}

function resolveRoot(input: unknown, i: number, workspace: string, home: string): SkillRoot {
  if (typeof input !== "object" || input === null) {
    throw new StartupError(`roots[${i}] must be an object with a "path", received ${describeValue(input)}`);
  }
  const {
    path: p,
    scope = "workspace",
    source = "",
  } = readable(`roots[${i}]`, () => {
    const r = input as Record<string, unknown>;
    return { path: r.path, scope: r.scope, source: r.source };
  });
  if (typeof p !== "string" || p === "") {
    throw new StartupError(`roots[${i}].path must be a non-empty string, received ${describeValue(p)}`);
  }
  if (!SCOPES.includes(scope as SkillScope)) {
    throw new StartupError(
      `roots[${i}].scope must be "user" or "workspace", received ${describeValue(scope)}`,
    );
  }
  if (typeof source !== "string")
    throw new StartupError(`roots[${i}].source must be a string, received ${describeValue(source)}`);
  noNul(p, `roots[${i}].path`);
  if (home === "" && needsHome(p)) {
    throw new StartupError(
      `roots[${i}].path ${JSON.stringify(p)} needs the home directory, which is unknown (os.homedir() is empty): pass the "home" option`,
    );
  }
  return Object.freeze({ path: resolveAgainst(p, workspace, home), scope: scope as SkillScope, source });
}

/**
 * Check and resolve options into a deeply frozen {@link SkillConfig}. The caller's object is not touched.
 * @throws {StartupError} for an empty or non-array `roots`, a root without a non-empty string `path`,
 * an unknown `scope`, a non-string `source`, a mistyped option, or a `workspace` that is not an existing directory.
 */
export function resolveConfig(options: AgentSkillsOptions): SkillConfig {
  return readable("options", () => resolveOptions(options));
}

function resolveOptions(options: AgentSkillsOptions): SkillConfig {
  if (typeof options !== "object" || options === null) {
    throw new StartupError(`options must be an object with "roots", received ${describeValue(options)}`);
  }
  const { roots } = options;
  if (!Array.isArray(roots))
    throw new StartupError(`option "roots" must be an array, received ${describeValue(roots)}`);
  if (roots.length === 0) throw new StartupError(`option "roots" is empty: give at least one root to scan`);
  const cwd = path.resolve(optionalString(options, "cwd") ?? process.cwd());
  const homeOption = optionalString(options, "home");
  // The default resolves like the option; an empty one (HOME set to "") stays "", refused where `~` needs it.
  const given = homeOption ?? os.homedir();
  const home = given === "" ? "" : path.resolve(cwd, given);
  const workspaceOption = optionalString(options, "workspace");
  const workspace = workspaceOption === undefined ? cwd : path.resolve(cwd, workspaceOption);
  const strict = optionalBoolean(options, "strict", false);
  const followSymlinks = optionalBoolean(options, "followSymlinks", true);
  checkSink(options.onWarning);
  // Array.from, not map: a hole is an undefined root, refused as one, not skipped.
  const resolved = Array.from(roots, (r: unknown, i: number) => resolveRoot(r, i, workspace, home));
  if (workspaceOption !== undefined) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(workspace);
    } catch (e) {
      throw new StartupError(
        `option "workspace" ${JSON.stringify(workspace)} cannot be read (${fsCode(e)})`,
        {
          cause: e,
        },
      );
    }
    if (st === undefined)
      throw new StartupError(`option "workspace" ${JSON.stringify(workspace)} does not exist`);
    if (!st.isDirectory())
      throw new StartupError(`option "workspace" ${JSON.stringify(workspace)} is not a directory`);
  }
  return Object.freeze({ home, cwd, workspace, roots: Object.freeze(resolved), strict, followSymlinks });
}
