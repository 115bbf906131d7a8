// watch.ts on its own: startWatch with a refresh the test answers by hand, so "one refresh at a time",
// "nothing reported after close()" and the default error report are checked without racing a real scan.
// Events are real fs events on temp folders; every wait has a generous bound, no real duration is asserted
// (the burst bound is counted on a fake clock that moves only between events).
import { getEventListeners } from "node:events";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import {
  type RefreshResult,
  resolveConfig,
  SkillError,
  type SkillWarning,
  type SkillWatcher,
  StartupError,
  type WatchOptions,
} from "../src/index.js";
import type { ScanHint } from "../src/scan.js";
import { startWatch, type WatcherGroup } from "../src/watch.js";
import { errnoError } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";

/** Far above any real wait: only a missed event reaches it. */
const LIMIT_MS = 10_000;
/** Never, in a test: a polling watcher that polls only when the test says so. */
const NEVER = 2 ** 31 - 1;
const NONE: RefreshResult = { added: [], removed: [], changed: [] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean): Promise<void> {
  const end = Date.now() + LIMIT_MS;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not seen within ${LIMIT_MS} ms: ${what}`);
    await sleep(2);
  }
}

/** One call of the fake refresh: what it was told, whether another was still running, how to end it. */
interface Call {
  readonly hint: ScanHint | undefined;
  readonly overlapping: boolean;
  /** How many writes the test had made when the call came. */
  readonly writes: number;
  settle(outcome: RefreshResult | Error): void;
}

/** The instance's refreshAsync stood in for: held until settled, or answered at once with `auto`. */
function fakeRefresh(auto?: RefreshResult) {
  const calls: Call[] = [];
  const state: { pending: number; writes: number; auto: RefreshResult | undefined } = {
    pending: 0,
    writes: 0,
    auto,
  };
  const refresh = (hint: ScanHint | undefined) =>
    new Promise<RefreshResult>((resolve, reject) => {
      const overlapping = state.pending > 0;
      state.pending++;
      const settle = (outcome: RefreshResult | Error) => {
        state.pending--;
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      calls.push({ hint, overlapping, writes: state.writes, settle });
      if (state.auto !== undefined) settle(state.auto);
    });
  return { calls, state, refresh };
}

const open: SkillWatcher[] = [];
let realQueueMicrotask: typeof queueMicrotask | undefined;
afterEach(async () => {
  setFaultHook(null);
  if (realQueueMicrotask !== undefined) globalThis.queueMicrotask = realQueueMicrotask;
  realQueueMicrotask = undefined;
  await Promise.all(open.splice(0).map((w) => w.close().catch(() => undefined)));
});

/** A watcher of `root` over `refresh`; `warnings` collects what it hands the warn sink. */
function watch(
  root: string,
  refresh: (hint: ScanHint | undefined) => Promise<RefreshResult>,
  options?: WatchOptions,
  group: WatcherGroup = new Set(),
) {
  const warnings: SkillWarning[] = [];
  const w = startWatch(
    resolveConfig({ roots: [{ path: root }] }),
    refresh,
    (ws) => warnings.push(...ws),
    group,
    options,
  );
  open.push(w);
  return { w, warnings };
}

/** What the watcher throws "outside itself" (in a microtask), caught here instead of failing the run. */
function catchThrown(): unknown[] {
  const thrown: unknown[] = [];
  const real = globalThis.queueMicrotask;
  realQueueMicrotask = real;
  globalThis.queueMicrotask = (task) =>
    real(() => {
      try {
        task();
      } catch (e) {
        thrown.push(e);
      }
    });
  return thrown;
}

const count = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

describe("options", () => {
  test.each([
    [5, "watch options must be an object, received 5"],
    ["fast", "watch options must be an object, received fast"],
    [null, "watch options must be an object, received null"],
    [{ debounceMs: -1 }, "watch option debounceMs must be a number of milliseconds >= 0, received -1"],
    [
      { debounceMs: 2 ** 31 },
      `watch option debounceMs must be a number of milliseconds >= 0, received ${2 ** 31}`,
    ],
    [{ debounceMs: "5" }, "watch option debounceMs must be a number of milliseconds >= 0, received 5"],
    [
      { pollMs: Number.POSITIVE_INFINITY },
      "watch option pollMs must be a number of milliseconds >= 1, received Infinity",
    ],
    [{ pollMs: 0.5 }, "watch option pollMs must be a number of milliseconds >= 1, received 0.5"],
    [
      { debounceMs: Number.NaN },
      "watch option debounceMs must be a number of milliseconds >= 0, received NaN",
    ],
  ])("%o is refused: %s", (options, message) => {
    const { refresh, calls } = fakeRefresh(NONE);
    const root = writeTree({});
    const config = resolveConfig({ roots: [{ path: root }] });
    expect(() => startWatch(config, refresh, () => {}, new Set(), options as WatchOptions)).toThrow(
      new StartupError(message),
    );
    expect(calls).toEqual([]);
  });

  test.each([
    ["none", undefined],
    ["the least", { debounceMs: 0, pollMs: 1, usePolling: true }],
    ["the most", { debounceMs: NEVER, pollMs: NEVER, usePolling: true }],
  ])("%s are accepted", async (_what, options) => {
    const { refresh, calls } = fakeRefresh(NONE);
    const { w } = watch(writeTree({ "a/SKILL.md": skill("a") }), refresh, options);
    await w.ready;
    await w.close();
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls[0]?.hint).toBeUndefined();
  });
});

describe("what a refresh gives onChange", () => {
  test.each([
    [{ added: ["a"], removed: [], changed: ["b"] }, 1],
    [{ added: [], removed: [], changed: ["b"] }, 1],
    [{ added: [], removed: ["a"], changed: [] }, 1],
    // A rename: as many added as removed, nothing changed.
    [{ added: ["b"], removed: ["a"], changed: [] }, 1],
    [NONE, 0],
  ])("%o: %i call(s)", async (result, n) => {
    const { refresh } = fakeRefresh(result);
    const seen: RefreshResult[] = [];
    const { w } = watch(writeTree({}), refresh, {
      usePolling: true,
      pollMs: NEVER,
      onChange: (r) => seen.push(r),
    });
    await w.ready;
    expect(seen).toEqual(Array.from({ length: n }, () => result));
  });

  test("without onChange a change is taken quietly: nothing to onError, nothing thrown", async () => {
    const { refresh, calls } = fakeRefresh({ added: ["a"], removed: [], changed: [] });
    const thrown = catchThrown();
    const errors: unknown[] = [];
    const { w, warnings } = watch(writeTree({}), refresh, {
      usePolling: true,
      pollMs: NEVER,
      onError: (e) => errors.push(e),
    });
    await w.ready;
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.length).toBe(1);
    expect([errors, thrown, warnings]).toEqual([[], [], []]);
  });
});

describe("without onError", () => {
  test.each(["invalid_skill", "duplicate_skill"] as const)(
    "a strict refresh's %s goes to the warn sink",
    async (code) => {
      const { refresh, calls } = fakeRefresh();
      const thrown = catchThrown();
      const { w, warnings } = watch(writeTree({}), refresh, { usePolling: true, pollMs: NEVER });
      await until("the first refresh", () => calls.length === 1);
      calls[0]?.settle(new SkillError(code, "x: what went wrong", { path: "/r/x/SKILL.md" }));
      await w.ready;
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([
        {
          code,
          message: "refresh failed, the last good snapshot stays: x: what went wrong",
          path: "/r/x/SKILL.md",
        },
      ]);
      expect(thrown).toEqual([]);
    },
  );

  test.each([
    ["another SkillError", new SkillError("not_found", 'no skill named "x" is loaded')],
    ["an error that is no SkillError", new Error("boom")],
  ])("%s is thrown again outside the watcher, not warned", async (_what, error) => {
    const { refresh, calls } = fakeRefresh();
    const thrown = catchThrown();
    const { w, warnings } = watch(writeTree({}), refresh, { usePolling: true, pollMs: NEVER });
    await until("the first refresh", () => calls.length === 1);
    calls[0]?.settle(error);
    await w.ready;
    await until("the error thrown", () => thrown.length > 0);
    expect(thrown).toEqual([error]);
    expect(warnings).toEqual([]);
  });

  test("an error that is no SkillError is reported at each refresh that throws it, not once", async () => {
    const { refresh, calls } = fakeRefresh();
    const errors: unknown[] = [];
    watch(writeTree({}), refresh, { usePolling: true, pollMs: 20, onError: (e) => errors.push(e) });
    const boom = new Error("boom");
    for (const n of [1, 2]) {
      await until(`refresh ${n}`, () => calls.length === n);
      calls[n - 1]?.settle(boom);
      await until(`error ${n}`, () => errors.length === n);
    }
    expect(errors).toEqual([boom, boom]);
  });

  test("what onChange throws is thrown again outside the watcher", async () => {
    const { refresh } = fakeRefresh({ added: ["a"], removed: [], changed: [] });
    const thrown = catchThrown();
    const boom = new Error("boom from onChange");
    const { w, warnings } = watch(writeTree({}), refresh, {
      usePolling: true,
      pollMs: NEVER,
      onChange: () => {
        throw boom;
      },
    });
    await w.ready;
    await until("the error thrown", () => thrown.length > 0);
    expect(thrown).toEqual([boom]);
    expect(warnings).toEqual([]);
  });
});

describe("one refresh at a time", () => {
  test("events during a refresh bring exactly one more, after it", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const { refresh, calls } = fakeRefresh();
    const { w } = watch(root, refresh, { debounceMs: 0 });
    // The first refresh comes once the watches are set; held, it is still running when b appears.
    await until("the first refresh", () => calls.length === 1);
    // A watch of the test's own on the root: once it has seen b, so has the watcher.
    let seen = false;
    const own = fs.watch(root, () => {
      seen = true;
    });
    writeTree({ "b/SKILL.md": skill("b") }, root);
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "edited"));
    await until("the event", () => seen);
    own.close();
    // Room for a wrong refresh to start beside the running one.
    await sleep(200);
    expect(calls.length).toBe(1);
    calls[0]?.settle(NONE);
    await until("the refresh the events brought", () => calls.length === 2);
    expect(calls[1]?.overlapping).toBe(false);
    expect(calls[1]?.hint?.roots).toEqual(new Set([root]));
    calls[1]?.settle(NONE);
    await w.ready;
    // Room for a wrong refresh to follow with no event.
    await sleep(100);
    expect(calls.length).toBe(2);
  });

  test("a poll while a refresh runs starts none", async () => {
    const { refresh, calls, state } = fakeRefresh();
    const { w } = watch(writeTree({}), refresh, { usePolling: true, pollMs: 1 });
    await until("the first refresh", () => calls.length === 1);
    await sleep(50);
    expect(calls.length).toBe(1);
    state.auto = NONE;
    calls[0]?.settle(NONE);
    await w.ready;
    await until("polls go on", () => calls.length >= 3);
    await w.close();
    expect(calls.filter((c) => c.overlapping)).toEqual([]);
    expect(state.pending).toBe(0);
  });
});

describe("debounce", () => {
  test("changes closer together than debounceMs make one refresh, after the last", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const fake = fakeRefresh(NONE);
    const debounceMs = 300;
    const { w } = watch(root, fake.refresh, { debounceMs });
    await w.ready;
    let pause = 0;
    for (const name of ["b", "c", "d"]) {
      const last = performance.now();
      writeTree({ [`${name}/SKILL.md`]: skill(name) }, root);
      fake.state.writes++;
      await sleep(30);
      pause = Math.max(pause, performance.now() - last);
    }
    await until("the refresh", () => fake.calls.length >= 2);
    // Room for a wrong second refresh of the same changes.
    await sleep(100);
    // A machine that stalled near debounceMs between two writes may rightly have refreshed in between.
    if (pause < (debounceMs * 3) / 4) expect(fake.calls.map((c) => c.writes)).toEqual([0, 3]);
    else expect(fake.calls.at(-1)?.writes).toBe(3);
  });

  test("a burst that never pauses is refreshed within it, after ten periods of the watcher's clock", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const fake = fakeRefresh(NONE);
    const debounceMs = 80;
    const step = debounceMs / 4;
    const { w } = watch(root, fake.refresh, { debounceMs });
    await w.ready;
    const file = path.join(root, "a", "SKILL.md");
    // The watcher's clock (Date.now and its debounce timer) is a fake one that moves only by `step`,
    // after each write's event has reached it: the burst has no pause, however loaded the machine. The
    // events are real; only the waits for them use real time.
    const realTimeout = globalThis.setTimeout;
    const realSleep = (ms: number) => new Promise((resolve) => realTimeout(resolve, ms));
    const calls = fake.calls.length;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // Calls to the fake setTimeout counted by hand, not by a vi.spyOn spy: in a shared module graph
    // (the Stryker config), vitest restores every spy again when the next file starts, which put the
    // fake timer back in place for every later file even after mockRestore and useRealTimers.
    const fakeTimeout = globalThis.setTimeout;
    let scheduled = 0;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      scheduled++;
      return fakeTimeout(...args);
    }) as typeof setTimeout;
    try {
      let first: number | undefined;
      let refreshedAt: number | undefined;
      // Forty periods at most: without the bound, no refresh would ever come during the burst.
      for (let elapsed = 0; elapsed <= 40 * debounceMs && refreshedAt === undefined; ) {
        const before = scheduled;
        fs.writeFileSync(file, skill("a", `write ${fake.state.writes++}`));
        // The event reschedules the debounce; once the bound's timer fired, events only wait for the
        // refresh under way, and that refresh comes.
        const end = performance.now() + LIMIT_MS;
        while (scheduled === before && fake.calls.length === calls) {
          if (performance.now() > end) throw new Error(`no event within ${LIMIT_MS} ms of a write`);
          await realSleep(2);
        }
        first ??= Date.now();
        if (fake.calls.length > calls) refreshedAt = Date.now();
        else {
          vi.advanceTimersByTime(step);
          elapsed += step;
        }
      }
      expect(fake.calls.length, "a refresh within the burst").toBe(calls + 1);
      // Events every step, never debounceMs apart: only the bound brings the refresh, ten periods after
      // the burst's first event.
      expect(((refreshedAt ?? Number.NaN) - (first ?? Number.NaN)) / debounceMs).toBe(10);
    } finally {
      globalThis.setTimeout = fakeTimeout;
      vi.useRealTimers();
    }
  });
});

describe("close() and the signal", () => {
  test("aborting the signal closes the watcher by itself, and close() lets go of the signal", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const before = count("FSEventWrap");
    const controller = new AbortController();
    const { w } = watch(root, fakeRefresh(NONE).refresh, { persistent: true, signal: controller.signal });
    await w.ready;
    expect(count("FSEventWrap")).toBeGreaterThan(before);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    await until("the watches released", () => count("FSEventWrap") === before);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);

    const other = new AbortController();
    const second = watch(root, fakeRefresh(NONE).refresh, { usePolling: true, signal: other.signal });
    await second.w.ready;
    expect(getEventListeners(other.signal, "abort")).toHaveLength(1);
    await second.w.close();
    expect(getEventListeners(other.signal, "abort")).toHaveLength(0);
  });

  test("a refresh under way when close() is called reports nothing: no onChange, no onError", async () => {
    for (const outcome of [
      { added: ["x"], removed: [], changed: [] },
      new SkillError("invalid_skill", "bad"),
    ]) {
      const { refresh, calls } = fakeRefresh();
      const reported: unknown[] = [];
      const { w, warnings } = watch(writeTree({}), refresh, {
        usePolling: true,
        pollMs: NEVER,
        onChange: (r) => reported.push(r),
        onError: (e) => reported.push(e),
      });
      await until("the first refresh", () => calls.length === 1);
      const closed = w.close();
      calls[0]?.settle(outcome);
      await closed;
      expect([reported, warnings]).toEqual([[], []]);
    }
  });

  test("a refresh under way when its watcher closes still reports to the other watchers of the instance", async () => {
    const group: WatcherGroup = new Set();
    const held = fakeRefresh();
    const heard: [string, RefreshResult][] = [];
    const polling = { usePolling: true, pollMs: NEVER } as const;
    const root = writeTree({});
    const closing = watch(
      root,
      held.refresh,
      { ...polling, onChange: (r) => heard.push(["closing", r]) },
      group,
    );
    const other = watch(
      root,
      fakeRefresh(NONE).refresh,
      { ...polling, onChange: (r) => heard.push(["other", r]) },
      group,
    );
    await other.w.ready;
    await until("the first refresh", () => held.calls.length === 1);
    const closed = closing.w.close();
    const x = { added: ["x"], removed: [], changed: [] };
    held.calls[0]?.settle(x);
    await closed;
    expect(heard).toEqual([["other", x]]);
    expect(group.size).toBe(1);
  });

  test("a watcher that an earlier watcher's onChange closes does not hear the change", async () => {
    const group: WatcherGroup = new Set();
    const held = fakeRefresh();
    const heard: string[] = [];
    const polling = { usePolling: true, pollMs: NEVER } as const;
    const root = writeTree({});
    let closed: Promise<void> | undefined;
    const later = { close: () => Promise.resolve() };
    watch(
      root,
      held.refresh,
      {
        ...polling,
        onChange: () => {
          heard.push("first");
          closed = later.close();
        },
      },
      group,
    );
    const second = watch(
      root,
      fakeRefresh(NONE).refresh,
      { ...polling, onChange: () => heard.push("second") },
      group,
    );
    later.close = () => second.w.close();
    await second.w.ready;
    await until("the first refresh", () => held.calls.length === 1);
    held.calls[0]?.settle({ added: ["x"], removed: [], changed: [] });
    await until("the first watcher's report", () => heard.length > 0);
    await closed;
    expect(heard).toEqual(["first"]);
  });

  test("events during a refresh that close() outlives start nothing, and leave no timer behind", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const { refresh, calls } = fakeRefresh();
    const { w } = watch(root, refresh, { persistent: true, debounceMs: 500 });
    await until("the first refresh", () => calls.length === 1);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    // Room for the event to come while the refresh runs.
    await sleep(150);
    const timers = count("Timeout");
    const closed = w.close();
    calls[0]?.settle(NONE);
    await closed;
    expect(count("Timeout")).toBeLessThanOrEqual(timers);
    expect(calls.length).toBe(1);
  });

  test("closed while the watches are being set: no refresh runs", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const { refresh, calls } = fakeRefresh(NONE);
    const holder: { w?: SkillWatcher } = {};
    setFaultHook((op, p) => {
      if (op === "watchReaddir" && p === root) void holder.w?.close();
    });
    const { w } = watch(root, refresh);
    holder.w = w;
    await w.ready;
    await w.close();
    expect(calls).toEqual([]);
  });

  test("closed while a watch is being refused with ENOSPC: no warning, no polling", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const { refresh, calls } = fakeRefresh(NONE);
    const holder: { w?: SkillWatcher } = {};
    const timers = count("Timeout");
    setFaultHook((op, p) => {
      if (op !== "watch" || p !== root) return;
      void holder.w?.close();
      throw errnoError("ENOSPC", op, p);
    });
    const { w, warnings } = watch(root, refresh, { persistent: true, pollMs: 1000 });
    holder.w = w;
    await w.ready;
    await w.close();
    expect([warnings, calls]).toEqual([[], []]);
    expect(count("Timeout")).toBeLessThanOrEqual(timers);
  });
});

describe("a bug surfaces", () => {
  test("a failure of the watch set that is no fs error rejects ready, and nothing polls in its place", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const { refresh, calls } = fakeRefresh(NONE);
    const bug = new TypeError("a bug of the watch set");
    setFaultHook((op, p) => {
      if (op === "watch" && p === root) throw bug;
    });
    const { w, warnings } = watch(root, refresh);
    await expect(w.ready).rejects.toBe(bug);
    expect([warnings, calls]).toEqual([[], []]);
  });
});
