// Live skills: file system events (or a poll) → debounced refreshes of one instance, one at a time.
import { SkillError, StartupError } from "./errors.js";
import { waitTurn } from "./fsx.js";
import type { ScanHint } from "./scan.js";
import type { RefreshResult, SkillConfig, SkillWarning, SkillWatcher, WatchOptions } from "./types.js";
import { warning } from "./warnings.js";
import { Degraded, WatchSet } from "./watchset.js";

/** {@link WatchOptions} checked, defaults filled in. */
interface Resolved {
  readonly onChange: (result: RefreshResult) => void;
  readonly onError: ((error: unknown) => void) | undefined;
  readonly debounceMs: number;
  readonly pollMs: number;
  readonly persistent: boolean;
  readonly signal: AbortSignal | undefined;
  readonly usePolling: boolean;
}

const DEFAULTS = {
  debounceMs: 100,
  pollMs: 2000,
  persistent: false,
  usePolling: false,
} as const satisfies Partial<WatchOptions>;

/**
 * The open watchers of one instance. The changes a watcher's refresh finds are reported to every one
 * of them: the refreshes of the others, answering the same events, then find nothing new.
 */
export type WatcherGroup = Set<{ deliver(result: RefreshResult): void }>;

/** A burst of events delays its refresh by at most this many debounce periods. */
const MAX_WAIT_PERIODS = 10;

/** Hands warnings to the instance's sink (its `onWarning`, else the global one). */
type Warn = (warnings: readonly SkillWarning[]) => void;

/**
 * Without `onError`: a strict refresh's `SkillError` goes to the warn sink under its own code, as the
 * same problem does in lenient mode; anything else (a throwing `onChange`) is the caller's bug and is
 * thrown again outside the watcher, as an error in any other callback would be.
 */
function reportByDefault(error: unknown, warn: Warn): void {
  if (error instanceof SkillError && (error.code === "invalid_skill" || error.code === "duplicate_skill")) {
    warn([warning(error.code, `refresh failed, the last good snapshot stays: ${error.message}`, error.path)]);
    return;
  }
  queueMicrotask(() => {
    throw error;
  });
}

function resolveWatchOptions(options: unknown): Resolved {
  if (options === undefined) options = {};
  if (options === null || typeof options !== "object") {
    throw new StartupError(`watch options must be an object, received ${String(options)}`);
  }
  const o = options as Record<string, unknown>;
  const fn = (key: "onChange" | "onError") => {
    const value = o[key];
    if (value !== undefined && typeof value !== "function") {
      throw new StartupError(`watch option ${key} must be a function, received ${typeof value}`);
    }
    return value as ((x: unknown) => void) | undefined;
  };
  const ms = (key: "debounceMs" | "pollMs", min: number) => {
    const value = o[key] ?? DEFAULTS[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > 2 ** 31 - 1) {
      throw new StartupError(
        `watch option ${key} must be a number of milliseconds >= ${min}, received ${String(value)}`,
      );
    }
    return value;
  };
  const flag = (key: "persistent" | "usePolling") => {
    const value = o[key] ?? DEFAULTS[key];
    if (typeof value !== "boolean") {
      throw new StartupError(`watch option ${key} must be a boolean, received ${String(value)}`);
    }
    return value;
  };
  const signal = o.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new StartupError(`watch option signal must be an AbortSignal, received ${String(signal)}`);
  }
  return {
    onChange: fn("onChange") ?? (() => {}),
    onError: fn("onError"),
    debounceMs: ms("debounceMs", 0),
    pollMs: ms("pollMs", 1),
    persistent: flag("persistent"),
    signal,
    usePolling: flag("usePolling"),
  };
}

/**
 * Watch the roots of `config` and run `refresh` when they change. `refresh` is the instance's
 * `refreshAsync` (quiet about warnings when nothing changed); `warn` its warn sink; `group` the
 * instance's open watchers, which the new one joins until it closes.
 * @throws {StartupError} for unusable options.
 */
export function startWatch(
  config: SkillConfig,
  refresh: Refresh,
  warn: Warn,
  group: WatcherGroup,
  options?: WatchOptions,
): SkillWatcher {
  const watcher = new Watcher(config, refresh, warn, group, resolveWatchOptions(options));
  return Object.freeze({ ready: watcher.ready, close: () => watcher.close() });
}

/** The instance's `refreshAsync`, told where events saw changes (`undefined`: look everywhere). */
type Refresh = (hint: ScanHint | undefined) => Promise<RefreshResult>;

class Watcher {
  readonly ready: Promise<void>;
  readonly #refresh: Refresh;
  readonly #warn: Warn;
  readonly #o: Resolved;
  readonly #group: WatcherGroup;
  #set: WatchSet | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  /** When the first event of the batch waiting for the debounce came. */
  #since = 0;
  #running: Promise<void> | undefined;
  /** Events came while a refresh ran: one more follows it. */
  #again = false;
  /**
   * What the last refresh threw, `undefined` when it succeeded: a SkillError by its code and message (the
   * same again, at a poll or after an edit that leaves the skill as broken, is not reported again), any
   * other error as a symbol of its own. After a failure the hint was spent, and the scan cache is still
   * the last good scan's, which would carry the failed batch's directories over unread: the next refresh
   * looks everywhere.
   */
  #failure: string | symbol | undefined;
  #closing: Promise<void> | undefined;
  readonly #onAbort = () => void this.close();

  constructor(config: SkillConfig, refresh: Refresh, warn: Warn, group: WatcherGroup, o: Resolved) {
    this.#refresh = refresh;
    this.#warn = warn;
    this.#o = o;
    this.#group = group;
    if (o.signal?.aborted) {
      this.#closing = Promise.resolve();
      this.ready = this.#closing;
      return;
    }
    // Not `once`: #shutdown removes it, whether the abort or a close() came first.
    o.signal?.addEventListener("abort", this.#onAbort);
    group.add(this);
    if (o.usePolling) this.#startPolling();
    else this.#set = new WatchSet(config, o.persistent, () => this.#schedule());
    // The first cycle sets the watches, then refreshes: whatever changed since the instance's last scan
    // is caught up with, and whatever changes later is an event.
    this.#run();
    this.ready = (this.#running as Promise<void>).then(() => undefined);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#group.delete(this);
    this.#o.signal?.removeEventListener("abort", this.#onAbort);
    clearTimeout(this.#debounce);
    clearInterval(this.#poll);
    this.#set?.close();
    // A refresh under way finishes (nothing is reported from it); none starts after this.
    await this.#running;
    // Closed handles are released in a turn's close phase: two turns, and they are gone.
    await waitTurn();
    await waitTurn();
  }

  #timer(t: NodeJS.Timeout): NodeJS.Timeout {
    return this.#o.persistent ? t : t.unref();
  }

  /** An event: refresh once events have been quiet for debounceMs, or after ten periods of a long burst. */
  #schedule(): void {
    if (this.#closing !== undefined) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    const now = Date.now();
    if (this.#debounce === undefined) this.#since = now;
    else clearTimeout(this.#debounce);
    const { debounceMs } = this.#o;
    const wait = Math.max(0, Math.min(debounceMs, this.#since + MAX_WAIT_PERIODS * debounceMs - now));
    this.#debounce = this.#timer(setTimeout(() => this.#run(), wait));
  }

  // Never after close(): the constructor does not run a closed watcher, and #shutdown clears the timers
  // that call this (and #cycle checks again once its watches are synced).
  #run(): void {
    this.#debounce = undefined;
    this.#running = this.#cycle().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.#schedule();
      }
    });
  }

  /** Bring the watches up to date, refresh, report. Rejects only for a bug of this library. */
  async #cycle(): Promise<void> {
    // Taken before the watches are brought up to date: an event from now on is in the next hint.
    const taken = this.#set?.takeHint();
    // After a failed refresh, look everywhere (see #failure); the hint is spent either way.
    let hint = this.#failure === undefined ? taken : undefined;
    try {
      await this.#set?.sync();
    } catch (e) {
      // sync() turns every fs failure into "not watched"; anything else is a bug, and surfaces.
      if (!(e instanceof Degraded)) throw e;
      hint = undefined;
      this.#degrade(e);
    }
    if (this.#closing !== undefined) return;
    let result: RefreshResult;
    try {
      result = await this.#refresh(hint);
      this.#failure = undefined;
    } catch (e) {
      // A SkillError's message names the manifest.
      const failure = e instanceof SkillError ? `${e.code} ${e.message}` : Symbol("failure");
      if (this.#closing === undefined && failure !== this.#failure) this.#report(e);
      this.#failure = failure;
      return;
    }
    if (result.added.length + result.removed.length + result.changed.length === 0) return;
    // Every open watcher hears it, this one too unless it closed meanwhile; a copy, since an onChange
    // may close a watcher or start one.
    for (const watcher of [...this.#group]) watcher.deliver(result);
  }

  /** Report `result` to onChange, unless closing; what onChange throws goes to this watcher's onError. */
  deliver(result: RefreshResult): void {
    if (this.#closing !== undefined) return;
    try {
      this.#o.onChange(result);
    } catch (e) {
      this.#report(e);
    }
  }

  #report(error: unknown): void {
    const { onError } = this.#o;
    if (onError === undefined) {
      reportByDefault(error, this.#warn);
      return;
    }
    try {
      onError(error);
    } catch (e) {
      reportByDefault(e, this.#warn);
    }
  }

  /** Events cannot be had: say why once, and poll from now on. */
  #degrade(e: Degraded): void {
    this.#set?.close();
    this.#set = undefined;
    // Closed while the failure was on its way up: nothing more to start.
    if (this.#closing !== undefined) return;
    const message = `${e.message}; polling every ${this.#o.pollMs} ms instead of watching for events`;
    this.#warn([warning("watch_degraded", message, e.path)]);
    this.#startPolling();
  }

  #startPolling(): void {
    this.#poll = this.#timer(
      setInterval(() => {
        if (this.#running === undefined) this.#run();
      }, this.#o.pollMs),
    );
  }
}
