// What a watcher watches: each root, the folders above it, the root's skill directories, and the folders where linked skill directories and manifests really live.
import * as path from "node:path";
import {
  isDirectory,
  readdirAsync,
  readlinkAsync,
  realpathAsync,
  type WatchHandle,
  watchPath,
} from "./fsx.js";
import type { ScanHint } from "./scan.js";
import type { SkillConfig } from "./types.js";

/** Codes after which fs events cannot be had here: the watcher polls instead (see the README's "Live skills"). */
const DEGRADING: ReadonlySet<string> = new Set([
  "ENOSPC", // inotify's max_user_watches reached
  "EMFILE", // max_user_instances, or the process's file descriptors
  "ENFILE",
  "ENOMEM",
  "ENOSYS",
  "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM",
]);

/** A watch could not be set up for a reason that makes events unusable; the message names path and cause. */
export class Degraded extends Error {
  readonly code: string;
  readonly path: string;

  constructor(code: string, where: string, cause: unknown) {
    super(`cannot watch ${where} (${code})`, { cause });
    this.name = "Degraded";
    this.code = code;
    this.path = where;
  }
}

const isManifest = (name: string) => name.length === 8 && name.toLowerCase() === "skill.md";

/** A skill directory's watch and those of the folders its symlinked manifests really live in. */
interface DirWatch {
  /** A symlink in its root: its target can change without the directory's own events. */
  readonly link: boolean;
  handle: WatchHandle | undefined;
  links: WatchHandle[];
}

/** A root's watches; `names` are the entries its events named since the last sync (`null`: any). */
interface RootWatch {
  readonly path: string;
  /**
   * The folder above the root (or its nearest existing ancestor), every folder further up, and where
   * the root and each of those that is a symlink really live.
   */
  above: WatchHandle[];
  self: WatchHandle | undefined;
  dirty: boolean;
  names: Set<string> | null;
  readonly dirs: Map<string, DirWatch>;
  readonly dirtyDirs: Set<string>;
}

/** How many skill directories a sync sets up at once. */
const CONCURRENCY = 16;

/**
 * The fs.watch handles of one watcher. Events mark what they touch as dirty and call `onDirty`;
 * {@link WatchSet.sync} then re-watches and re-lists only that. Each watch is set before the listing
 * it guards is read, so a change either happened before the listing (and the next scan sees it) or
 * after the watch (and is an event): none falls in between.
 */
export class WatchSet {
  readonly #config: SkillConfig;
  readonly #persistent: boolean;
  readonly #onDirty: () => void;
  readonly #roots: RootWatch[];
  #closed = false;
  /** What events touched since the last {@link WatchSet.takeHint}; `undefined`: look at everything. */
  #touched: Touched | undefined;

  constructor(config: SkillConfig, persistent: boolean, onDirty: () => void) {
    this.#config = config;
    this.#persistent = persistent;
    this.#onDirty = onDirty;
    this.#roots = config.roots.map((root) => ({
      path: root.path,
      above: [],
      self: undefined,
      dirty: true,
      names: null,
      dirs: new Map(),
      dirtyDirs: new Set(),
    }));
  }

  /**
   * Where events said something changed since the last call, for the next scan; `undefined` (the
   * first call) means everything.
   */
  takeHint(): ScanHint | undefined {
    const hint = this.#touched;
    this.#touched = { roots: new Set(), dirs: new Set(), wholeRoots: new Set() };
    return hint;
  }

  /** Bring the watches up to date with what events said changed. @throws {Degraded} */
  async sync(): Promise<void> {
    for (const [r, rw] of this.#roots.entries()) {
      if (rw.dirty) await this.#syncRoot(r, rw);
      const dirs = [...rw.dirtyDirs];
      rw.dirtyDirs.clear();
      let next = 0;
      const worker = async () => {
        for (let dir = dirs[next++]; dir !== undefined; dir = dirs[next++]) await this.#syncDir(rw, dir);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, dirs.length) }, worker));
    }
  }

  /** Close every handle; later syncs and events do nothing. */
  close(): void {
    this.#closed = true;
    for (const rw of this.#roots) {
      closeAll(rw.above);
      rw.self?.close();
      for (const dw of rw.dirs.values()) closeDir(dw);
      rw.dirs.clear();
    }
  }

  #rootDirty(rw: RootWatch, name: string | null): void {
    if (this.#closed) return;
    rw.dirty = true;
    this.#touched?.roots.add(rw.path);
    if (name === null) {
      rw.names = null;
      this.#touched?.wholeRoots.add(rw.path);
    } else {
      rw.names?.add(name);
      this.#touched?.dirs.add(path.join(rw.path, name));
    }
    this.#onDirty();
  }

  #dirDirty(rw: RootWatch, dir: string): void {
    const dw = rw.dirs.get(dir);
    if (this.#closed || dw === undefined) return;
    rw.dirtyDirs.add(dir);
    this.#touched?.dirs.add(dir);
    // The scan learns that a linked directory is gone, or no longer a directory, from its root's listing.
    if (dw.link) this.#touched?.roots.add(rw.path);
    this.#onDirty();
  }

  /**
   * The folder above the root (so its creation, removal or replacement is seen), for a linked root the
   * folder its target lives in (its target's removal, return or swap happens there, not beside the
   * link), then the root, then its listing; a root whose parents do not exist yet is watched from its
   * nearest existing ancestor. Every folder further up is watched for the name of the one below it:
   * an ancestor renamed away with another put in its place (a fresh checkout where the project was, a
   * symlink re-pointed) takes the watches below it along, and only its own parent sees the swap; the
   * same for a linked ancestor's target, where it lives.
   */
  async #syncRoot(r: number, rw: RootWatch): Promise<void> {
    const root = (this.#config.roots[r] as { path: string }).path;
    const names = rw.names;
    rw.dirty = false;
    rw.names = new Set();
    // The last sync's watches stay until this one's are set, as a skill directory's do: a change made
    // meanwhile is an event of one or the other.
    const old = [...rw.above, rw.self];
    rw.above = [];
    rw.self = undefined;
    try {
      await this.#watchAbove(rw, root);
      await this.#listRoot(rw, root, names);
    } finally {
      for (const handle of old) handle?.close();
    }
  }

  /**
   * The folder above `root` (its nearest existing ancestor while it does not exist), every folder
   * further up for the name of the one below it, and for the root and each of those folders that is a
   * symlink, the folder its target lives in (a linked root's target removed, returning or swapped by
   * renames is seen there, not beside the link).
   */
  async #watchAbove(rw: RootWatch, root: string): Promise<void> {
    const dirty = () => this.#rootDirty(rw, null);
    const watchFor = (folder: string, next: string) => {
      const handle = this.#watch(folder, (name) => {
        if (name === null || name === next) dirty();
      });
      if (handle !== undefined) rw.above.push(handle);
    };
    let below = root;
    for (let p = root, tries = 0; tries < 64; tries++) {
      const up = path.dirname(p);
      if (up === p) break;
      if (!(await isDirectory(up))) {
        p = up;
        continue;
      }
      closeAll(rw.above);
      rw.above = [];
      watchFor(up, path.basename(p));
      below = up;
      if (p === root || !(await isDirectory(p))) break;
      // Created while the watch was being set: start again from the root, which finds it.
      p = root;
    }
    // Only above a folder that was found: past the climb's limit nothing up there exists either.
    if (below === root) return;
    for (let at = below; path.dirname(at) !== at; at = path.dirname(at))
      watchFor(path.dirname(at), path.basename(at));
    // A linked root's or ancestor's watches follow its target: that target swapped is seen where it lives.
    for (let at = root; path.dirname(at) !== at; at = path.dirname(at)) {
      const link = await this.#watchLinkTarget(at, dirty);
      if (link !== undefined) rw.above.push(link);
    }
  }

  /** Watch and list the root, and mark the skill directories to (re)watch: all, or those `names` says. */
  async #listRoot(rw: RootWatch, root: string, names: Set<string> | null): Promise<void> {
    const listing = (await isDirectory(root)) ? await this.#watchRoot(rw, root) : undefined;
    /** Each skill directory, and whether it is a symlink. */
    const children = new Map<string, boolean>();
    for (const entry of listing ?? []) {
      const dir = path.join(root, entry.name);
      if (entry.type === "dir") children.set(dir, false);
      // A link, even dangling: what it points to is watched for, so its target's return is seen.
      else if (entry.type === "symlink" && this.#config.followSymlinks) children.set(dir, true);
    }
    for (const [dir, dw] of rw.dirs) {
      if (children.has(dir)) continue;
      closeDir(dw);
      rw.dirs.delete(dir);
      rw.dirtyDirs.delete(dir);
    }
    for (const [dir, link] of children) {
      const known = rw.dirs.get(dir);
      // A directory now a link, or a link now a directory: its old handles are carried over, for its
      // sync to close once the new watch is set (else nothing would, not even close()).
      if (known === undefined || known.link !== link)
        rw.dirs.set(dir, { link, handle: known?.handle, links: known?.links ?? [] });
      else if (names !== null && !names.has(path.basename(dir))) continue;
      rw.dirtyDirs.add(dir);
    }
  }

  async #watchRoot(rw: RootWatch, root: string) {
    rw.self = this.#watch(root, (name) => this.#rootDirty(rw, name));
    if (rw.self === undefined) return undefined;
    try {
      return await readdirAsync(root);
    } catch {
      // Gone or unreadable since (no listing): the folder above says when it comes back; the scan reports the rest.
    }
  }

  /**
   * A skill directory: for a linked one, the folder its target lives in (so the target's replacement
   * or return is seen); then the directory itself (a symlink is followed); then the folders the targets
   * of its symlinked manifests live in.
   */
  async #syncDir(rw: RootWatch, dir: string): Promise<void> {
    const old = rw.dirs.get(dir);
    if (old === undefined || this.#closed) return;
    const next: DirWatch = { link: old.link, handle: undefined, links: [] };
    rw.dirs.set(dir, next);
    const hit = () => this.#dirDirty(rw, dir);
    if (next.link) await this.#watchTarget(next, dir, hit);
    const base = path.basename(dir);
    next.handle = this.#watch(dir, (name) => {
      // Only the manifest's name matters to the catalog, and the directory's own name: that is how a
      // removal or a move of the watched directory itself is reported.
      if (name === null || name === base || isManifest(name)) hit();
    });
    // Closed after the new watch is set: the same directory keeps its OS watch throughout.
    closeDir(old);
    if (next.handle !== undefined && this.#config.followSymlinks) {
      let entries: Awaited<ReturnType<typeof readdirAsync>> = [];
      try {
        entries = await readdirAsync(dir);
      } catch {
        // Gone or unreadable since: its root's events and the scan tell.
      }
      for (const entry of entries) {
        if (entry.type === "symlink" && isManifest(entry.name))
          await this.#watchTarget(next, path.join(dir, entry.name), hit);
      }
    }
    // No longer this directory's watch: closed since (close() empties the map, and only the line that
    // made `next` puts it there), or replaced by another sync.
    if (rw.dirs.get(dir) !== next) closeDir(next);
  }

  /** Watch the folder holding what `link` points to, for that name, with the directory's links. */
  async #watchTarget(dw: DirWatch, link: string, hit: () => void): Promise<void> {
    const handle = await this.#watchLinkTarget(link, hit);
    if (handle !== undefined) dw.links.push(handle);
  }

  /**
   * A watch on the folder holding what `link` points to (resolved fully, else as written when it
   * dangles), for that name; `undefined` when `link` is no symlink or that folder cannot be watched.
   */
  async #watchLinkTarget(link: string, hit: () => void): Promise<WatchHandle | undefined> {
    let written: string;
    try {
      written = await readlinkAsync(link);
    } catch {
      // Not a symlink (or gone): nothing lives elsewhere.
      return undefined;
    }
    let target: string;
    try {
      target = await realpathAsync(link);
    } catch {
      target = path.resolve(path.dirname(link), written);
    }
    const name = path.basename(target);
    return this.#watch(path.dirname(target), (n) => {
      if (n === null || n === name) hit();
    });
  }

  /** A watch, or `undefined` when the path is gone or unreadable (the scan reports that). @throws {Degraded} */
  #watch(where: string, onEvent: (name: string | null) => void): WatchHandle | undefined {
    if (this.#closed) return undefined;
    try {
      return watchPath(where, this.#persistent, onEvent, () => onEvent(null));
    } catch (e) {
      // Not fsCode: Node's ERR_FEATURE_UNAVAILABLE_ON_PLATFORM is a cause too, not a bug to rethrow.
      const code = (e as { code?: unknown } | null)?.code;
      if (typeof code !== "string") throw e;
      if (DEGRADING.has(code)) throw new Degraded(code, where, e);
      return undefined;
    }
  }
}

/** Paths events touched: a {@link ScanHint} being filled. */
interface Touched {
  readonly roots: Set<string>;
  readonly dirs: Set<string>;
  readonly wholeRoots: Set<string>;
}

function closeAll(handles: readonly WatchHandle[]): void {
  for (const handle of handles) handle.close();
}

function closeDir(dw: DirWatch): void {
  dw.handle?.close();
  for (const link of dw.links) link.close();
  dw.handle = undefined;
  dw.links = [];
}
