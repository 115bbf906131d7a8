// One skill directory → its candidate, reusing what the last scan learned while the signatures hold: the
// generator both drivers run, and the plain paths a first look and an unchanged directory take.

import {
  candidate,
  child,
  chooseManifest,
  linksLeftOut,
  outcomeOf,
  parsed,
  readFailed,
  recordRead,
  revised,
  statOfRead,
  warn,
} from "./candidate.js";
import {
  type DirEntry,
  type FsTask,
  fsCode,
  type ManifestRead,
  readManifestNow,
  type Stat,
  sameStat,
  stat as statOf,
} from "./fsx.js";
import {
  type Candidate,
  type Context,
  type DirMemo,
  type FileRead,
  type Listing,
  type ScanItem,
  sameTrusted,
  settled,
  trusted,
} from "./scancache.js";
import type { ManifestOutcome } from "./skill.js";

/** Stats a caller took before handing a directory to {@link inspect}, which then does not take them again. */
export interface Taken {
  readonly dir: Stat;
  readonly file?: Stat;
}

/** The last listing of a directory holds. */
export const HOLDS = 0;
/** It holds if the manifest it chose is the very file read then. */
export const IF_MANIFEST_HOLDS = 1;
/** It may not hold: list again. */
export const CHANGED = 2;

/**
 * Whether the listing `prev` took still holds, the directory's stat taken now and `dirTrusted` that
 * stat if trusted. The first scan lists a directory without its signature: one whose last change is older
 * than that listing still has it, as long as its manifest is the very file read then (a directory
 * swapped for another holds none of its files). No listing again then, which made the first refresh
 * cost 0.58x a scan against 0.25x for the later ones.
 */
export function listingHolds(prev: DirMemo, dirStat: Stat, dirTrusted: Stat | undefined): number {
  if (sameStat(dirTrusted, prev.dirStat)) return HOLDS;
  return prev.dirStat === undefined && settled(prev.listedAfter, dirStat) ? IF_MANIFEST_HOLDS : CHANGED;
}

/**
 * What a directory whose listing holds and whose manifest is the very file the last scan read gives:
 * the same candidate, remembered again (the same memo when its signature was already known).
 */
export function unchanged(
  ctx: Context,
  dir: string,
  prev: DirMemo & { readonly item: Candidate },
  dirTrusted: Stat | undefined,
): Candidate {
  if (sameTrusted(dirTrusted, prev.dirStat)) {
    ctx.next.dirs.set(dir, prev);
    return prev.item;
  }
  const { listing, fileStat, item, listedAfter } = prev;
  return keep(ctx, dir, prev, { dirStat: dirTrusted, listing, fileStat, item, listedAfter }) as Candidate;
}

/**
 * One skill directory (`name` under its root): its manifest chosen, read and parsed, reusing what the
 * previous scan learned while the signatures hold. `undefined` when it holds no manifest. `knownReal`
 * is the directory's real path when the root's listing vouches for it; otherwise it is resolved here.
 */
export function* inspect(
  ctx: Context,
  name: string,
  dir: string,
  knownReal = "",
  taken?: Taken,
): FsTask<ScanItem | undefined> {
  const prev = ctx.previous.dirs.get(dir);
  let dirTrusted: Stat | undefined;
  let listing: Listing | undefined;
  let listedAfter = ctx.after;
  // Whether the manifest of `prev` was just seen unchanged (the read below can skip its stat) or changed
  // (it is read without a second stat); undefined when it was not looked at or could not be stat'ed.
  let fileSeen: boolean | undefined;
  // The directory's signature is taken before its listing, so a change after this point shows next
  // time; and only once the directory has been seen, which keeps the first scan to the I/O it needs.
  if (prev !== undefined) {
    let dirStat: Stat;
    try {
      dirStat = taken?.dir ?? (yield* statOf(dir));
    } catch (e) {
      // As when the listing fails: this scan cannot vouch for the directory.
      return unreadableDir(dir, e);
    }
    dirTrusted = trusted(ctx, dirStat);
    const holds = listingHolds(prev, dirStat, dirTrusted);
    if (holds === HOLDS) ({ listing, listedAfter } = prev);
    else if (holds === IF_MANIFEST_HOLDS) {
      fileSeen =
        taken?.file !== undefined ? sameStat(taken.file, prev.fileStat) : yield* unchangedManifest(prev);
      if (fileSeen) ({ listing, listedAfter } = prev);
    }
  }
  // Listed just now (not reused from the memo): the async driver may then open the manifest in place.
  const listed = listing === undefined;
  if (listing === undefined) {
    const follow = ctx.follow;
    // Ops are yielded directly rather than through the typed helpers of fsx.ts: a generator fewer each.
    try {
      listing = follow
        ? chooseManifest(dir, (yield { op: "names", path: dir }) as string[], true)
        : chooseManifest(dir, linksLeftOut((yield { op: "readdir", path: dir }) as DirEntry[]), false);
    } catch (e) {
      return unreadableDir(dir, e);
    }
  }
  const { chosen } = listing;
  if (chosen === undefined)
    return keep(ctx, dir, prev, {
      dirStat: dirTrusted,
      listing,
      fileStat: undefined,
      item: undefined,
      listedAfter,
    });
  const file = child(dir, chosen.name);
  let fileStat: Stat | undefined;
  let stat: Stat | undefined;
  let revision = 0;
  let real = "";
  let outcome: ManifestOutcome | undefined;
  try {
    if (checkable(prev) && prev.item.path === file && fileSeen !== false) {
      const before = prev.item;
      if (fileSeen || sameStat(taken?.file ?? (yield* statOf(file)), prev.fileStat)) {
        // Same listing, same file: the very same candidate, which lets the registry skip the merge.
        if (listing === prev.listing)
          return keep(ctx, dir, prev, {
            dirStat: dirTrusted,
            listing,
            fileStat: prev.fileStat,
            item: before,
            listedAfter,
          });
        ({ stat, revision, outcome, real } = before);
        fileStat = prev.fileStat;
      }
    }
    if (outcome === undefined) {
      const noFollow = !ctx.follow;
      const op = { op: "readManifest", path: file, noFollow, listed, known: ctx.read } as const;
      const read = (yield op) as ManifestRead;
      outcome = outcomeOf(ctx, read);
      stat = statOfRead(read);
      fileStat = stat === undefined ? undefined : trusted(ctx, stat);
      if (stat !== undefined) {
        if (outcome.ok)
          real = knownReal !== "" ? knownReal : ((yield { op: "realpath", path: dir }) as string);
        revision = revised(prev?.item, stat, outcome);
      }
    }
  } catch (e) {
    const failed = yield* readFailed(file, chosen.symlink, listing, e);
    if (failed.kind === "warning") return failed;
    outcome = failed.outcome;
  }
  const item = candidate(name, dir, file, stat, revision, real, outcome, listing.warnings);
  return keep(ctx, dir, prev, { dirStat: dirTrusted, listing, fileStat, item, listedAfter });
}

/**
 * The I/O of {@link inspectListed}: the manifest chosen among a directory's entry names, and its read,
 * or what the read threw (then `got` is undefined). No manifest: no `file` and no read. A file read
 * whole is `recorded` in the scan's map of files, to be parsed by {@link finishListed}.
 */
export interface ListedRead {
  readonly listing: Listing;
  readonly file: string;
  readonly got: ManifestRead | undefined;
  readonly recorded: FileRead | undefined;
  readonly error: unknown;
}

/**
 * The first half of {@link inspectListed}: read the manifest `listing` chose (among entry names listed
 * with symlinks followed) and record it. The sync scan parses it only in its next pass: until then the
 * record answers for the file to its other paths (see `Context.read`).
 */
export function readListed(ctx: Context, dir: string, listing: Listing): ListedRead {
  const { chosen } = listing;
  if (chosen === undefined)
    return { listing, file: "", got: undefined, recorded: undefined, error: undefined };
  const file = child(dir, chosen.name);
  try {
    const got = readManifestNow(file, false, ctx.read);
    const recorded = got.kind === "ok" ? recordRead(ctx, got) : undefined;
    return { listing, file, got, recorded, error: undefined };
  } catch (e) {
    fsCode(e);
    return { listing, file, got: undefined, recorded: undefined, error: e };
  }
}

/**
 * The second half of {@link inspectListed}: what the read gave, parsed, as the directory's item and
 * memo. A failed read is told by {@link readFailed}, run by the caller's driver (`failed`).
 */
export function finishListed(
  ctx: Context,
  name: string,
  dir: string,
  real: string,
  { listing, file, got, recorded, error }: ListedRead,
): ScanItem | undefined | { readonly kind: "failed"; readonly task: FsTask<ScanItem | undefined> } {
  const after = ctx.after;
  if (listing.chosen === undefined)
    return keep(ctx, dir, undefined, {
      dirStat: undefined,
      listing,
      fileStat: undefined,
      item: undefined,
      listedAfter: after,
    });
  if (got === undefined) return { kind: "failed", task: failedItem(ctx, name, dir, file, listing, error) };
  const outcome = recorded !== undefined ? parsed(ctx, recorded) : outcomeOf(ctx, got);
  const stat = statOfRead(got);
  const fileStat = stat === undefined ? undefined : trusted(ctx, stat);
  const item = candidate(
    name,
    dir,
    file,
    stat,
    0,
    stat !== undefined && outcome.ok ? real : "",
    outcome,
    listing.warnings,
  );
  return keep(ctx, dir, undefined, { dirStat: undefined, listing, fileStat, item, listedAfter: after });
}

/**
 * {@link inspect} of a directory the last scan did not see (it has no memo), its entry names just
 * listed (symlinks followed) and its real path known: the same item and memo, written as plain
 * functions. Discovery meets almost every directory this way, and the generator and its driver cost
 * ~3 µs a skill (a tenth of a scan). The sync scan calls the two halves itself, in separate passes.
 */
export function inspectListed(
  ctx: Context,
  name: string,
  dir: string,
  real: string,
  names: readonly string[],
): ReturnType<typeof finishListed> {
  return finishListed(ctx, name, dir, real, readListed(ctx, dir, chooseManifest(dir, names, true)));
}

/** {@link inspectListed}'s end when the read threw: what {@link inspect} makes of the same failure. */
function* failedItem(
  ctx: Context,
  name: string,
  dir: string,
  file: string,
  listing: Listing,
  e: unknown,
): FsTask<ScanItem | undefined> {
  const failed = yield* readFailed(
    file,
    (listing.chosen as { symlink: boolean | undefined }).symlink,
    listing,
    e,
  );
  if (failed.kind === "warning") return failed;
  const item = candidate(name, dir, file, undefined, 0, "", failed.outcome, listing.warnings);
  return keep(ctx, dir, undefined, {
    dirStat: undefined,
    listing,
    fileStat: undefined,
    item,
    listedAfter: ctx.after,
  });
}

/** The warning for a skill directory that cannot be listed or stat'ed: this scan cannot vouch for it. */
export function unreadableDir(dir: string, e: unknown): ScanItem {
  return warn("unreadable", `skill directory ${dir} cannot be read (${fsCode(e)}); skipped`, dir);
}

/**
 * Whether `prev` holds a candidate read with a signature a stat can check. A memo has a fileStat only
 * when its item came from reading the manifest (or was carried over with that fileStat), so the item
 * is there.
 */
export function checkable(prev: DirMemo | undefined): prev is DirMemo & { readonly item: Candidate } {
  return prev !== undefined && prev.fileStat !== undefined;
}

/**
 * Whether the manifest `prev` read is still there with the signature it had (true), or there with
 * another (false); undefined when that cannot be told: no manifest read, or its stat failed.
 */
function* unchangedManifest(prev: DirMemo): FsTask<boolean | undefined> {
  if (!checkable(prev)) return undefined;
  try {
    return sameStat(yield* statOf(prev.item.path), prev.fileStat);
  } catch (e) {
    // The listing is taken again and meets what became of the file; the manifest's own stat, below,
    // reports an error that stays.
    fsCode(e);
    return undefined;
  }
}

/** Remember what `dir` gave for the next scan (the previous memo itself when nothing changed); gives its item. */
function keep(ctx: Context, dir: string, prev: DirMemo | undefined, memo: DirMemo): Candidate | undefined {
  // The same item means the same listing and fileStat: a candidate is carried over (with its fileStat)
  // only when its listing is the same object, and no item means no manifest: the shared NO_MANIFEST
  // listing and no fileStat.
  const same =
    prev !== undefined &&
    sameTrusted(prev.dirStat, memo.dirStat) &&
    prev.item === memo.item &&
    prev.listedAfter === memo.listedAfter;
  ctx.next.dirs.set(dir, same ? prev : memo);
  return memo.item;
}
