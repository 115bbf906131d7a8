// The only door to the file system: symlink, size and file-type rules, errno handling, sync and async drivers.
import * as fs from "node:fs";
import { sep } from "node:path";
import { promisify } from "node:util";

/** The largest manifest read, in bytes (1 MiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** What a directory entry is, as reported by readdir (a symlink is not resolved). */
export type EntryType = "file" | "dir" | "symlink" | "other";

/** A directory entry. */
export interface DirEntry {
  readonly name: string;
  readonly type: EntryType;
}

/**
 * What a path is after following symlinks, and the numbers that change whenever its content may have:
 * its signature. The times are in milliseconds to the fraction Node gives (well under a microsecond). A
 * scan does not trust a signature younger than 100 ms, so a later change always shows as a different
 * time: nanoseconds (BigInt stats, three times dearer) would add nothing. Compared as numbers
 * ({@link sameStat}): as a string (`dev:ino:size:mtime:ctime`) each cost ~0.35 µs to make.
 */
export interface Stat {
  readonly type: "file" | "dir" | "other";
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** Whether two stats are of the same file in the same state (both there). */
export function sameStat(a: Stat | undefined, b: Stat | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.ino === b.ino &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.size === b.size &&
    a.dev === b.dev
  );
}

/** A signature as text, `dev:ino:size:mtime:ctime`: for a key that must be a string. */
export const sigText = (st: Stat): string => [st.dev, st.ino, st.size, st.mtimeMs, st.ctimeMs].join(":");

/** The bytes of a manifest, or why it could not be taken. */
export type ManifestRead =
  | { readonly kind: "ok"; readonly bytes: Buffer; readonly stat: Stat }
  /** A file whose signature the caller already knows (a link to one read before): not read again. */
  | { readonly kind: "known"; readonly stat: Stat }
  | { readonly kind: "not_regular"; readonly what: string }
  | { readonly kind: "too_large"; readonly size: number };

/** The files a scan has read, by inode, with their signature then: such a file is only checked, not read again. */
export type KnownSigs = { get(ino: number): { readonly stat: Stat } | undefined } | undefined;

/** An fs request made by a pipeline stage; a driver carries it out synchronously or asynchronously. */
export type FsOp =
  | { readonly op: "readdir"; readonly path: string }
  | { readonly op: "names"; readonly path: string }
  | { readonly op: "lstat"; readonly path: string }
  | { readonly op: "stat"; readonly path: string }
  | { readonly op: "realpath"; readonly path: string }
  | {
      readonly op: "readManifest";
      readonly path: string;
      readonly noFollow: boolean;
      /** Whether the directory holding it was just listed: then even the open is done in place. */
      readonly listed: boolean;
      /** Signatures of files the caller has read: such a file is only checked, not read again. */
      readonly known: KnownSigs;
    };

/** What each op gives back. */
export interface FsResult {
  readdir: DirEntry[];
  names: string[];
  lstat: EntryType;
  stat: Stat;
  realpath: string;
  readManifest: ManifestRead;
}

/** A pipeline stage written once: it yields fs requests and receives their results (or has their errors thrown into it). */
export type FsTask<T> = Generator<FsOp, T, FsResult[keyof FsResult]>;

type FaultHook = (op: string, path: string) => void;
let faultHook: FaultHook | null = null;

/**
 * Test seam: `hook` runs before every fs call with the call's name and path and may throw an errno
 * error to simulate a fault there. Not exported from the package.
 */
export function setFaultHook(hook: FaultHook | null): void {
  faultHook = hook;
}

function fault(op: string, path: string): void {
  if (faultHook !== null) faultHook(op, path);
}

/**
 * Whether `p` is `dir` or lies below it, both absolute and normalised: the one test of confinement.
 * `dir` may be a root (`/`), which already ends with the separator.
 */
export function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

// The errno policy, decided here once: an fs error is known by its errno code, and the callers decide
// what to report from these sets. An error without one is not the file system's.

/** Errno codes that mean "nothing there" rather than "something went wrong". */
export const ABSENT: ReadonlySet<string> = new Set(["ENOENT", "ENOTDIR"]);

/** Errno codes that mean a path points to nothing usable: gone, or a symlink loop. */
export const GONE: ReadonlySet<string> = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

const ERRNO = /^E[A-Z0-9]+$/;

/**
 * The errno code of a failed fs call, for a warning or a verdict. Anything else (a TypeError of our
 * own code, Node's ERR_* argument errors) is rethrown: a bug must surface, not read as an unreadable file.
 */
export function fsCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && ERRNO.test(code)) return code;
  throw e;
}

function entryType(d: fs.Dirent): EntryType {
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  if (d.isSymbolicLink()) return "symlink";
  return "other";
}

/**
 * One `fs.Stats` and one `fs.Dirent`, held for the life of the process (about 1 KB). Optimized code
 * refers weakly to the hidden classes ("maps") of the objects it reads, and a scan keeps neither
 * object: so a full collection between two scans found none alive, dropped their maps and, with them,
 * the optimized code of every function that reads one (Node's `Stats`, `Dirent`, `getStatsFromBinding`
 * and the scan's own), which the next refresh then ran unoptimized while V8 compiled it again. Measured
 * after a forced collection: the first unchanged refresh of the corpus 21-24 ms without, 15-17 with.
 */
const kept: { stats: fs.Stats | undefined; dirent: fs.Dirent | undefined } = {
  stats: undefined,
  dirent: undefined,
};

function toEntries(dirents: fs.Dirent[]): DirEntry[] {
  kept.dirent ??= dirents[0];
  const entries = dirents.map((d) => ({ name: d.name, type: entryType(d) }));
  // Code-unit order, independent of locale and of the order the OS returns. libuv sorts by UTF-8 bytes,
  // which is that order but past U+FFFF (and other runtimes may not sort): checked in one pass, sorted
  // only when it is not (a sort with a comparator cost ~0.3 µs an entry). Names of one directory are
  // distinct: no two compare equal.
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i - 1] as DirEntry).name > (entries[i] as DirEntry).name) {
      entries.sort((a, b) => (a.name < b.name ? -1 : 1));
      break;
    }
  }
  return entries;
}

function typeOf(st: fs.Stats): EntryType {
  return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
}

function toStat(st: fs.Stats): Stat {
  return signed(st.isFile() ? "file" : st.isDirectory() ? "dir" : "other", st);
}

/** {@link toStat} of what is known to be a regular file (a manifest checked before its read). */
const fileStat = (st: fs.Stats): Stat => signed("file", st);

function signed(type: Stat["type"], st: fs.Stats): Stat {
  kept.stats ??= st;
  const { dev, ino, size, mtimeMs, ctimeMs } = st;
  return { type, dev, ino, size, mtimeMs, ctimeMs };
}

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  // Nothing else can be opened (open(2) refuses a socket with ENXIO): a fallback for the type checker.
  return "not a regular file";
}

function manifestFlags(noFollow: boolean): number {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below then refuses it.
  // O_NOCTTY: a manifest that is (or links to) a terminal device must not become our controlling terminal.
  // A flag the platform lacks (Windows has none of these three) is undefined, which `|` takes as 0.
  const { O_RDONLY, O_NONBLOCK, O_NOCTTY, O_NOFOLLOW } = fs.constants;
  return O_RDONLY | O_NONBLOCK | O_NOCTTY | (noFollow ? O_NOFOLLOW : 0);
}

function checkManifest(st: fs.Stats): ManifestRead | undefined {
  if (!st.isFile()) return { kind: "not_regular", what: kindOf(st) };
  if (st.size > MAX_MANIFEST_BYTES) return { kind: "too_large", size: st.size };
  return undefined;
}

/**
 * Room for a manifest of `expected` bytes (unknown when 0: a growing buffer then starts small). Each
 * manifest gets a buffer of its own, exactly its size: a body kept by the snapshot then pins nothing
 * else. (Shared 256 KiB slabs were cheaper to fill but let one unchanged manifest keep a whole slab of
 * re-read ones alive: 5 MiB of manifests held 19.5 MiB of buffers after 64 partial refreshes.)
 * allocUnsafeSlow, because Node's pool would share an 8 KiB block between small files likewise.
 */
function room(expected: number): Buffer {
  return Buffer.allocUnsafeSlow(expected === 0 ? 8192 : expected);
}

/** `buf` while it has room after `total` bytes, else a bigger copy; `undefined` once past the limit. */
function roomToRead(buf: Buffer, total: number): Buffer | undefined {
  if (total < buf.length) return buf;
  if (buf.length > MAX_MANIFEST_BYTES) return undefined;
  const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_MANIFEST_BYTES + 1));
  buf.copy(bigger, 0, 0, total);
  return bigger;
}

/** Read the size fstat gave (to EOF when it gave 0), at most MAX_MANIFEST_BYTES + 1 bytes: a file that grows is still bounded. */
function readBoundedSync(fd: number, expected: number): Buffer {
  let buf = room(expected);
  let total = 0;
  for (;;) {
    const next = roomToRead(buf, total);
    if (next === undefined) break;
    buf = next;
    const n = fs.readSync(fd, buf, total, buf.length - total, null);
    if (n === 0) break;
    total += n;
    // fstat's size is what the signature describes: stop there instead of paying a call to see EOF.
    if (total === expected) break;
  }
  // The usual case, the size fstat gave read whole: the buffer itself, not one more view of it.
  return total === buf.length ? buf : buf.subarray(0, total);
}

function finishRead(buf: Buffer, stat: Stat): ManifestRead {
  if (buf.length > MAX_MANIFEST_BYTES) return { kind: "too_large", size: buf.length };
  return { kind: "ok", bytes: buf, stat };
}

/** Carry out one op synchronously. */
function runOpSync(op: FsOp): FsResult[keyof FsResult] {
  fault(op.op === "names" ? "readdir" : op.op, op.path);
  switch (op.op) {
    case "readdir":
      return toEntries(fs.readdirSync(op.path, { withFileTypes: true }));
    case "names":
      return fs.readdirSync(op.path);
    case "lstat":
      return typeOf(fs.lstatSync(op.path));
    case "stat":
      return toStat(fs.statSync(op.path));
    case "realpath":
      return fs.realpathSync.native(op.path);
    case "readManifest":
      return readOpened(fs.openSync(op.path, manifestFlags(op.noFollow)), op.known);
  }
}

/**
 * Check and read an opened manifest, then close it. Both drivers use it: once the path is resolved
 * and opened, an fstat, the reads of a regular file of at most 1 MiB and a close take microseconds,
 * while the async driver paid a thread-pool round trip for each (five a manifest, with the open and
 * the listing: 1.8-2.2x the sync scan's time; two: ~1.5x; one, see runAsync).
 */
function readOpened(fd: number, known: KnownSigs): ManifestRead {
  try {
    const st = fs.fstatSync(fd);
    const refused = checkManifest(st);
    if (refused !== undefined) return refused;
    const stat = fileStat(st);
    const seen = known?.get(stat.ino);
    if (seen !== undefined && sameStat(seen.stat, stat)) return { kind: "known", stat };
    return finishRead(readBoundedSync(fd, st.size), stat);
  } finally {
    fs.closeSync(fd);
  }
}

const pReaddir = promisify(fs.readdir);
const pStat = promisify(fs.stat);
const pRealpath = promisify(fs.realpath.native);

/** CPU time (ms) the async driver spends on work between turns of the event loop. */
const TURN_MS = 4;
let turnStart = 0;
let nextTurn: Promise<void> | undefined;

/** The next turn of the event loop (its check phase), shared by every task waiting for it; a fresh CPU budget starts. */
export function waitTurn(): Promise<void> {
  nextTurn ??= new Promise((resolve) =>
    setImmediate(() => {
      nextTurn = undefined;
      turnStart = performance.now();
      resolve();
    }),
  );
  return nextTurn;
}

/**
 * Whether this turn's CPU budget is spent. Before an in-place read and its parse, wait for turns while it
 * is, checking right before the read with no await between (`while (spent()) await waitTurn()`):
 * checked in a function that then returned, every task woken by one turn passed before any parsed.
 */
export const spent = (): boolean => performance.now() - turnStart >= TURN_MS;

/** What a callback-style fs function gives its callback. */
type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** Thread-pool requests made since the last hand-over, each starting its request when called. */
let queued: (() => void)[] = [];

function handOver(): void {
  const now = queued;
  queued = [];
  for (const start of now) start();
}

/**
 * Make a thread-pool request (`start` calls the fs function with the callback it is given), handed to
 * the pool at the next turn together with every other one made until then. A request handed over on
 * its own wakes an idle pool thread, which on a busy machine takes the CPU from the main thread in the
 * middle of its parses (a third of the async scan's main-thread time was spent in readdir calls that
 * only queue a request); a batch wakes the threads once and keeps them busy while the parses run:
 * async/sync 1.34-1.38x -> 1.03x on the synthetic store, 1.48-1.56x -> 1.27-1.33x on the real corpus.
 */
function inPool<T>(start: (done: Callback<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (queued.length === 0) setImmediate(handOver);
    queued.push(() => {
      try {
        start((e, value) => (e === null ? resolve(value) : reject(e)));
      } catch (e) {
        // A bad argument (our bug) throws here rather than in the callback: it rejects all the same.
        reject(e);
      }
    });
  });
}

/**
 * Carry out one fs op without blocking, in the thread pool (a manifest's read is the
 * driver's own: see {@link runAsync}).
 */
async function runOpAsync(op: Exclude<FsOp, { op: "readManifest" }>): Promise<FsResult[keyof FsResult]> {
  fault(op.op === "names" ? "readdir" : op.op, op.path);
  switch (op.op) {
    case "readdir":
      return toEntries(
        await inPool<fs.Dirent[]>((done) => fs.readdir(op.path, { withFileTypes: true }, done)),
      );
    case "names":
      return await inPool<string[]>((done) => fs.readdir(op.path, done));
    case "lstat":
      return typeOf(await inPool<fs.Stats>((done) => fs.lstat(op.path, done)));
    case "stat":
      return toStat(await inPool<fs.Stats>((done) => fs.stat(op.path, done)));
    case "realpath":
      return await inPool<string>((done) => fs.realpath.native(op.path, done));
  }
}

/**
 * A manifest's open: it resolves the path, which can wait on the disk, so it runs in the thread pool,
 * unless the directory was just listed (`undefined`: open in place). Then the name is looked up in
 * blocks just read, and only the file's inode may still wait on a cold disk, as its data always could
 * for the read in place: one round trip a skill instead of two (or five).
 */
function openInPool(op: Extract<FsOp, { op: "readManifest" }>): Promise<number> | undefined {
  fault(op.op, op.path);
  return op.listed ? undefined : inPool<number>((done) => fs.open(op.path, manifestFlags(op.noFollow), done));
}

/**
 * A manifest's read done in place, as the drivers do it for a directory just listed: open, check, read
 * and close, through the fault seam. For the plain path of a first look (inspect.ts `inspectListed`),
 * which both scans take; it throws what `readManifest` would have thrown into a task.
 */
export function readManifestNow(path: string, noFollow: boolean, known: KnownSigs): ManifestRead {
  fault("readManifest", path);
  return readOpened(fs.openSync(path, manifestFlags(noFollow)), known);
}

/** A path's stat and signature, following symlinks, through the fault seam (as the `stat` op). */
export function statNow(path: string): Stat {
  fault("stat", path);
  return toStat(fs.statSync(path));
}

/** {@link statNow} without blocking: in the thread pool, handed over with its stretch's other requests. */
export async function statInPool(path: string): Promise<Stat> {
  fault("stat", path);
  return toStat(await inPool<fs.Stats>((done) => fs.stat(path, done)));
}

/** The entry names of a directory, unsorted, through the fault seam (as the `names` op). */
export function namesNow(path: string): string[] {
  fault("readdir", path);
  return fs.readdirSync(path);
}

/** {@link namesNow} without blocking: the listing runs in the thread pool, handed over with its stretch's others. */
export function namesInPool(path: string): Promise<string[]> {
  fault("readdir", path);
  return inPool<string[]>((done) => fs.readdir(path, done));
}

/** Drive a task to completion synchronously. */
export function runSync<T>(task: FsTask<T>): T {
  let step = task.next(undefined as never);
  while (!step.done) {
    let result: FsResult[keyof FsResult];
    try {
      result = runOpSync(step.value);
    } catch (e) {
      step = task.throw(e);
      continue;
    }
    step = task.next(result);
  }
  return step.value;
}

/**
 * Drive a task to completion asynchronously. What can wait on the disk runs in the thread pool; the
 * CPU work between (parses, and the reads of manifests) runs in stretches of at most a turn's budget.
 */
export async function runAsync<T>(task: FsTask<T>): Promise<T> {
  let step = task.next(undefined as never);
  while (!step.done) {
    const op = step.value;
    let result: FsResult[keyof FsResult];
    try {
      if (op.op === "readManifest") {
        const fd = await openInPool(op);
        // The checks, the read and the parse the task runs next run in one stretch within the turn's
        // budget, checked right here with no await before the read. Parses run in I/O callbacks and
        // their promise continuations, which never let the loop in; checked in a function that then
        // returned (an await), every task woken by one turn passed the check before any parsed: 32 slow
        // parses in one stretch.
        while (spent()) await waitTurn();
        result = readOpened(fd ?? fs.openSync(op.path, manifestFlags(op.noFollow)), op.known);
      } else result = await runOpAsync(op);
    } catch (e) {
      step = task.throw(e);
      continue;
    }
    step = task.next(result);
  }
  return step.value;
}

/** Typed helpers for tasks: `const entries = yield* readdir(path)`. */
export function* readdir(path: string): Generator<FsOp, DirEntry[], FsResult[keyof FsResult]> {
  return (yield { op: "readdir", path }) as DirEntry[];
}

/** `yield* lstat(path)`: what the path itself is, a symlink not followed. */
export function* lstat(path: string): Generator<FsOp, EntryType, FsResult[keyof FsResult]> {
  return (yield { op: "lstat", path }) as EntryType;
}

/** `yield* stat(path)`: follows symlinks. */
export function* stat(path: string): Generator<FsOp, Stat, FsResult[keyof FsResult]> {
  return (yield { op: "stat", path }) as Stat;
}

/** `yield* realpath(path)`: the canonical path, every symlink resolved. */
export function* realpath(path: string): Generator<FsOp, string, FsResult[keyof FsResult]> {
  return (yield { op: "realpath", path }) as string;
}

/**
 * `yield* readManifest(path, noFollow, listed, known)`: `listed` when its directory was just listed,
 * which lets the async driver open it in place rather than in the thread pool; a file whose signature
 * `known` holds is checked but not read (`kind: "known"`).
 */
export function* readManifest(
  path: string,
  noFollow: boolean,
  listed = false,
  known?: KnownSigs,
): Generator<FsOp, ManifestRead, FsResult[keyof FsResult]> {
  return (yield { op: "readManifest", path, noFollow, listed, known }) as ManifestRead;
}

// Synchronous calls used outside discovery (config, resources, confinement).

/** `fs.statSync` through the fault seam; `undefined` when nothing is there. */
export function statSync(path: string): fs.Stats | undefined {
  try {
    // Inside the try: an injected fault takes the same path as a real one.
    fault("stat", path);
    return fs.statSync(path);
  } catch (e) {
    if (ABSENT.has(fsCode(e))) return undefined;
    throw e;
  }
}

/** `fs.lstatSync` through the fault seam; `undefined` when nothing is there. */
export function lstatSync(path: string): fs.Stats | undefined {
  try {
    // Inside the try: an injected fault takes the same path as a real one.
    fault("lstat", path);
    return fs.lstatSync(path);
  } catch (e) {
    if (ABSENT.has(fsCode(e))) return undefined;
    throw e;
  }
}

/** `fs.realpathSync.native` through the fault seam. */
export function realpathSync(path: string): string {
  fault("realpath", path);
  return fs.realpathSync.native(path);
}

/** Sorted entries of a directory, through the fault seam. */
export function readdirSync(path: string): DirEntry[] {
  fault("readdir", path);
  return toEntries(fs.readdirSync(path, { withFileTypes: true }));
}

// ---------------------------------------------------------------------------------------------------
// Watching (issue 12): the fs.watch primitive and the few async look-ups a watcher plans with. Kept as
// one block so the rules above stay the only ones discovery uses; their fault-seam names start with
// "watch", so a test can fault the watcher and the scan apart.

/** An open `fs.watch` handle. */
export interface WatchHandle {
  /** Stop it; the OS handle is released once the event loop runs its close callbacks. */
  close(): void;
}

/**
 * `fs.watch(path)` (not recursive; a symlink is followed to what it points at) calling `onEvent` with
 * the entry name an event names (`null` when the OS names none), and `onLost` when the handle fails
 * after it was opened. Throws the errno error when the watch cannot be set up (`ENOENT`, `ENOSPC` when
 * inotify's `max_user_watches` is reached, `EMFILE`, `ERR_FEATURE_UNAVAILABLE_ON_PLATFORM`).
 */
export function watchPath(
  path: string,
  persistent: boolean,
  onEvent: (name: string | null) => void,
  onLost: (error: unknown) => void,
): WatchHandle {
  fault("watch", path);
  // Without an encoding option Node names the entry with a string (or null).
  const watcher = fs.watch(path, { persistent }, (_event, name) => onEvent(name));
  watcher.on("error", onLost);
  return watcher;
}

/** Whether `path` is a directory, following symlinks, without blocking; any error (gone, a loop, no access) is no. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    fault("watchStat", path);
    return (await pStat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Sorted entries of a directory, without blocking. */
export async function readdirAsync(path: string): Promise<DirEntry[]> {
  fault("watchReaddir", path);
  return toEntries(await pReaddir(path, { withFileTypes: true }));
}

/** `fs.realpath.native` without blocking, through the fault seam. */
export async function realpathAsync(path: string): Promise<string> {
  fault("watchRealpath", path);
  return await pRealpath(path);
}

/** What a symlink holds, as written, without blocking, through the fault seam. */
export async function readlinkAsync(path: string): Promise<string> {
  fault("watchReadlink", path);
  return await pReadlink(path);
}

const pReadlink = promisify(fs.readlink);
