// Roots → candidate skill directories → manifest outcomes, written once as fs tasks with a sync and an async driver.
import * as path from "node:path";
import { child, chooseManifest, warn } from "./candidate.js";
import {
  ABSENT,
  type DirEntry,
  type FsTask,
  fsCode,
  GONE,
  namesInPool,
  namesNow,
  readdir,
  realpath,
  runAsync,
  runSync,
  type Stat,
  sameStat,
  spent,
  stat,
  statInPool,
  statNow,
  waitTurn,
} from "./fsx.js";
import {
  CHANGED,
  checkable,
  finishListed,
  inspect,
  inspectListed,
  type ListedRead,
  listingHolds,
  readListed,
  unchanged,
  unreadableDir,
} from "./inspect.js";
import {
  type Context,
  context,
  type DirMemo,
  type Listing,
  NO_CACHE,
  type ScanCache,
  type ScanHint,
  type ScanItem,
  type Slot,
  trusted,
  unhinted,
  unhintedRoot,
} from "./scancache.js";
import type { SkillConfig, SkillRoot } from "./types.js";

export { type Candidate, NO_CACHE, type ScanCache, type ScanHint, type ScanItem } from "./scancache.js";

/** The result of scanning every root. */
export interface Scan {
  /** Items per root, in `config.roots` order. */
  readonly roots: readonly (readonly ScanItem[])[];
  /** The cache to hand to the next scan. */
  readonly cache: ScanCache;
}

/**
 * A root's entries that may be skill directories, in sorted order, with findings about the others. The
 * listing is reused while the root's signature holds (its entries can only change with it); the slots
 * too, unless an entry is a symlink, whose target can change on its own.
 */
function* listRoot(ctx: Context, root: SkillRoot): FsTask<readonly Slot[]> {
  const follow = ctx.follow;
  const prev = ctx.previous.roots.get(root.path);
  if (prev !== undefined && unhintedRoot(ctx, root.path, prev.stat)) {
    // A watcher saw nothing change here since the last scan, which could vouch for the listing.
    ctx.next.roots.set(root.path, prev);
    return prev.slots;
  }
  let rootStat: Stat | undefined;
  let unsure: string | undefined;
  try {
    // Taken at the first scan too (one stat a root), so the first refresh can reuse the listing.
    rootStat = trusted(ctx, yield* stat(root.path));
  } catch (e) {
    // Listed again below; if that fails too, the listing's error is the one reported.
    unsure = fsCode(e);
  }
  const same = prev !== undefined && sameStat(rootStat, prev.stat);
  if (same && !prev.links) {
    ctx.next.roots.set(root.path, prev);
    return prev.slots;
  }
  let entries: readonly DirEntry[];
  if (same) entries = prev.entries;
  else {
    try {
      entries = yield* readdir(root.path);
    } catch (e) {
      // A root that cannot be checked and then seems missing may only seem so: the first error stands.
      if (unsure !== undefined && !ABSENT.has(unsure)) {
        fsCode(e);
        return [warn("root_unreadable", `root ${root.path} cannot be read (${unsure})`, root.path)];
      }
      return yield* unlisted(root, e);
    }
  }
  // A plain directory entry's real path is the root's real path and its name: one realpath a root
  // instead of one a skill (40,000 of them cost ~250 ms). Symlinked entries are resolved one by one.
  let rootReal = "";
  const slots: Slot[] = [];
  try {
    rootReal = yield* realpath(root.path);
  } catch (e) {
    const message = `root ${root.path} cannot be resolved (${fsCode(e)}); its skill directories are resolved one by one`;
    slots.push(warn("unreadable", message, root.path));
  }
  let links = false;
  // Loops by index: a for-of loop's iterator results are allocated in the unoptimized code a scan mostly runs.
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as DirEntry;
    const dir = child(root.path, entry.name);
    if (entry.type === "dir") {
      slots.push({
        kind: "dir",
        name: entry.name,
        dir,
        // Under a root that is its own real path (the usual case) that is `dir` itself: one string kept, not two.
        real: rootReal === "" ? "" : rootReal === root.path ? dir : child(rootReal, entry.name),
      });
    } else if (entry.type === "symlink" && follow) {
      links = true;
      try {
        const target = yield* stat(dir);
        if (target.type === "dir") slots.push({ kind: "dir", name: entry.name, dir, real: "" });
      } catch (e) {
        const code = fsCode(e);
        slots.push(
          GONE.has(code)
            ? warn("dangling_symlink", `symlink ${dir} points to nothing usable (${code}); skipped`, dir)
            : warn("unreadable", `symlink ${dir} cannot be followed (${code}); skipped`, dir),
        );
      }
    }
  }
  // The entries are read again only when some are symlinks (whose slots are made anew): else not kept.
  ctx.next.roots.set(root.path, { stat: rootStat, entries: links ? entries : [], slots, links });
  if (unsure === undefined) return slots;
  const message = `root ${root.path} cannot be checked for changes (${unsure}); listed again`;
  return [warn("unreadable", message, root.path), ...slots];
}

/** What a root that cannot be listed gives: nothing when it does not exist, else a warning. */
function* unlisted(root: SkillRoot, e: unknown): FsTask<readonly Slot[]> {
  const code = fsCode(e);
  if (code === "ENOENT") return [];
  if (code === "ENOTDIR") {
    // ENOTDIR also comes when a parent of the root is a file: then the root simply does not exist.
    try {
      yield* stat(root.path);
    } catch (e2) {
      fsCode(e2);
      return [];
    }
    return [warn("root_not_directory", `root ${root.path} is not a directory`, root.path)];
  }
  return [warn("root_unreadable", `root ${root.path} cannot be read (${code})`, root.path)];
}

/**
 * Whether a directory the last scan did not see takes the plain path of a first look (inspect.ts
 * `inspectListed`): its real path is known from its root's, and symlinks are followed (a names listing).
 */
function firstLook(ctx: Context, real: string): boolean {
  return real !== "" && ctx.follow;
}

/**
 * A skill directory the last scan saw (`prev`, what it found there), or one a first look's plain path
 * does not take (see {@link firstLook}), synchronously: the plain path of an unchanged directory, the
 * generator for the rest. A function of its own, not a closure made for each scan: a closure's
 * optimized code goes with the last closure made at its site, at the next full collection, and each
 * refresh after one ran it unoptimized again.
 */
function lookSync(
  ctx: Context,
  name: string,
  dir: string,
  real: string,
  prev: DirMemo | undefined,
): ScanItem | undefined {
  if (!checkable(prev)) return runSync(inspect(ctx, name, dir, real));
  let dirStat: Stat;
  try {
    dirStat = statNow(dir);
  } catch (e) {
    return unreadableDir(dir, e);
  }
  const dirTrusted = trusted(ctx, dirStat);
  if (listingHolds(prev, dirStat, dirTrusted) === CHANGED)
    return runSync(inspect(ctx, name, dir, real, { dir: dirStat }));
  let fileStat: Stat;
  try {
    fileStat = statNow(prev.item.path);
  } catch {
    // The generator meets the same failure and tells it.
    return runSync(inspect(ctx, name, dir, real, { dir: dirStat }));
  }
  if (!sameStat(fileStat, prev.fileStat))
    return runSync(inspect(ctx, name, dir, real, { dir: dirStat, file: fileStat }));
  return unchanged(ctx, dir, prev, dirTrusted);
}

type DirSlot = Extract<Slot, { readonly kind: "dir" }>;

/** Scan every root synchronously. `previous` holds what to reuse for unchanged roots, directories and files. */
export function scanSync(config: SkillConfig, previous: ScanCache = NO_CACHE): Scan {
  const ctx = context(config, previous);
  const roots = config.roots.map((root) => lookAllSync(ctx, runSync(listRoot(ctx, root))));
  return { roots, cache: ctx.next };
}

/**
 * A root's slots → its items, in order. The directories met for the first time (all of them at
 * discovery) are taken in three passes over the root: every listing, then every manifest's read, then
 * every parse. The same work as one directory at a time, but the system calls run back to back, and so
 * do the parses: on the corpus the listings took 29 ms a discovery between parses, 17 ms back to back
 * (the floor's: 16), and a discovery 2-10 % less time on both bench stores. The others are looked at
 * again one at a time, in the last pass, in their place.
 */
function lookAllSync(ctx: Context, slots: readonly Slot[]): ScanItem[] {
  // What the last scan found in each directory, looked up once for the passes.
  const prevs: (DirMemo | undefined)[] = [];
  // The manifest each new directory's listing chose, taken in this pass: the names themselves die here.
  const listed: (Listing | ScanItem | undefined)[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as Slot;
    const prev = slot.kind === "dir" ? ctx.previous.dirs.get(slot.dir) : undefined;
    prevs.push(prev);
    const first = slot.kind === "dir" && prev === undefined && firstLook(ctx, slot.real);
    listed.push(first ? listingOrWarning(slot.dir) : undefined);
  }
  // A file read in this pass is parsed only in the next: until then, its record answers for it.
  const reads: (ListedRead | ScanItem | undefined)[] = [];
  for (let i = 0; i < slots.length; i++) {
    const listing = listed[i];
    reads.push(
      listing === undefined || !("chosen" in listing)
        ? listing
        : readListed(ctx, (slots[i] as DirSlot).dir, listing),
    );
  }
  const items: ScanItem[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as Slot;
    const read = reads[i];
    let item: ScanItem | undefined;
    if (slot.kind !== "dir") item = slot;
    else if (read === undefined) item = lookSync(ctx, slot.name, slot.dir, slot.real, prevs[i]);
    else if (!("listing" in read)) item = read;
    else {
      const got = finishListed(ctx, slot.name, slot.dir, slot.real, read);
      item = got?.kind === "failed" ? runSync(got.task) : got;
    }
    if (item !== undefined) items.push(item);
  }
  return items;
}

/** The manifest a skill directory's entry names give, or the warning that it cannot be listed. */
function listingOrWarning(dir: string): Listing | ScanItem {
  try {
    return chooseManifest(dir, namesNow(dir), true);
  } catch (e) {
    return unreadableDir(dir, e);
  }
}

/**
 * Inspect one skill directory exactly as a scan of its parent would (manifest choice, symlink rule,
 * parse), without scanning its siblings; `undefined` when it holds no manifest.
 */
export function inspectSync(config: SkillConfig, dir: string): ScanItem | undefined {
  return runSync(inspect(context(config, NO_CACHE), path.basename(dir), dir));
}

/** {@link lookSync}, with the listings and stats in the thread pool. */
async function lookAsync(
  ctx: Context,
  name: string,
  dir: string,
  real: string,
): Promise<ScanItem | undefined> {
  const prev = ctx.previous.dirs.get(dir);
  if (prev === undefined && firstLook(ctx, real)) {
    let names: string[];
    try {
      names = await namesInPool(dir);
    } catch (e) {
      return unreadableDir(dir, e);
    }
    // The read and its parse run in one stretch within the turn's budget, checked right before them.
    while (spent()) await waitTurn();
    const got = inspectListed(ctx, name, dir, real, names);
    return got?.kind === "failed" ? await runAsync(got.task) : got;
  }
  if (!checkable(prev)) return await runAsync(inspect(ctx, name, dir, real));
  let dirStat: Stat;
  try {
    dirStat = await statInPool(dir);
  } catch (e) {
    return unreadableDir(dir, e);
  }
  const dirTrusted = trusted(ctx, dirStat);
  if (listingHolds(prev, dirStat, dirTrusted) === CHANGED)
    return await runAsync(inspect(ctx, name, dir, real, { dir: dirStat }));
  let fileStat: Stat;
  try {
    fileStat = await statInPool(prev.item.path);
  } catch {
    return await runAsync(inspect(ctx, name, dir, real, { dir: dirStat }));
  }
  if (!sameStat(fileStat, prev.fileStat))
    return await runAsync(inspect(ctx, name, dir, real, { dir: dirStat, file: fileStat }));
  return unchanged(ctx, dir, prev, dirTrusted);
}

/** How many skill directories the async scan inspects at once. */
const CONCURRENCY = 64;

/**
 * Scan every root without blocking; the result is identical to {@link scanSync}'s. With a `hint` (from
 * a watcher), only what it names, or what the last scan could not vouch for, is looked at again.
 */
export async function scanAsync(config: SkillConfig, previous: ScanCache, hint?: ScanHint): Promise<Scan> {
  const ctx = context(config, previous, hint);
  const listed = await Promise.all(config.roots.map((root) => runAsync(listRoot(ctx, root))));
  // Every index below a root's slot count is filled below (a slot is carried over, inspected, or kept).
  const results: (ScanItem | undefined)[][] = listed.map(() => []);
  const jobs: [number, number, string, string, string][] = [];
  listed.forEach((slots, r) => {
    slots.forEach((slot, i) => {
      const kept = slot.kind === "dir" && unhinted(ctx, slot.dir);
      // Carried over in place: a round trip through the async driver per directory costs more than the rest.
      if (kept) (results[r] as (ScanItem | undefined)[])[i] = kept.item;
      else if (slot.kind === "dir") jobs.push([r, i, slot.name, slot.dir, slot.real]);
      else (results[r] as (ScanItem | undefined)[])[i] = slot;
    });
  });
  let nextJob = 0;
  const worker = async () => {
    for (let job = jobs[nextJob++]; job !== undefined; job = jobs[nextJob++]) {
      const [r, i, name, dir, real] = job;
      (results[r] as (ScanItem | undefined)[])[i] = await lookAsync(ctx, name, dir, real);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  const roots = results.map((items) => items.filter((item): item is ScanItem => item !== undefined));
  return { roots, cache: ctx.next };
}
