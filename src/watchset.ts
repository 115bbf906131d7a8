// What a watcher watches: each root, the folder above it, the root's skill directories and the real folders of symlinked manifests.
import * as path from "node:path";
import { errnoCode } from "./errors.js";
import { isDirectory, readdirAsync, realpathAsync, type WatchHandle, watchPath } from "./fsx.js";
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
  handle: WatchHandle | undefined;
  links: WatchHandle[];
}

/** A root's watches; `names` are the entries its events named since the last sync (`null`: any). */
interface RootWatch {
  above: WatchHandle | undefined;
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

  constructor(config: SkillConfig, persistent: boolean, onDirty: () => void) {
    this.#config = config;
    this.#persistent = persistent;
    this.#onDirty = onDirty;
    this.#roots = config.roots.map(() => ({
      above: undefined,
      self: undefined,
      dirty: true,
      names: null,
      dirs: new Map(),
      dirtyDirs: new Set(),
    }));
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
      rw.above?.close();
      rw.self?.close();
      for (const dw of rw.dirs.values()) closeDir(dw);
      rw.dirs.clear();
    }
  }

  #rootDirty(rw: RootWatch, name: string | null): void {
    if (this.#closed) return;
    rw.dirty = true;
    if (name === null) rw.names = null;
    else rw.names?.add(name);
    this.#onDirty();
  }

  #dirDirty(rw: RootWatch, dir: string): void {
    if (this.#closed || !rw.dirs.has(dir)) return;
    rw.dirtyDirs.add(dir);
    this.#onDirty();
  }

  /**
   * The folder above the root (so its creation, removal or replacement is seen), then the root, then
   * its listing; a root whose parents do not exist yet is watched from its nearest existing ancestor.
   */
  async #syncRoot(r: number, rw: RootWatch): Promise<void> {
    const root = (this.#config.roots[r] as { path: string }).path;
    const names = rw.names;
    rw.dirty = false;
    rw.names = new Set();
    rw.above?.close();
    rw.self?.close();
    rw.above = rw.self = undefined;
    for (let p = root, tries = 0; tries < 64; tries++) {
      const up = path.dirname(p);
      if (up === p) break;
      if (!(await isDirectory(up))) {
        p = up;
        continue;
      }
      const next = path.basename(p);
      rw.above?.close();
      rw.above = this.#watch(up, (name) => {
        if (name === null || name === next) this.#rootDirty(rw, null);
      });
      if (p === root || !(await isDirectory(p))) break;
      // Created while the watch was being set: start again from the root, which finds it.
      p = root;
    }
    const listing = (await isDirectory(root)) ? await this.#watchRoot(rw, root) : undefined;
    const children = new Set<string>();
    for (const entry of listing ?? []) {
      const dir = path.join(root, entry.name);
      if (entry.type === "dir") children.add(dir);
      else if (entry.type === "symlink" && this.#config.followSymlinks) {
        if (await isDirectory(dir)) children.add(dir);
      }
    }
    for (const [dir, dw] of rw.dirs) {
      if (children.has(dir)) continue;
      closeDir(dw);
      rw.dirs.delete(dir);
      rw.dirtyDirs.delete(dir);
    }
    for (const dir of children) {
      if (!rw.dirs.has(dir)) rw.dirs.set(dir, { handle: undefined, links: [] });
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
      // Gone or unreadable since: the folder above says when it comes back; the scan reports the rest.
      return undefined;
    }
  }

  /** A skill directory: itself (a symlink is followed), then the real folders of its symlinked manifests. */
  async #syncDir(rw: RootWatch, dir: string): Promise<void> {
    const dw = rw.dirs.get(dir);
    if (dw === undefined || this.#closed) return;
    const old = dw;
    const base = path.basename(dir);
    const handle = this.#watch(dir, (name) => {
      // Only the manifest's name matters to the catalog, and the directory's own name: that is how a
      // removal or a move of the watched directory itself is reported.
      if (name === null || name === base || isManifest(name)) this.#dirDirty(rw, dir);
    });
    closeDir(old);
    const next: DirWatch = { handle, links: [] };
    rw.dirs.set(dir, next);
    if (handle === undefined || !this.#config.followSymlinks) return;
    let entries: Awaited<ReturnType<typeof readdirAsync>>;
    try {
      entries = await readdirAsync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.type !== "symlink" || !isManifest(entry.name)) continue;
      let real: string;
      try {
        real = await realpathAsync(path.join(dir, entry.name));
      } catch {
        // Dangling: the scan warns; the link's own replacement is an event of the directory.
        continue;
      }
      const file = path.basename(real);
      const link = this.#watch(path.dirname(real), (name) => {
        if (name === null || name === file) this.#dirDirty(rw, dir);
      });
      if (link !== undefined) next.links.push(link);
    }
    if (this.#closed || rw.dirs.get(dir) !== next) closeDir(next);
  }

  /** A watch, or `undefined` when the path is gone or unreadable (the scan reports that). @throws {Degraded} */
  #watch(where: string, onEvent: (name: string | null) => void): WatchHandle | undefined {
    if (this.#closed) return undefined;
    try {
      return watchPath(where, this.#persistent, onEvent, () => onEvent(null));
    } catch (e) {
      const code = errnoCode(e) ?? "unknown";
      if (DEGRADING.has(code)) throw new Degraded(code, where, e);
      return undefined;
    }
  }
}

function closeDir(dw: DirWatch): void {
  dw.handle?.close();
  for (const link of dw.links) link.close();
  dw.handle = undefined;
  dw.links = [];
}
