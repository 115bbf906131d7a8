// The scan's records and its cache: what one scan found per root and directory, and the memo that lets
// the next scan skip what did not change. Types and the scan context only, shared by scan.ts and inspect.ts.
import type { DirEntry, Stat } from "./fsx.js";
import type { ManifestOutcome } from "./skill.js";
import type { SkillConfig, SkillWarning } from "./types.js";

/** A directory that holds a manifest, with what the manifest amounted to. */
export interface Candidate {
  readonly kind: "candidate";
  /** The directory's name under the root. */
  readonly dirName: string;
  readonly dir: string;
  readonly path: string;
  /** File signature of the manifest read; "" when it could not be read. */
  readonly sig: string;
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
export type ScanItem = Candidate | { readonly kind: "warning"; readonly warning: SkillWarning };

/** The entry of a skill directory taken as its manifest, and the warning when there were several. */
export interface Listing {
  /** `symlink` is unknown (undefined) when the listing was taken without entry types. */
  readonly chosen: { readonly name: string; readonly symlink: boolean | undefined } | undefined;
  readonly warnings: readonly SkillWarning[];
}

/** What a skill directory gave at a scan, reused by the next while its signatures are unchanged. */
export interface DirMemo {
  /** The directory's signature when its listing was taken; "" when it changed too recently to vouch for. */
  readonly dirSig: string;
  readonly listing: Listing;
  /** The manifest's signature when `item` came from reading it; "" when it must be read again. */
  readonly fileSig: string;
  readonly item: Candidate | undefined;
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

/** One scan's state: the config, the cache it reads and the one it fills. */
export interface Context {
  readonly config: SkillConfig;
  readonly previous: ScanCache;
  readonly next: { readonly dirs: Map<string, DirMemo>; readonly roots: Map<string, RootMemo> };
  /** Signatures of changes after these instants (ms) are not trusted: [fine-grained, whole-second] timestamps. */
  readonly after: readonly [number, number];
}

/** The state of a scan that starts now. */
export function context(config: SkillConfig, previous: ScanCache): Context {
  const now = Date.now();
  return { config, previous, next: { dirs: new Map(), roots: new Map() }, after: [now - 100, now - 2000] };
}

/**
 * A change within the file system's timestamp granularity of a read may leave the signature as it
 * was (the "racy" case), so a signature that recent is not trusted: the next scan reads again.
 * Timestamps in whole seconds mean a coarse file system (FAT, HFS+, some network mounts).
 */
export function trusted(ctx: Context, st: Stat): string {
  return st.changed > ctx.after[st.changed % 1000 === 0 ? 1 : 0] ? "" : st.sig;
}

/** What a root's listing gave at a scan, reused by the next while the root's signature is unchanged. */
interface RootMemo {
  /** The root's signature when it was listed; "" when it changed too recently to vouch for. */
  readonly sig: string;
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
