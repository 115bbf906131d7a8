// Folders below a path → the skill directories in them at any depth (validate --recursive), and the near-miss manifest names when there are none.
import * as path from "node:path";
import { describeError } from "./errors.js";
import { type Entry, readdirSync, realpathSync } from "./fsx.js";

/** How deep below a PATH `--recursive` looks; deeper folders are not read. */
export const MAX_WALK_DEPTH = 32;
/** How many folders one PATH's walk reads at most. */
export const MAX_WALK_DIRS = 100_000;

/** Folders never worth a look: installed packages and git's store hold no skill of their own. */
const SKIPPED = new Set(["node_modules", ".git"]);

const isManifest = (e: Entry) => e.name.toLowerCase() === "skill.md";

/** What a walk found: skill directories in sorted order, and why it stopped early or skipped a folder. */
export interface Walk {
  readonly skills: string[];
  readonly problems: { readonly path: string; readonly message: string }[];
}

/**
 * Every directory below `top` (itself included) that holds a `SKILL.md`, in sorted depth-first order.
 * A skill directory's own subfolders are its resources, so the walk does not enter them. Symlinked
 * folders are followed only with `follow`, and each real folder is read once, so a symlink loop ends.
 */
export function findSkillDirs(top: string, follow: boolean): Walk {
  const skills: string[] = [];
  const problems: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  let read = 0;
  const visit = (dir: string, depth: number): void => {
    let entries: Entry[];
    try {
      const real = realpathSync(dir);
      if (seen.has(real)) return;
      seen.add(real);
      if (++read > MAX_WALK_DIRS) {
        if (read === MAX_WALK_DIRS + 1) {
          problems.push({
            path: top,
            message: `has over ${MAX_WALK_DIRS} folders; the rest were not searched`,
          });
        }
        return;
      }
      entries = readdirSync(dir);
    } catch (e) {
      problems.push({ path: dir, message: `cannot be read (${describeError(e)})` });
      return;
    }
    if (entries.some(isManifest)) {
      skills.push(dir);
      return;
    }
    if (depth >= MAX_WALK_DEPTH) return;
    for (const e of entries) {
      if (SKIPPED.has(e.name)) continue;
      if (e.type === "dir" || (follow && e.type === "symlink")) visit(path.join(dir, e.name), depth + 1);
    }
  };
  visit(top, 0);
  return { skills, problems };
}

/** A file name one slip away from `SKILL.md`: another case or extension, a plural, a one-letter typo. */
export function isNearMiss(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === "skill.md") return false;
  return /^skills?[._ -]?(?:md|markdown|mdx|txt|yaml|yml)$/.test(lower) || /^skil+s?\.md$/.test(lower);
}

/** Up to `limit` files named like a manifest but not `SKILL.md`, at most two folders below `top`. */
export function nearMisses(top: string, limit = 5): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: Entry[];
    try {
      entries = readdirSync(dir);
    } catch {
      // Only a hint for a report that already fails; an unreadable folder just offers none.
      return;
    }
    for (const e of entries) {
      if (found.length >= limit) return;
      if (e.type !== "dir" && isNearMiss(e.name)) found.push(path.join(dir, e.name));
      else if (e.type === "dir" && depth < 2 && !SKIPPED.has(e.name))
        visit(path.join(dir, e.name), depth + 1);
    }
  };
  visit(top, 0);
  return found;
}
