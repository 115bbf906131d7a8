// The AgentSkills instance: an immutable snapshot of the last good scan, and the three tiers served from it.

import { dropLosers, dropLosersInTurns, refill } from "./bodies.js";
import { resolveConfig } from "./config.js";
import { describeValue, SkillError } from "./errors.js";
import { runAsync, runSync, waitTurn } from "./fsx.js";
import { bodyText } from "./manifest.js";
import {
  type CatalogEntry,
  entryKey,
  type Merged,
  merge,
  mergeSteps,
  patchMerge,
  sameEntry,
} from "./merge.js";
import { confine, listResources } from "./resources.js";
import {
  NO_CACHE,
  type Scan,
  type ScanCache,
  type ScanHint,
  type ScanItem,
  scanAsync,
  scanSync,
} from "./scan.js";
import { resolveSearch, searchIndex } from "./search.js";
import { buildIndex, type SearchIndex } from "./searchindex.js";
import type {
  AgentSkills,
  AgentSkillsOptions,
  EmbedFunction,
  RefreshResult,
  SearchOptions,
  SkillCandidate,
  SkillConfig,
  SkillContent,
  SkillInfo,
  SkillMatch,
  SkillWarning,
  SkillWatcher,
  WarnSink,
  WatchOptions,
} from "./types.js";
import { checkSink, emit } from "./warnings.js";
import { startWatch, type WatcherGroup } from "./watch.js";

interface Snapshot extends Merged {
  readonly list: readonly SkillInfo[];
  /** The scan it was merged from, and what that scan learned for the next one. */
  readonly roots: readonly (readonly ScanItem[])[];
  readonly cache: ScanCache;
  /** Which scan produced it; a slower scan started earlier never replaces a newer snapshot. */
  readonly generation: number;
}

const EMPTY: Snapshot = {
  skills: new Map(),
  candidates: new Map(),
  warnings: [],
  list: [],
  roots: [],
  cache: NO_CACHE,
  generation: 0,
};

const NOTHING: RefreshResult = Object.freeze({
  added: Object.freeze([]),
  removed: Object.freeze([]),
  changed: Object.freeze([]),
});

/** What changed between two catalogs, as sorted names (`sort()` without a comparator orders by UTF-16 code units). */
function diff(
  before: ReadonlyMap<string, CatalogEntry>,
  after: ReadonlyMap<string, CatalogEntry>,
): RefreshResult {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  // forEach rather than for-of: no entry pair allocated for each of 10,000 skills at every refresh.
  after.forEach((entry, name) => {
    const old = before.get(name);
    if (old === undefined) added.push(name);
    else if (!sameEntry(old, entry)) changed.push(name);
  });
  before.forEach((_, name) => {
    if (!after.has(name)) removed.push(name);
  });
  return Object.freeze({
    added: Object.freeze(added.sort()),
    removed: Object.freeze(removed.sort()),
    changed: Object.freeze(changed.sort()),
  });
}

class Registry implements AgentSkills {
  readonly config: SkillConfig;
  readonly #onWarning: WarnSink | undefined;
  #snapshot: Snapshot = EMPTY;
  #generation = 0;
  #asyncQueue: Promise<unknown> = Promise.resolve();
  /** The search index and the catalog it was built from; rebuilt lazily when the catalog changes. */
  #indexed: { readonly list: readonly SkillInfo[]; readonly index: SearchIndex } | undefined;
  /** True while this instance's warnings are being handed to a sink: a refresh from there is refused. */
  #emitting = false;
  /** The open watchers of this instance: see {@link WatcherGroup}. */
  readonly #watchers: WatcherGroup = new Set();

  constructor(config: SkillConfig, onWarning: WarnSink | undefined) {
    this.config = config;
    this.#onWarning = onWarning;
    // Methods work detached (`const { listSkills } = skills`), as users of other loaders expect.
    this.listSkills = this.listSkills.bind(this);
    this.getSkill = this.getSkill.bind(this);
    this.loadSkill = this.loadSkill.bind(this);
    this.resourcePath = this.resourcePath.bind(this);
    this.explain = this.explain.bind(this);
    this.search = this.search.bind(this);
    this.refresh = this.refresh.bind(this);
    this.refreshAsync = this.refreshAsync.bind(this);
    this.watch = this.watch.bind(this);
  }

  /**
   * Send warnings to this instance's sink; a refresh the sink starts is refused, never recursed into.
   * The flag is restored, not cleared: a sink's own loadSkill hands its warnings over from inside it.
   */
  #emit(warnings: readonly SkillWarning[]): void {
    const outer = this.#emitting;
    this.#emitting = true;
    try {
      emit(warnings, this.#onWarning);
    } finally {
      this.#emitting = outer;
    }
  }

  /** A sync refresh from a sink would recurse (each scan warns again); refreshAsync is queued, so it is safe. */
  #refuseReentry(method: string): void {
    if (!this.#emitting) return;
    throw new SkillError(
      "invalid_input",
      `${method}() was called from inside a warn sink of the same instance; call it after the sink returns (for example with queueMicrotask), or use refreshAsync()`,
    );
  }

  get warnings(): readonly SkillWarning[] {
    return this.#snapshot.warnings;
  }

  listSkills(): readonly SkillInfo[] {
    return this.#snapshot.list;
  }

  getSkill(name: string): SkillInfo | undefined {
    return this.#snapshot.skills.get(name)?.info;
  }

  loadSkill(name: string): SkillContent | undefined {
    const entry = this.#snapshot.skills.get(name);
    if (entry === undefined) return undefined;
    const { files, warnings } = listResources(entry.info, entry.candidate.real, this.config.followSymlinks);
    const frozen = Object.freeze(warnings);
    this.#emit(frozen);
    return Object.freeze({
      ...entry.info,
      body: bodyText(entry.body),
      resources: Object.freeze(files),
      warnings: frozen,
    });
  }

  resourcePath(name: string, rel: string): string {
    if (typeof name !== "string") {
      throw new SkillError("invalid_input", `skill name must be a string, received ${describeValue(name)}`);
    }
    const entry = this.#snapshot.skills.get(name);
    if (entry === undefined) {
      throw new SkillError("not_found", `no skill named ${JSON.stringify(name)} is loaded`, {
        skill: name,
      });
    }
    return confine(entry.info, entry.candidate.real, rel, this.config.followSymlinks);
  }

  explain(name: string): readonly SkillCandidate[] {
    return this.#snapshot.candidates.get(name) ?? [];
  }

  search(query: string, options?: SearchOptions & { embed?: undefined }): readonly SkillMatch[];
  search(query: string, options: SearchOptions & { embed: EmbedFunction }): Promise<readonly SkillMatch[]>;
  search(query: string, options?: SearchOptions): readonly SkillMatch[] | Promise<readonly SkillMatch[]>;
  search(query: string, options: SearchOptions = {}): readonly SkillMatch[] | Promise<readonly SkillMatch[]> {
    const resolved = resolveSearch(query, options);
    return searchIndex(this.#searchIndex(), query, resolved);
  }

  /** The index of the current catalog. The previous index lends the analyses of skills whose entry key is unchanged. */
  #searchIndex(): SearchIndex {
    const { list, skills } = this.#snapshot;
    if (this.#indexed?.list !== list) {
      const inputs = list.map((skill) => {
        const entry = skills.get(skill.name) as CatalogEntry;
        return { skill, key: entryKey(entry), body: () => bodyText(entry.body) };
      });
      this.#indexed = { list, index: buildIndex(inputs, this.#indexed?.index) };
    }
    return this.#indexed.index;
  }

  refresh(): RefreshResult {
    this.#refuseReentry("refresh");
    const generation = ++this.#generation;
    const scan = scanSync(this.config, this.#snapshot.cache);
    const merged = this.#unchanged(scan)
      ? undefined
      : (this.#patch(scan) ?? merge(this.config, scan.roots, this.#snapshot.skills));
    if (merged === undefined) return this.#install(scan, generation, merged);
    runSync(refill(this.config, merged.skills));
    const result = this.#install(scan, generation, merged);
    // Installed: a sync refresh cannot be overtaken (one from a warn sink is refused).
    dropLosers(scan.roots, merged.skills);
    return result;
  }

  refreshAsync(): Promise<RefreshResult> {
    return this.#refreshAsync(false);
  }

  watch(options?: WatchOptions): SkillWatcher {
    // A watcher refreshes on every event; one that finds nothing changed repeats no warnings.
    return startWatch(
      this.config,
      (hint) => this.#refreshAsync(true, hint),
      (warnings) => this.#emit(warnings),
      this.#watchers,
      options,
    );
  }

  #refreshAsync(quiet: boolean, hint?: ScanHint): Promise<RefreshResult> {
    // One async scan at a time, so each reuses the cache of the one before.
    const run = this.#asyncQueue.then(async () => {
      const generation = ++this.#generation;
      const scan = await scanAsync(this.config, this.#snapshot.cache, hint);
      const merged = this.#unchanged(scan)
        ? undefined
        : (this.#patch(scan) ?? (await mergeInTurns(this.config, scan, this.#snapshot.skills)));
      if (merged === undefined) return this.#install(scan, generation, merged, quiet);
      await runAsync(refill(this.config, merged.skills));
      const result = this.#install(scan, generation, merged, quiet);
      await dropLosersInTurns(scan.roots, merged.skills, () => this.#snapshot.generation === generation);
      return result;
    });
    this.#asyncQueue = run.catch(() => undefined);
    return run;
  }

  /** The last merge with edited manifests' entries rebuilt, when that is all the scan changed. */
  #patch(scan: Scan): Merged | undefined {
    return patchMerge(this.config, this.#snapshot, this.#snapshot.roots, scan.roots);
  }

  /** The scan reuses the very item objects of unchanged directories; if all are, so is the merge. */
  #unchanged(scan: Scan): boolean {
    return sameItems(this.#snapshot.roots, scan.roots);
  }

  /**
   * Swap in a scan and its merge (`undefined`: the scan is unchanged, keep the catalog), unless a newer
   * scan already landed; `quiet` keeps an unchanged scan from emitting its warnings again. A strict
   * merge error was thrown before this, leaving the snapshot as it was. The caller drops the losers'
   * bodies after it (bodies.ts).
   */
  #install(scan: Scan, generation: number, merged: Merged | undefined, quiet = false): RefreshResult {
    const before = this.#snapshot;
    if (generation < before.generation) return NOTHING;
    if (merged === undefined) {
      this.#snapshot = { ...before, roots: scan.roots, cache: scan.cache, generation };
      if (!quiet) this.#emit(before.warnings);
      return NOTHING;
    }
    // The same names as before (most refreshes) keep their sorted order: no sort of thousands of names.
    const names = sameKeys(before.skills, merged.skills)
      ? before.list.map((info) => info.name)
      : [...merged.skills.keys()].sort();
    const list = Object.freeze(names.map((name) => (merged.skills.get(name) as CatalogEntry).info));
    this.#snapshot = {
      ...merged,
      warnings: Object.freeze(merged.warnings),
      list,
      roots: scan.roots,
      cache: scan.cache,
      generation,
    };
    this.#emit(merged.warnings);
    // From an empty catalog every name is new, and already sorted.
    if (before.skills.size === 0) return Object.freeze({ ...NOTHING, added: Object.freeze(names) });
    return diff(before.skills, merged.skills);
  }
}

/** {@link merge}, giving the event loop a turn between its steps so no stretch of it blocks for long. */
async function mergeInTurns(config: SkillConfig, scan: Scan, previous: Merged["skills"]): Promise<Merged> {
  const steps = mergeSteps(config, scan.roots, previous);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await waitTurn();
  }
}

function sameKeys(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size || a.size === 0) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

function sameItems(a: readonly (readonly ScanItem[])[], b: readonly (readonly ScanItem[])[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((items, r) => {
    const other = b[r] as readonly ScanItem[];
    return items.length === other.length && items.every((item, i) => sameItem(item, other[i] as ScanItem));
  });
}

/**
 * The same object, or warnings that say the same: a warning item (a dangling link, a root that is a
 * file) is made anew by each scan, and counting it as a change made a watcher repeat every warning at
 * each poll.
 */
function sameItem(a: ScanItem, b: ScanItem): boolean {
  if (a === b) return true;
  if (a.kind !== "warning" || b.kind !== "warning" || a.warnings.length !== b.warnings.length) return false;
  // A scan's warning names its path in its message, and carries no skill.
  return a.warnings.every((w, i) => w.code === b.warnings[i]?.code && w.message === b.warnings[i]?.message);
}

/**
 * Resolve `options`, scan every root once and return the loaded skills.
 * @throws {StartupError} for unusable options.
 * @throws {SkillError} `invalid_skill` or `duplicate_skill` under `strict`.
 * @example
 * const skills = createAgentSkills({ roots: clarvisSkillRoots({ workspace: process.cwd() }) });
 * for (const s of skills.listSkills()) console.log(s.name, s.description);
 */
export function createAgentSkills(options: AgentSkillsOptions): AgentSkills {
  const registry = new Registry(resolveConfig(options), checkSink(options.onWarning));
  registry.refresh();
  return registry;
}

/**
 * {@link createAgentSkills} without blocking the event loop: manifests are read with bounded
 * concurrency and the result is identical, warnings and their order included.
 * @throws {StartupError} for unusable options (synchronously checked, rejected).
 * @throws {SkillError} `invalid_skill` or `duplicate_skill` under `strict`.
 */
export async function createAgentSkillsAsync(options: AgentSkillsOptions): Promise<AgentSkills> {
  const registry = new Registry(resolveConfig(options), checkSink(options.onWarning));
  await registry.refreshAsync();
  return registry;
}
