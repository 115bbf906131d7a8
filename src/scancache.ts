// The scan's records and its cache: what one scan found per root and directory, and the memo that lets
// the next scan skip what did not change. Types and the scan context only, shared by scan.ts and inspect.ts.
import * as path from "node:path";
import { type DirEntry, type Stat, sameStat } from "./fsx.js";
import type { ManifestOutcome } from "./skill.js";
import type { SkillConfig, SkillWarning } from "./types.js";

/** A directory that holds a manifest, with what the manifest amounted to. */
export interface Candidate {
  readonly kind: "candidate";
  /** The directory's name under the root. */
  readonly dirName: string;
  readonly dir: string;
  readonly path: string;
  /** The manifest's signature when it was read (whatever its age); undefined when it could not be read. */
  readonly stat: Stat | undefined;
  /**
   * Bumped when the file was read again under the very signature of the last read (a change within
   * its timestamps' granularity) and gave other content: so that the catalog entry, the search index
   * and `refresh()`'s `changed` see the edit. 0 otherwise.
   */
  readonly revision: number;
  /**
   * The directory's real path when the manifest was read (valid candidates only, else ""): the base
   * that confines its resources, so that re-pointing the directory later cannot move it.
   */
  readonly real: string;
  readonly outcome: ManifestOutcome;
  /** Warnings about this candidate that do not decide its fate (several manifests, repair, name mismatch). */
  readonly warnings: readonly SkillWarning[];
}

/** One root's findings in sorted directory order: candidates, and warnings where they arose. */
export type ScanItem = Candidate | { readonly kind: "warning"; readonly warnings: readonly SkillWarning[] };

/** The entry of a skill directory taken as its manifest, and the warning when there were several. */
export interface Listing {
  /** `symlink` is unknown (undefined) when the listing was taken without entry types. */
  readonly chosen: { readonly name: string; readonly symlink: boolean | undefined } | undefined;
  readonly warnings: readonly SkillWarning[];
}

/** What a skill directory gave at a scan, reused by the next while its signatures are unchanged. */
export interface DirMemo {
  /** The directory's signature when its listing was taken; undefined when not taken or too recent to vouch for. */
  readonly dirStat: Stat | undefined;
  readonly listing: Listing;
  /** The manifest's signature when `item` came from reading it; undefined when it must be read again. */
  readonly fileStat: Stat | undefined;
  readonly item: Candidate | undefined;
  /** The `after` instants of the scan that took `listing`: a directory not changed since still has it. */
  readonly listedAfter: readonly [number, number];
}

/** What the last scan learned, handed to the next: the memory that makes `refresh` cheap. */
export interface ScanCache {
  /** By skill directory path. */
  readonly dirs: ReadonlyMap<string, DirMemo>;
  /** By root path. */
  readonly roots: ReadonlyMap<string, RootMemo>;
}

/** A cache that knows nothing: the first scan's. */
export const NO_CACHE: ScanCache = { dirs: new Map(), roots: new Map() };

/**
 * Where a watcher saw changes since the last scan. With a hint, a root or skill directory it does not
 * name is taken from the last scan as it is, without a look, as long as that scan could vouch for it
 * (its signatures were old enough to trust); what it names is checked as usual.
 */
export interface ScanHint {
  /** Roots whose listing may have changed. */
  readonly roots: ReadonlySet<string>;
  /** Skill directories whose listing or manifest may have changed. */
  readonly dirs: ReadonlySet<string>;
  /** Roots every directory of which must be checked. */
  readonly wholeRoots: ReadonlySet<string>;
}

/** One scan's state: the options it needs, the cache it reads and the one it fills. */
export interface Context {
  /** The config's `followSymlinks`. */
  readonly follow: boolean;
  /** The config's `strict`. */
  readonly strict: boolean;
  readonly previous: ScanCache;
  readonly hint: ScanHint | undefined;
  readonly next: { readonly dirs: Map<string, DirMemo>; readonly roots: Map<string, RootMemo> };
  /** Signatures of changes after these instants (ms) are not trusted: [fine-grained, whole-second] timestamps. */
  readonly after: readonly [number, number];
  /**
   * Each manifest file read by this scan, by inode: a file behind several paths (symlinks, hard links)
   * is read and parsed once a scan. 1,000 links to one 1 MiB manifest held 1 GB.
   */
  readonly read: Map<number, FileRead>;
}

/**
 * A manifest file a scan has read: the signature it was read under, and what it amounts to, parsed on
 * first need (candidate.ts `parsed`). The sync scan reads a root's manifests before it parses any, so
 * the record is made at the read, with its bytes, and serves the parse pass and any other path to the
 * file alike: one map entry a file, not one for the reads pending their parse and another for the
 * parsed files.
 */
export interface FileRead {
  readonly stat: Stat;
  /** The bytes read (a valid outcome's body is a view of them; the record goes with its scan). */
  readonly bytes: Buffer;
  /** Undefined until parsed. */
  outcome: ManifestOutcome | undefined;
}

/**
 * A scan's {@link Context}, a class for the sake of the optimizing compiler: the scan's hot functions
 * are compiled against the shape of the context they are handed. A shape that only this scan's object
 * held is freed with it at the next full GC, and every function compiled against it is thrown away and
 * compiled again at the next scan (8 functions, some 50 ms of CPU per discovery of the 2,360-skill
 * corpus). So one instance, `keeper`, lives as long as the module and keeps the shape alive; and the
 * context copies the two options the scan reads rather than holding the frozen config, whose shape
 * dies with each `createAgentSkills` call's config for the same reason.
 */
class ScanContext implements Context {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: held only to keep the shape alive (above).
  private static readonly keeper = new ScanContext(
    { followSymlinks: true, strict: false },
    NO_CACHE,
    undefined,
    0,
  );
  readonly follow: boolean;
  readonly strict: boolean;
  readonly next = { dirs: new Map<string, DirMemo>(), roots: new Map<string, RootMemo>() };
  readonly after: readonly [number, number];
  readonly read = new Map<number, FileRead>();

  constructor(
    config: Pick<SkillConfig, "followSymlinks" | "strict">,
    readonly previous: ScanCache,
    readonly hint: ScanHint | undefined,
    now: number,
  ) {
    this.follow = config.followSymlinks;
    this.strict = config.strict;
    this.after = [now - 100, now - 2000];
  }
}

/** The state of a scan that starts now. */
export function context(config: SkillConfig, previous: ScanCache, hint?: ScanHint): Context {
  return new ScanContext(config, previous, hint, Date.now());
}

/**
 * What the last scan found in a directory the hint does not name and could vouch for (its signatures
 * were old enough to trust), carried over without a look; `false` when the directory must be inspected.
 */
export function unhinted(ctx: Context, dir: string): { readonly item: Candidate | undefined } | false {
  const { hint } = ctx;
  if (hint === undefined || hint.dirs.has(dir) || hint.wholeRoots.has(path.dirname(dir))) return false;
  const prev = ctx.previous.dirs.get(dir);
  if (
    prev === undefined ||
    prev.dirStat === undefined ||
    (prev.listing.chosen !== undefined && prev.fileStat === undefined)
  )
    return false;
  ctx.next.dirs.set(dir, prev);
  return prev;
}

/** Whether a hint lets a root's last listing (taken with signature `stat`) be used without a look. */
export function unhintedRoot(ctx: Context, root: string, stat: Stat | undefined): boolean {
  return ctx.hint !== undefined && !ctx.hint.roots.has(root) && stat !== undefined;
}

/**
 * A change within the file system's timestamp granularity of a read may leave the signature as it
 * was (the "racy" case), so a signature that recent is not trusted: the next scan reads again.
 * Timestamps in whole seconds mean a coarse file system (FAT, HFS+, some network mounts).
 */
export function trusted(ctx: Context, st: Stat): Stat | undefined {
  return settled(ctx.after, st) ? st : undefined;
}

/** Whether `st` shows no change after the `after` instants of a scan (see {@link trusted}). */
export function settled(after: readonly [number, number], st: Stat): boolean {
  const changed = Math.max(st.mtimeMs, st.ctimeMs);
  return changed <= after[changed % 1000 === 0 ? 1 : 0];
}

/** Whether two trusted signatures (undefined: none) are the same: both none, or the same file state. */
export const sameTrusted = (a: Stat | undefined, b: Stat | undefined): boolean => a === b || sameStat(a, b);

/** What a root's listing gave at a scan, reused by the next while the root's signature is unchanged. */
interface RootMemo {
  /** The root's signature when it was listed; undefined when it changed too recently to vouch for. */
  readonly stat: Stat | undefined;
  /** The listing's entries when some are symlinks (`links`), for the next scan to resolve again; else none. */
  readonly entries: readonly DirEntry[];
  /** What the entries gave, reusable as they are when no entry is a symlink (whose target may change). */
  readonly slots: readonly Slot[];
  readonly links: boolean;
}

/** A skill directory to inspect, or a finding about a root entry. */
export type Slot =
  | {
      readonly kind: "dir";
      readonly name: string;
      readonly dir: string;
      /** Its real path when the listing vouches for it (a plain directory under the root's real path); "" to ask. */
      readonly real: string;
    }
  | ScanItem;
