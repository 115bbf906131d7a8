// Public types of the package: options, resolved config, catalog entries, warnings and results.

/** The text shapes `renderCatalog` can produce. */
export type CatalogFormat = "xml" | "markdown" | "json";

/** Where a root sits: a user-wide store or a workspace. A provenance label only; it never affects precedence. */
export type SkillScope = "user" | "workspace";

/** One root as the caller gives it. */
export interface SkillRootInput {
  /** `~` and `~/x` expand against the home directory; a relative path resolves against the workspace; an absolute path is only normalized (`/a/../b/` is `/b`). */
  path: string;
  /** Provenance label. @default "workspace" */
  scope?: SkillScope;
  /** Free-form provenance label, e.g. `"clarvis"`. @default "" */
  source?: string;
}

/** One root after resolution: absolute path, labels filled in. */
export interface SkillRoot {
  /** Absolute, normalized path of the root. */
  readonly path: string;
  /** Provenance label. */
  readonly scope: SkillScope;
  /** Free-form provenance label. */
  readonly source: string;
}

/** Options of {@link createAgentSkills} and {@link resolveConfig}. */
export interface AgentSkillsOptions {
  /** Roots to scan, in ascending precedence: when two roots declare the same name, the last root wins. Must not be empty. */
  roots: readonly SkillRootInput[];
  /** Directory that relative roots resolve against; must exist and be a directory when given. @default cwd */
  workspace?: string;
  /** Base for a relative `workspace` or `home`. @default process.cwd() */
  cwd?: string;
  /** Where `~` expands. @default os.homedir() */
  home?: string;
  /** Throw {@link SkillError} on a malformed skill or an in-root duplicate instead of warning and skipping it. @default false */
  strict?: boolean;
  /** Follow symlinked skill directories, manifests and resources. `false` ignores all three. @default true */
  followSymlinks?: boolean;
  /**
   * Receives this instance's warnings (its scans and `loadSkill` calls) instead of the global warn
   * sink set by `setWarnSink`. @default the global sink (stderr unless set)
   * @example createAgentSkills({ roots, onWarning: (w) => log.warn(w.code, w.message) })
   */
  onWarning?: WarnSink;
}

/** The resolved, deeply frozen configuration an instance works from. */
export interface SkillConfig {
  /** Absolute home directory. */
  readonly home: string;
  /** Absolute working directory. */
  readonly cwd: string;
  /** Absolute workspace directory. */
  readonly workspace: string;
  /** Roots in ascending precedence. */
  readonly roots: readonly SkillRoot[];
  /** Whether malformed skills and in-root duplicates throw. */
  readonly strict: boolean;
  /** Whether symlinked skill directories, manifests and resources are followed. */
  readonly followSymlinks: boolean;
}

/** One catalog entry: everything known about a skill without its body. Frozen. */
export interface SkillInfo {
  /** Frontmatter `name`: the identity and the merge key across roots. */
  readonly name: string;
  /** Frontmatter `description`. */
  readonly description: string;
  /** The whole validated frontmatter; keys the schema does not know are kept untouched. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** From `allowed-tools`, else `tools`; absent when neither is given. */
  readonly allowedTools?: readonly string[];
  /** Frontmatter `user-invocable`. @default true */
  readonly userInvocable: boolean;
  /** Scope of the root the skill came from. */
  readonly scope: SkillScope;
  /** Source label of the root the skill came from. */
  readonly source: string;
  /** Absolute path of that root. */
  readonly root: string;
  /** The skill directory as found under the root (not resolved through symlinks). */
  readonly dir: string;
  /** The manifest's path as found. */
  readonly path: string;
}

/** A catalog entry plus its body and resource list, as returned by `loadSkill`. Frozen. */
export interface SkillContent extends SkillInfo {
  /** The markdown after the closing fence, trimmed, as read by the last scan. */
  readonly body: string;
  /** Files of the skill directory, relative and `/`-separated, sorted, the manifest excluded. */
  readonly resources: readonly string[];
  /** The warnings of the `loadSkill` call that made this (skipped or limited resources), also sent to the sink. */
  readonly warnings: readonly SkillWarning[];
}

/** The closed set of warning codes; the README's warning table explains each. */
export type WarningCode =
  | "root_not_directory"
  | "root_unreadable"
  | "unreadable"
  | "dangling_symlink"
  | "multiple_manifests"
  | "invalid_skill"
  | "duplicate_skill"
  | "yaml_repaired"
  | "name_mismatch"
  | "tools_ignored"
  | "resource_skipped"
  | "resource_limit"
  | "watch_degraded";

/** A non-fatal finding, routed to the warn sink (or `onWarning`) and kept on `AgentSkills.warnings`. */
export interface SkillWarning {
  /** Stable code; see the README's warning table. */
  readonly code: WarningCode;
  /** One line naming the file or value concerned, with control characters escaped visibly (safe to print). */
  readonly message: string;
  /** The file or directory concerned, when there is one. */
  readonly path?: string;
  /** The skill name concerned, when known. */
  readonly skill?: string;
}

/** Receives every warning as it is produced. */
export type WarnSink = (warning: SkillWarning) => void;

/** What a `refresh` changed in the catalog, as sorted names. */
export interface RefreshResult {
  /** Names present now and absent before. */
  readonly added: readonly string[];
  /** Names present before and absent now. */
  readonly removed: readonly string[];
  /** Names present in both whose winning manifest, its file or its root changed. */
  readonly changed: readonly string[];
}

/**
 * Why a candidate for a name did or did not become the catalog entry:
 * `winner` serves the name; `overridden` lost to a later root; `duplicate` lost to an earlier
 * directory of the same root; `invalid` could not be read or validated.
 */
export type CandidateVerdict = "winner" | "overridden" | "duplicate" | "invalid";

/** One directory that offered a skill of a given name, with its verdict. Frozen. */
export interface SkillCandidate {
  /** The name it offered: the frontmatter name, or the directory name for an invalid manifest. */
  readonly name: string;
  /** Position of its root in `config.roots`. */
  readonly rootIndex: number;
  /** Absolute path of its root. */
  readonly root: string;
  /** Scope of its root. */
  readonly scope: SkillScope;
  /** Source label of its root. */
  readonly source: string;
  /** The skill directory as found. */
  readonly dir: string;
  /** The manifest path. */
  readonly path: string;
  /** The verdict. */
  readonly verdict: CandidateVerdict;
  /** One sentence on the verdict, naming the winner or the error; control characters escaped visibly. */
  readonly reason: string;
}

/** A loaded set of skills: the catalog, bodies and confined resources of the configured roots. */
export interface AgentSkills {
  /** The configuration resolved at construction. */
  readonly config: SkillConfig;
  /** The catalog, sorted by name (code-unit order). No I/O. */
  listSkills(): readonly SkillInfo[];
  /** The catalog entry of `name`, or `undefined`. No I/O. */
  getSkill(name: string): SkillInfo | undefined;
  /** The entry plus body (from the snapshot) and resource list (read now), or `undefined` for an unknown name. */
  loadSkill(name: string): SkillContent | undefined;
  /**
   * The absolute, canonical path of resource `rel` of skill `name`, confined to the skill directory.
   * @throws {SkillError} `not_found`, `invalid_input`, `path_escape` or `not_a_file`.
   */
  resourcePath(name: string, rel: string): string;
  /** Every candidate offering `name` across the roots, in precedence order (lowest first), with its verdict. No I/O. */
  explain(name: string): readonly SkillCandidate[];
  /**
   * Scan again; swap the snapshot only if the scan succeeds. Manifests whose file is unchanged are not re-parsed.
   * @throws {SkillError} in strict mode; the previous snapshot stays.
   */
  refresh(): RefreshResult;
  /** The same as {@link AgentSkills.refresh}, without blocking the event loop. */
  refreshAsync(): Promise<RefreshResult>;
  /**
   * The skills that fit a request, best first (see {@link SearchOptions} and README "Search"). The index
   * is built on the first search of a snapshot; after a refresh only the skills that changed are analysed again.
   * Synchronous without `embed`; a Promise with it.
   * @throws {SkillError} `invalid_input` for a query that is not a string or a bad option.
   */
  search(query: string, options?: SearchOptions & { embed?: undefined }): readonly SkillMatch[];
  search(query: string, options: SearchOptions & { embed: EmbedFunction }): Promise<readonly SkillMatch[]>;
  search(query: string, options?: SearchOptions): readonly SkillMatch[] | Promise<readonly SkillMatch[]>;
  /**
   * Keep this instance current: watch the roots and skill directories and run `refreshAsync` when
   * they change. See the README's "Live skills".
   * @throws {StartupError} for unusable options.
   * @example
   * const watcher = skills.watch({ onChange: (r) => console.log("added", r.added) });
   * await watcher.ready;
   * // … later
   * await watcher.close();
   */
  watch(options?: WatchOptions): SkillWatcher;
  /** Warnings of the last successful scan, in the order they were produced. */
  readonly warnings: readonly SkillWarning[];
}

/** One result of a search: a catalog entry and how well it fits the request. Frozen. */
export interface SkillMatch {
  /** The catalog entry. */
  readonly skill: SkillInfo;
  /**
   * Higher is better. Lexical only: the BM25F score scaled to [0, 1) (see README "Search").
   * With `embed`: the reciprocal-rank-fusion score of the two rankings.
   */
  readonly score: number;
}

/**
 * Turns texts into vectors, one per text, all of the same length (any embedding model). The library
 * ships none and opens no socket: the caller brings it.
 */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

/** Options of `search` and `searchSkills`. */
export interface SearchOptions {
  /** The most matches returned, a positive integer. @default 10 */
  limit?: number;
  /**
   * The relevance floor, in [0, 1]: when the best lexical match scores below it, no skill serves the
   * request and the lexical result is `[]`; otherwise matches are kept down to a quarter of it. When
   * the catalog uses (nearly) every word of the request — words no skill uses carry less than a quarter
   * of its IDF — 3/8 of it applies instead: such a request is more often put in other words than
   * about something the catalog lacks. `0` keeps every skill that shares a word with the request. A
   * skill named exactly as the query is always returned. @default 0.08
   */
  floor?: number;
  /**
   * Adds a dense ranking, fused with the lexical one by reciprocal rank fusion; the search then
   * returns a Promise. Skill vectors are computed once per catalog and embed function.
   */
  embed?: EmbedFunction;
  /** With `embed`: the least cosine similarity for a skill to enter on the dense side alone. @default 0.5 */
  minSimilarity?: number;
}

/** Options of `AgentSkills.watch`. */
export interface WatchOptions {
  /**
   * Called after each refresh that changed the catalog, once the new snapshot is in place. Every open
   * watcher of the instance hears every change once, whichever of them ran the refresh that found it.
   */
  onChange?: (result: RefreshResult) => void;
  /**
   * Called with the error of a refresh that threw (strict mode; the last good snapshot stays), or with
   * what `onChange` threw. The same `SkillError` as the last failed refresh's is not reported again
   * until a refresh succeeds. Without it, a `SkillError` coded `invalid_skill` or `duplicate_skill` goes
   * to the warn sink under that code; anything else is thrown again outside the watcher.
   */
  onError?: (error: unknown) => void;
  /** Quiet time after the last event before a refresh runs; a longer burst refreshes at most every ten of these. @default 100 */
  debounceMs?: number;
  /** Interval of the polling used when events are unavailable (or with `usePolling`). @default 2000 */
  pollMs?: number;
  /** Keep the process alive while watching. @default false */
  persistent?: boolean;
  /** Closes the watcher when aborted. */
  signal?: AbortSignal;
  /** Poll every `pollMs` instead of using file system events (network file systems). @default false */
  usePolling?: boolean;
}

/** A running watch of an instance's roots. */
export interface SkillWatcher {
  /** Resolves once the watches are in place and a first refresh has caught up with the disk. */
  readonly ready: Promise<void>;
  /** Release every handle and timer; no refresh starts after it resolves. Idempotent. */
  close(): Promise<void>;
}
