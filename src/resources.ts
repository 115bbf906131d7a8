// A skill's files: bounded enumeration, and the confinement of resource paths to the skill directory.
import * as path from "node:path";
import { describeValue, SkillError } from "./errors.js";
import { fsCode, lstatSync, readdirSync, realpathSync, statSync, within } from "./fsx.js";
import type { SkillInfo, SkillWarning } from "./types.js";
import { warning } from "./warnings.js";

/** Enumeration stops after this many files. */
const MAX_RESOURCES = 10_000;
/**
 * Enumeration stops after reading this many directories, the skill directory included: empty
 * directories cost a readdir each and list nothing, so files alone do not bound the work. The corpus's
 * largest skill has 23.
 */
export const MAX_DIRECTORIES = 1_000;
/** Enumeration does not descend below this depth. */
export const MAX_DEPTH = 32;

/**
 * Why `skill.dir` is no longer the directory discovered at `base` (gone, unreadable, or now resolving
 * elsewhere, e.g. replaced by a symlink to `/`), or `undefined` when it still is.
 */
function relocated(skill: SkillInfo, base: string): string | undefined {
  let now: string;
  try {
    now = realpathSync(skill.dir);
  } catch (e) {
    return `cannot be resolved (${fsCode(e)})`;
  }
  return now === base ? undefined : `has changed since discovery: it now resolves to ${now}, not ${base}`;
}

/**
 * The files of a skill, relative and `/`-separated, sorted, without the manifest. Symlinks are listed
 * only when followed and their target lies inside the skill directory; others are dropped with a warning,
 * and so is a name holding a backslash, which {@link confine} reads as a separator and could not serve.
 */
export function listResources(
  skill: SkillInfo,
  base: string,
  follow: boolean,
): { files: string[]; warnings: SkillWarning[] } {
  const files: string[] = [];
  const warnings: SkillWarning[] = [];
  const note = (code: "resource_skipped" | "resource_limit", message: string, p: string) =>
    warnings.push(warning(code, message, p, skill.name));
  const moved = relocated(skill, base);
  if (moved !== undefined) {
    note("resource_skipped", `skill directory ${skill.dir} ${moved}; not listed`, skill.dir);
    return { files, warnings };
  }
  const visited = new Set<string>();
  const manifestName = path.basename(skill.path);
  let stopped = false;
  /** Counts what the walk meets: true up to `max`; past it false, with the warning, and the walk stops. */
  const counter = (max: number, what: string) => {
    let met = 0;
    return (): boolean => {
      if (++met <= max) return true;
      note("resource_limit", `${skill.dir} has more than ${max} ${what}; listing stopped there`, skill.dir);
      stopped = true;
      return false;
    };
  };
  /** One more directory reached, a link to one included. */
  const reach = counter(MAX_DIRECTORIES, "directories");
  /**
   * One more file entry, listed or skipped with a warning: skipped ones count too, as 60,000 dangling
   * links gave 60,000 warnings on every call.
   */
  const room = counter(MAX_RESOURCES, "files");
  /** Skip `shown` with a warning, if there is room for one more entry (past the limit, the walk stops). */
  const skip = (message: string, shown: string): void => {
    if (room()) note("resource_skipped", message, shown);
  };
  const walk = (dir: string, rel: string, depth: number): void => {
    let entries: ReturnType<typeof readdirSync>;
    try {
      entries = readdirSync(dir);
    } catch (e) {
      // Named as the fs call saw it: through the recorded base, the real path.
      note("resource_skipped", `${dir} cannot be read (${fsCode(e)})`, dir);
      return;
    }
    for (const entry of entries) {
      // A limit met here or deeper ends the walk.
      if (stopped) return;
      const abs = path.join(dir, entry.name);
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      // Messages name the path as the skill is known by; fs calls go through the recorded base.
      const shown = path.join(skill.dir, relPath);
      if (entry.name.includes("\\")) {
        // resourcePath reads a backslash as a separator, so this name could be listed but never served.
        skip(`${shown} has a backslash in its name, which resource paths cannot name; not listed`, shown);
        continue;
      }
      let type = entry.type;
      let target = abs;
      if (type === "symlink") {
        if (!follow) continue;
        let real: string;
        try {
          real = realpathSync(abs);
        } catch (e) {
          skip(`symlink ${shown} points to nothing usable (${fsCode(e)}); not listed`, shown);
          continue;
        }
        if (!within(real, base)) {
          skip(`symlink ${shown} points outside the skill directory, to ${real}; not listed`, shown);
          continue;
        }
        let st: ReturnType<typeof statSync>;
        let why = "does not exist";
        try {
          st = statSync(real);
        } catch (e) {
          why = `cannot be read (${fsCode(e)})`;
        }
        if (st === undefined) {
          skip(`symlink ${shown}: its target ${real} ${why}; not listed`, shown);
          continue;
        }
        type = st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
        // Below a linked directory, fs calls go through its real path, so every walked path is real (only
        // a directory's target is used).
        target = real;
      }
      if (type === "file") {
        if (rel === "" && entry.name === manifestName) continue;
        if (room()) files.push(relPath);
      } else if (type === "dir") {
        if (!reach()) continue;
        if (depth + 1 > MAX_DEPTH) {
          note("resource_limit", `${shown} is nested deeper than ${MAX_DEPTH} levels; not listed`, shown);
          continue;
        }
        // Linked directories wait until every directory reachable without links has been walked, so
        // files are listed under their own path rather than a link's.
        if (target !== abs) linked.push([target, relPath, depth + 1]);
        else enter(target, relPath, depth + 1);
      }
    }
  };
  // Each real directory is walked once, however many links lead to it (a link back to an ancestor
  // would otherwise list the same files again, or for ever).
  const enter = (dir: string, rel: string, depth: number): void => {
    if (visited.has(dir)) return;
    visited.add(dir);
    walk(dir, rel, depth);
  };
  const linked: [string, string, number][] = [];
  // Walked from the recorded base, not through skill.dir, which could be re-pointed mid-walk.
  reach();
  enter(base, "", 0);
  for (let i = 0; i < linked.length && !stopped; i++) enter(...(linked[i] as [string, string, number]));
  // Without a comparator, sort orders by UTF-16 code units, as `<` on strings does.
  files.sort();
  return { files, warnings };
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:|[\\/]{2})/;

/**
 * The canonical path of `rel` inside `skill`'s directory, checked in the order of the README's
 * confinement table.
 * @throws {SkillError} `invalid_input`, `path_escape`, `not_found` or `not_a_file`.
 */
export function confine(skill: SkillInfo, base: string, rel: unknown, follow: boolean): string {
  const fail = (code: "invalid_input" | "path_escape" | "not_found" | "not_a_file", why: string): never => {
    throw new SkillError(
      code,
      `resource ${describeValue(rel)} of skill ${JSON.stringify(skill.name)} ${why}`,
      {
        path: typeof rel === "string" ? path.join(skill.dir, rel) : skill.dir,
        skill: skill.name,
      },
    );
  };
  if (typeof rel !== "string") return fail("invalid_input", `must be a string, received ${typeof rel}`);
  if (rel === "") return fail("invalid_input", "is empty");
  if (rel.includes("\0")) return fail("invalid_input", "contains a NUL byte");
  if (rel.startsWith("/") || rel.startsWith("\\") || WINDOWS_ABSOLUTE.test(rel) || path.isAbsolute(rel)) {
    return fail("invalid_input", "is absolute; give a path relative to the skill directory");
  }
  // Backslashes separate too, so a path means the same thing on every platform.
  const parts: string[] = [];
  for (const part of rel.split(/[\\/]/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) return fail("path_escape", "leads outside the skill directory");
    } else parts.push(part);
  }
  // Whatever stops a probe (a missing path, EACCES, EIO…) means the file cannot be served: not_found,
  // naming the path probed and why.
  const probe = <T>(p: string, fn: (p: string) => T | undefined): T => {
    let code: string | undefined;
    try {
      const result = fn(p);
      if (result !== undefined) return result;
    } catch (e) {
      code = fsCode(e);
    }
    if (code === undefined) return fail("not_found", `does not exist: ${p}`);
    const missing = code === "ENOENT" || code === "ENOTDIR";
    return fail("not_found", `${missing ? "does not exist" : "cannot be read"}: ${p} (${code})`);
  };
  // The base is the directory as discovered: a skill directory re-pointed since is refused, not followed.
  const now = probe(skill.dir, realpathSync);
  if (now !== base) {
    return fail(
      "path_escape",
      `cannot be served: the skill directory now resolves to ${now}, not ${base} as discovered`,
    );
  }
  const real = probe(path.join(base, ...parts), realpathSync);
  if (!within(real, base)) return fail("path_escape", `resolves outside the skill directory, to ${real}`);
  if (!follow) {
    for (let i = 1; i <= parts.length; i++) {
      if (probe(path.join(base, ...parts.slice(0, i)), lstatSync).isSymbolicLink()) {
        return fail("not_found", "goes through a symlink, and symlinks are not followed");
      }
    }
  }
  if (!probe(real, statSync).isFile()) return fail("not_a_file", "is not a regular file");
  return real;
}
