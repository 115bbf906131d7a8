// A skill directory's entries and its manifest's read → the candidate: which entry is the manifest, what
// its read amounts to (parsed once a scan), and the warnings a candidate carries about itself.
import * as path from "node:path";
import {
  type DirEntry,
  type FsTask,
  fsCode,
  GONE,
  lstat,
  MAX_MANIFEST_BYTES,
  type ManifestRead,
  type Stat,
  sameStat,
} from "./fsx.js";
import type { Candidate, Context, FileRead, Listing, ScanItem } from "./scancache.js";
import { type ManifestOutcome, parseManifest, sameOutcome } from "./skill.js";
import type { SkillWarning } from "./types.js";
import { warning } from "./warnings.js";

/**
 * `name` under `dir`; names from readdir hold no separator, so no normalisation is needed. join makes
 * one flat string, cheaper for the GC to keep than the rope that `+` builds.
 */
export function child(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : [dir, name].join(path.sep);
}

/** The manifest size limit as messages say it, from the constant itself. */
const LIMIT = `${MAX_MANIFEST_BYTES / (1024 * 1024)} MiB`;

/** A scan item that is only a warning, after those of `before` (a directory's listing). */
export const warn = (
  code: Parameters<typeof warning>[0],
  message: string,
  p?: string,
  before: readonly SkillWarning[] = [],
): ScanItem => ({
  kind: "warning",
  warnings: [...before, warning(code, message, p)],
});

const NONE: readonly SkillWarning[] = Object.freeze([]);
const NO_MANIFEST: Listing = Object.freeze({ chosen: undefined, warnings: NONE });
const JUST_SKILL_MD: Listing = Object.freeze({
  chosen: { name: "SKILL.md", symlink: undefined },
  warnings: NONE,
});
const JUST_SKILL_MD_NOT_LINK: Listing = Object.freeze({
  chosen: { name: "SKILL.md", symlink: false },
  warnings: NONE,
});

// SKILL.md itself is told without lower-casing a copy of the name.
const isManifest = (name: string) =>
  name.length === 8 && (name === "SKILL.md" || name.toLowerCase() === "skill.md");

/**
 * The manifest among the entry names of a skill directory: `SKILL.md` if present, else the first by
 * code-unit order, with a warning when there are several. `names` leaves symlinks out unless they are
 * followed (then the cheaper untyped listing is enough, and whether the chosen one is a link is unknown).
 */
export function chooseManifest(dir: string, names: readonly string[], follow: boolean): Listing {
  // Almost every directory holds exactly SKILL.md: those share one frozen listing, found without lists.
  // By index: a for-of loop's iterator results are allocated in the unoptimized code a scan mostly runs.
  let count = 0;
  for (let i = 0; i < names.length; i++) if (isManifest(names[i] as string)) count++;
  if (count === 0) return NO_MANIFEST;
  if (count === 1 && names.includes("SKILL.md")) return follow ? JUST_SKILL_MD : JUST_SKILL_MD_NOT_LINK;
  const manifests = names.filter(isManifest).sort();
  const name = manifests.includes("SKILL.md") ? "SKILL.md" : (manifests[0] as string);
  const chosen = { name, symlink: follow ? undefined : false };
  if (manifests.length === 1) return { chosen, warnings: NONE };
  const message = `${dir} has several manifests (${manifests.join(", ")}); using ${name}`;
  return { chosen, warnings: [warning("multiple_manifests", message, child(dir, name))] };
}

/** The names of `entries` that are not symlinks: what a listing that does not follow them sees. */
export const linksLeftOut = (entries: readonly DirEntry[]) =>
  entries.filter((e) => e.type !== "symlink").map((e) => e.name);

/** What the scan makes of a manifest read just now, or refused (then it has no signature). */
export function outcomeOf(ctx: Context, read: ManifestRead): ManifestOutcome {
  if (read.kind === "not_regular")
    return { ok: false, problem: "file", message: `is ${read.what}, not a regular file` };
  if (read.kind === "too_large")
    return { ok: false, problem: "file", message: `is ${read.size} bytes, over the ${LIMIT} limit` };
  // "known" only for a signature this scan's map holds: the same file, read through another path.
  if (read.kind === "known") return parsed(ctx, ctx.read.get(read.stat.ino) as FileRead);
  return parsed(ctx, recordRead(ctx, read));
}

/** Remember a manifest read by this scan, before its parse: another path to the file is not read again. */
export function recordRead(ctx: Context, read: Extract<ManifestRead, { kind: "ok" }>): FileRead {
  const file: FileRead = { stat: read.stat, bytes: read.bytes, outcome: undefined };
  ctx.read.set(read.stat.ino, file);
  return file;
}

/** What a file this scan read amounts to: parsed the first time it is asked for, then remembered. */
export function parsed(ctx: Context, file: FileRead): ManifestOutcome {
  file.outcome ??= parseManifest(file.bytes, !ctx.strict);
  return file.outcome;
}

/** The signature of a manifest read (whatever its age); undefined for a refused one. */
export const statOfRead = (read: ManifestRead) =>
  read.kind === "ok" || read.kind === "known" ? read.stat : undefined;

/**
 * A manifest whose read threw errno `e`: gone (or a dangling or looping link) is a warning item, the
 * listing's own warning (several manifests) kept, since it tells of the one that was not chosen; any
 * other error is the outcome "cannot be read".
 */
export function* readFailed(
  file: string,
  symlink: boolean | undefined,
  listing: Listing,
  e: unknown,
): FsTask<ScanItem | { readonly kind: "outcome"; readonly outcome: ManifestOutcome }> {
  const code = fsCode(e);
  if (!GONE.has(code))
    return { kind: "outcome", outcome: { ok: false, problem: "file", message: `cannot be read (${code})` } };
  let link = symlink;
  try {
    link ??= (yield* lstat(file)) === "symlink";
  } catch (e2) {
    // Gone between the two calls: the manifest itself vanished, whatever it was.
    fsCode(e2);
    link = false;
  }
  return link
    ? warn(
        "dangling_symlink",
        `manifest symlink ${file} points to nothing usable (${code}); skipped`,
        file,
        listing.warnings,
      )
    : warn(
        "unreadable",
        `manifest ${file} vanished during the scan (${code}); skipped`,
        file,
        listing.warnings,
      );
}

/**
 * The revision a candidate read under signature `stat` gets. A re-read under the last read's signature
 * happens when that read could not be trusted (the file changed within its timestamps' granularity):
 * the same content keeps the last revision; other content, as a same-size edit within a second gives
 * on a coarse file system, gets the next, so that its catalog entry, the search index and `refresh()`'s
 * `changed` see the edit. The signature names the file too (device and inode): another file never matches.
 */
export function revised(last: Candidate | undefined, stat: Stat, outcome: ManifestOutcome): number {
  if (last === undefined || !sameStat(last.stat, stat)) return 0;
  return sameOutcome(last.outcome, outcome) ? last.revision : last.revision + 1;
}

export function candidate(
  name: string,
  dir: string,
  file: string,
  stat: Stat | undefined,
  revision: number,
  real: string,
  outcome: ManifestOutcome,
  listed: readonly SkillWarning[],
): Candidate {
  // Most candidates carry no warning of their own: they keep the listing's (mostly the shared empty one).
  const own = outcome.ok && (outcome.repaired || outcome.fields.toolsIgnored || outcome.fields.name !== name);
  return {
    kind: "candidate",
    dirName: name,
    dir,
    path: file,
    stat,
    revision,
    real,
    outcome,
    warnings: own ? [...listed, ...notes(name, file, outcome)] : listed,
  };
}

/** The warnings a valid candidate carries about itself: a repair, an ignored `tools`, a name mismatch. */
function notes(name: string, file: string, outcome: Extract<ManifestOutcome, { ok: true }>): SkillWarning[] {
  const skill = outcome.fields.name;
  const out: SkillWarning[] = [];
  const note = (code: "yaml_repaired" | "tools_ignored" | "name_mismatch", text: string) =>
    out.push(warning(code, `${file}: ${text}`, file, skill));
  if (outcome.repaired)
    note(
      "yaml_repaired",
      `frontmatter is not valid YAML; loaded after quoting plain values that contain ": " or start with a character YAML reserves`,
    );
  if (outcome.fields.toolsIgnored) {
    const why = "is not a string or a list of strings, so it does not set allowedTools; kept in metadata";
    note("tools_ignored", `"tools" ${why}`);
  }
  if (skill !== name)
    note("name_mismatch", `name "${skill}" differs from its directory "${name}"; loaded as "${skill}"`);
  return out;
}
