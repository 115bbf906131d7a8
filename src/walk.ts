// What validate's paths hold: a root or a skill (classify), the skill directories at any depth (--recursive), and the no-manifest finding when there are none.
import * as path from "node:path";
import { type Draft, finish, HINTS } from "./findings.js";
import { type DirEntry, fsCode, readdirSync, realpathSync, statSync, within } from "./fsx.js";

/** How deep below a PATH `--recursive` looks; deeper folders are not read. */
export const MAX_WALK_DEPTH = 32;
/** How many folders one PATH's walk reads at most. */
const MAX_WALK_DIRS = 100_000;

/** Folders never worth a look: installed packages and git's store hold no skill of their own. */
const SKIPPED = new Set(["node_modules", ".git"]);

const isManifest = (e: DirEntry) => e.name.toLowerCase() === "skill.md";

/** What a walk found: skill directories in sorted order, and why it stopped early or skipped a folder. */
export interface Walk {
  /** The skill directories found, in sorted depth-first order. */
  readonly skills: string[];
  /** Folders or followed symlinks that could not be read, or the PATH: not a directory, or over the folder limit. */
  readonly problems: { readonly path: string; readonly message: string }[];
}

/**
 * Every directory below `top` (itself included) that holds a `SKILL.md`, in sorted depth-first order.
 * A skill directory's own subfolders are its resources, so the walk does not enter them. Symlinked
 * folders are followed only with `follow`: one that is a skill directory is checked wherever it
 * points (as discovery would serve it), but the walk descends only into folders whose real path is
 * inside `top`'s, so a link to `/` or `..` does not walk the disk. Each real folder is read once, so a
 * symlink loop ends. At most `maxDirs` folders are read (a parameter so that a test can reach the bound).
 */
export function findSkillDirs(top: string, follow: boolean, maxDirs = MAX_WALK_DIRS): Walk {
  const skills: string[] = [];
  const problems: { path: string; message: string }[] = [];
  // A file-system refusal is a finding; fsCode rethrows anything else (a bug of ours surfaces).
  const cannotRead = (p: string, e: unknown): void => {
    problems.push({ path: p, message: `cannot be read (${fsCode(e)})` });
  };
  let base: string;
  try {
    // A root that does not exist holds nothing (presets name such roots); one that is a file is said so.
    const st = statSync(top);
    if (st === undefined) return { skills, problems };
    if (!st.isDirectory()) {
      problems.push({ path: top, message: "is not a directory" });
      return { skills, problems };
    }
    base = realpathSync(top);
  } catch (e) {
    cannotRead(top, e);
    return { skills, problems };
  }
  // A symlink is followed to a folder only; one to a file, or dangling, is no folder to search, and
  // one that cannot be resolved (a loop, a refusal) is said so.
  const isFolderLink = (link: string): boolean => {
    try {
      return statSync(link)?.isDirectory() === true;
    } catch (e) {
      cannotRead(link, e);
      return false;
    }
  };
  const seen = new Set<string>();
  let read = 0;
  const visit = (dir: string, depth: number): void => {
    let entries: DirEntry[];
    let inside: boolean;
    try {
      const real = realpathSync(dir);
      inside = within(real, base);
      if (seen.has(real)) return;
      seen.add(real);
      if (++read > maxDirs) {
        if (read === maxDirs + 1) {
          problems.push({
            path: top,
            message: `has over ${maxDirs} folders; the rest were not searched`,
          });
        }
        return;
      }
      entries = readdirSync(dir);
    } catch (e) {
      cannotRead(dir, e);
      return;
    }
    if (entries.some(isManifest)) {
      skills.push(dir);
      return;
    }
    if (depth >= MAX_WALK_DEPTH || !inside) return;
    for (const e of entries) {
      if (SKIPPED.has(e.name)) continue;
      const child = path.join(dir, e.name);
      if (e.type === "dir" || (follow && e.type === "symlink" && isFolderLink(child))) {
        visit(child, depth + 1);
      }
    }
  };
  visit(top, 0);
  return { skills, problems };
}

const draft = (rule: string, file: string, message: string): Draft => ({ rule, file, message });

/** A file name one slip away from `SKILL.md`: another case or extension, a plural, a one-letter typo. */
export function isNearMiss(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === "skill.md") return false;
  return /^skills?[._ -]?(?:md|markdown|mdx|txt|yaml|yml)$/.test(lower) || /^skil+s?\.md$/.test(lower);
}

/**
 * Up to `limit` files below `top`, at most `depth` folders down, whose names `match`: hints for a
 * report that already fails, so an unreadable folder just offers none.
 */
function filesBelow(top: string, depth: number, limit: number, match: (name: string) => boolean): string[] {
  const found: string[] = [];
  const visit = (dir: string, level: number): void => {
    let entries: DirEntry[];
    try {
      entries = readdirSync(dir);
    } catch (e) {
      fsCode(e);
      return;
    }
    for (const e of entries) {
      if (found.length >= limit) return;
      if (e.type !== "dir" && match(e.name)) found.push(path.join(dir, e.name));
      else if (e.type === "dir" && level < depth && !SKIPPED.has(e.name))
        visit(path.join(dir, e.name), level + 1);
    }
  };
  visit(top, 0);
  return found;
}

/** Up to 5 files named like a manifest but not `SKILL.md`, at most three folders below `top`. */
const nearMisses = (top: string): string[] => filesBelow(top, 3, 5, isNearMiss);

/** What a path given to validate that is no folder and no SKILL.md is, as its findings say it. */
const NOT_A_SKILL = { file: "is a file but not a SKILL.md", other: "is not a file or a directory" } as const;

/** What a path given to validate is: a root, a skill directory, or a finding that ends its check. */
export function classify(p: string): { kind: "root" | "skill"; dir: string } | Draft {
  try {
    const st = statSync(p);
    if (st === undefined) return draft("path-missing", p, "does not exist");
    if (!st.isDirectory()) {
      // A SKILL.md that is no regular file (a FIFO) is its folder's skill too: that check says what is wrong.
      if (path.basename(p).toLowerCase() === "skill.md") return { kind: "skill", dir: path.dirname(p) };
      return draft("not-a-skill", p, `${NOT_A_SKILL[st.isFile() ? "file" : "other"]}; skipped`);
    }
    const holdsManifest = readdirSync(p).some((e) => e.name.toLowerCase() === "skill.md");
    return { kind: holdsManifest ? "skill" : "root", dir: p };
  } catch (e) {
    return draft("unreadable", p, `cannot be read (${fsCode(e)})`);
  }
}

/**
 * What is at `p`: nothing, a folder (or a link to one), a regular file, or something else; one that
 * cannot be stat'ed counts as a folder (the walk's finding says why).
 */
function kindAt(p: string): "nothing" | "folder" | "file" | "other" {
  try {
    const st = statSync(p);
    if (st === undefined) return "nothing";
    return st.isDirectory() ? "folder" : st.isFile() ? "file" : "other";
  } catch (e) {
    fsCode(e);
    return "folder";
  }
}

const HINT_MISSING_ROOT = "check --root, --workspace and --home: agent-skills roots shows where it looks";

/**
 * Checking nothing is a failure: a CI gate pointed one folder too high must not pass. `asRoots`: every
 * path was taken as a root, where only a folder of skill directories will do.
 */
export function nothingChecked(
  p: string,
  drafts: readonly Draft[],
  recursive: boolean,
  asRoots: boolean,
): Draft | undefined {
  // An error under the path already fails the run and says more.
  if (drafts.some((d) => within(d.file, p) && finish(d).severity === "error")) return undefined;
  const kind = kindAt(p);
  if (kind === "nothing") {
    return { ...draft("no-manifest", p, "does not exist, so nothing was checked"), hint: HINT_MISSING_ROOT };
  }
  // A file or a FIFO: nothing can be "found in it". As a root only a folder will do; as a PATH, a
  // SKILL.md too (which, whatever its kind, was checked as its folder's skill).
  if (kind === "file" && asRoots) {
    const message = "is a file, not a folder of skill directories, so nothing was checked";
    return { ...draft("no-manifest", p, message), hint: HINTS.root_not_directory as string };
  }
  if (kind === "file" && path.basename(p).toLowerCase() === "skill.md") {
    // Checked as its folder's skill, which discovery did not take (a symlink, not followed).
    const message =
      "is a SKILL.md whose folder held no skill to check (see its finding), so nothing was checked";
    return { ...draft("no-manifest", p, message), hint: HINTS["not-a-skill"] as string };
  }
  if (kind !== "folder") {
    return {
      ...draft("no-manifest", p, `${NOT_A_SKILL[kind]}, so nothing was checked`),
      hint: HINTS["not-a-skill"] as string,
    };
  }
  // Near misses and deeper manifests lie below `p`, never at it.
  const rel = (f: string) => JSON.stringify(path.relative(p, f));
  const near = nearMisses(p);
  if (near.length > 0) {
    const found = `found ${near.map(rel).join(", ")}: a manifest must be named SKILL.md`;
    return {
      ...draft("no-manifest", p, `no SKILL.md was found, so nothing was checked; ${found}`),
      hint: "rename the file to SKILL.md",
    };
  }
  if (recursive) {
    return {
      ...draft("no-manifest", p, "no SKILL.md was found at any depth below it, so nothing was checked"),
      hint: "check the path: each skill is a folder holding a SKILL.md",
    };
  }
  // Manifests deeper than <PATH>/<name>/SKILL.md: a plugin repository, or a PATH one folder too high.
  const deeper = filesBelow(p, 6, 1, (n) => n.toLowerCase() === "skill.md")[0];
  const message = "no skill directory (<name>/SKILL.md) was found in it, so nothing was checked";
  return deeper === undefined
    ? {
        ...draft("no-manifest", p, message),
        hint: "give the folder of skill directories, or a skill directory",
      }
    : {
        ...draft("no-manifest", p, `${message}; a SKILL.md lies deeper (${rel(deeper)})`),
        hint: "add --recursive, or give the folder that holds the skill directories",
      };
}
