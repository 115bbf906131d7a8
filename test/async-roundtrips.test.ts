// The async scan's thread-pool round trips (issue 13): a manifest whose directory was just listed is
// opened in place; one whose listing is reused is opened in the pool. Either way, exactly what the sync scan gives.
import { createHook } from "node:async_hooks";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { type FsOp, type FsResult, readManifest, runAsync, runSync, setFaultHook, stat } from "../src/fsx.js";
import {
  type AgentSkills,
  type AgentSkillsOptions,
  createAgentSkills,
  createAgentSkillsAsync,
  StartupError,
} from "../src/index.js";
import { actAt, failAt, poolRequests } from "./helpers/faults.js";
import { manifest, skill, type Tree, writeTree } from "./helpers/fixture.js";
import { countTurns, leaveTurnReal } from "./helpers/turns.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

/** Everything an instance shows, paths made relative to `root`. */
function view(s: AgentSkills, root: string) {
  const rel = (text: string) => text.replaceAll(root + path.sep, "");
  return {
    skills: s.listSkills().map((k) => [k.name, rel(k.path), k.description]),
    warnings: s.warnings.map((w) => [w.code, rel(w.message)]),
    bodies: s.listSkills().map((k) => s.loadSkill(k.name)?.body),
  };
}

/** Every case an in-place open of a just-listed directory's manifest can meet. */
const CASES: Tree = {
  "plain/SKILL.md": skill("plain"),
  "fifo/SKILL.md": { fifo: true },
  "a-dir/SKILL.md": { dir: true },
  "dangling/SKILL.md": { symlink: "nowhere.md" },
  "linked/SKILL.md": { symlink: "../target.md" },
  "linked-and-lower/SKILL.md": { symlink: "../other.md" },
  "linked-and-lower/skill.md": skill("linked-and-lower", "Lower."),
  "lower-only/skill.md": skill("lower-only"),
  "several/SKILL.md": skill("several"),
  "several/Skill.md": skill("several", "Mixed."),
  "several/skill.md": skill("several", "Lower."),
  "too-large/SKILL.md": manifest("name: too-large\ndescription: d", "x".repeat(1024 * 1024)),
  "empty/SKILL.md": "",
  "none/README.md": "no manifest here",
  "target.md": skill("linked"),
  "other.md": skill("linked-and-lower"),
};

describe.each([true, false])("followSymlinks %s", (followSymlinks) => {
  test("every case of a manifest opened in place gives exactly what the sync scan gives", async () => {
    const root = writeTree(CASES);
    const options = { roots: [{ path: root }], followSymlinks };
    const sync = view(createAgentSkills(options), root);
    expect(view(await createAgentSkillsAsync(options), root)).toEqual(sync);
    const codes = sync.warnings.map(([code]) => code).sort();
    // The cases really happened: each left its finding.
    expect(codes).toEqual(
      followSymlinks
        ? [
            "dangling_symlink",
            "invalid_skill",
            "invalid_skill",
            "invalid_skill",
            "invalid_skill",
            "multiple_manifests",
            "multiple_manifests",
          ]
        : ["invalid_skill", "invalid_skill", "invalid_skill", "invalid_skill", "multiple_manifests"],
    );
    expect(sync.skills.map(([name, file]) => `${name} ${file}`)).toEqual(
      followSymlinks
        ? [
            "linked linked/SKILL.md",
            "linked-and-lower linked-and-lower/SKILL.md",
            "lower-only lower-only/skill.md",
            "plain plain/SKILL.md",
            "several several/SKILL.md",
          ]
        : [
            "linked-and-lower linked-and-lower/skill.md",
            "lower-only lower-only/skill.md",
            "plain plain/SKILL.md",
            "several several/SKILL.md",
          ],
    );
  });
});

test("an error from the in-place open is the task's, as from the sync scan's open", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
  const options = { roots: [{ path: root }], onWarning: () => {} };
  failAt("readManifest", path.join(root, "b", "SKILL.md"), "EIO");
  const sync = view(createAgentSkills(options), root);
  expect(view(await createAgentSkillsAsync(options), root)).toEqual(sync);
  expect(sync.warnings).toEqual([["invalid_skill", expect.stringContaining("cannot be read (EIO)")]]);
});

/**
 * Ten skills, discovered past the trust window and refreshed once (discovery lists without the
 * directories' signatures; the first refresh takes them, so the next may reuse the listings); then
 * `change` is made to s3, and the next refresh is counted: its changed names, s3's description and
 * the thread-pool requests it made.
 */
async function refreshAfter(change: (s3: string) => void) {
  const tree: Tree = {};
  for (let i = 0; i < 10; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`);
  const root = writeTree(tree);
  await pastTrustWindow(root);
  const s = await createAgentSkillsAsync({ roots: [{ path: root }] });
  await s.refreshAsync();
  const s3 = path.join(root, "s3");
  change(s3);
  await pastTrustWindow(s3);
  let changed: readonly string[] = [];
  const requests = await poolRequests(async () => {
    changed = (await s.refreshAsync()).changed;
  });
  return { changed, description: s.getSkill("s3")?.description, requests };
}

test("a manifest changed under a reused listing is opened in the thread pool", async () => {
  // Rewritten in place: the directory's signature holds, the file's does not.
  const r = await refreshAfter((s3) => fs.writeFileSync(path.join(s3, "SKILL.md"), skill("s3", "Changed.")));
  // The root's stat; each skill: its directory's stat and its manifest's; s3's open (its listing was reused).
  expect(r).toEqual({ changed: ["s3"], description: "Changed.", requests: 1 + 2 * 10 + 1 });
});

test("a manifest replaced in a directory listed again is opened in place", async () => {
  // Renamed over s3's manifest: the directory's signature changes (its listing is taken again), and
  // so does the manifest's (it is read again).
  const r = await refreshAfter((s3) => {
    fs.writeFileSync(path.join(s3, "next.md"), skill("s3", "Replaced."));
    fs.renameSync(path.join(s3, "next.md"), path.join(s3, "SKILL.md"));
  });
  // The root's stat; each skill: its directory's stat and its manifest's; s3's listing, its manifest
  // then opened in place (an open in the pool would make it 23).
  expect(r).toEqual({ changed: ["s3"], description: "Replaced.", requests: 1 + 2 * 10 + 1 });
});

// The sync scan's open is a mutant-hunting regression (O_NOFOLLOW); the async one's is the in-place open.
test.each([
  ["createAgentSkills", async (o: AgentSkillsOptions) => createAgentSkills(o)],
  ["createAgentSkillsAsync", createAgentSkillsAsync],
])(
  "with followSymlinks false, a manifest swapped for a symlink after its listing is not followed (%s)",
  async (_, create) => {
    const outside = writeTree({ "evil.md": skill("evil") });
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const file = path.join(root, "a", "SKILL.md");
    actAt("readManifest", file, () => {
      fs.rmSync(file);
      fs.symlinkSync(path.join(outside, "evil.md"), file);
    });
    const s = await create({ roots: [{ path: root }], followSymlinks: false, onWarning: () => {} });
    expect(s.listSkills()).toEqual([]);
    expect(s.warnings.map((w) => [w.code, w.path])).toEqual([["unreadable", file]]);
    expect(s.warnings[0]?.message).toContain("ELOOP");
  },
);

describe("thread-pool requests", () => {
  test("those made in one stretch reach the pool together, at the next turn", async () => {
    const tree: Tree = {};
    for (let i = 100; i < 200; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`);
    const root = writeTree(tree);
    // One log of the requests the scan makes (the seam, synchronous) and those Node starts in the pool.
    const log: string[] = [];
    setFaultHook((op, p) => {
      if (op === "readdir" && p !== root) log.push("asked");
    });
    const hook = createHook({
      init: (_id, type) => {
        if (type === "FSREQCALLBACK" && log.length > 0) log.push("started");
      },
    }).enable();
    let s: AgentSkills;
    try {
      s = await createAgentSkillsAsync({ roots: [{ path: root }] });
    } finally {
      hook.disable();
    }
    expect(s.listSkills()).toHaveLength(100);
    // The 64 workers each ask for a listing in one stretch; none is started before all have asked.
    expect(log.slice(0, 128)).toEqual([...Array(64).fill("asked"), ...Array(64).fill("started")]);
    expect(log.filter((e) => e === "started")).toHaveLength(100);
  });

  // The options refuse a NUL byte before any scan (a StartupError), so the task is driven directly.
  test("a request the fs module refuses outright (a NUL in the path) rejects as the sync driver throws", async () => {
    const bad = `${writeTree({})}\0x`;
    let thrown: unknown;
    try {
      runSync(stat(bad));
    } catch (e) {
      thrown = e;
    }
    expect((thrown as { code?: string }).code).toBe("ERR_INVALID_ARG_VALUE");
    await expect(runAsync(stat(bad))).rejects.toEqual(thrown);
    expect(() => createAgentSkills({ roots: [{ path: bad }] })).toThrow(StartupError);
    await expect(createAgentSkillsAsync({ roots: [{ path: bad }] })).rejects.toThrow(StartupError);
  });
});

describe("the turn budget around an in-place read", () => {
  // performance.now is pinned, as in fsx-edges: only a fixed clock makes "spent" exact.
  let now = 0;

  /** Run `task` with a check-phase callback queued first: whether the task waited for a turn. */
  async function waited(task: () => Generator<FsOp, unknown, FsResult[keyof FsResult]>): Promise<boolean> {
    let checkPhasePassed = false;
    setImmediate(() => {
      checkPhasePassed = true;
    });
    await runAsync(task());
    return checkPhasePassed;
  }

  test("what a task does after its read runs in the read's stretch, however long; the next read waits", async () => {
    const at = path.join(writeTree({ "SKILL.md": skill("a") }), "SKILL.md");
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      now = 1e9;
      // The turn started long before: this waits, and a turn starts at 1e9.
      expect(await waited(() => readManifest(at, true, true))).toBe(true);
      let afterRead = true;
      const readThenParse = function* () {
        const read = yield* readManifest(at, true, true);
        // The parse of those bytes follows with no op between: nothing can make it wait for a turn.
        now = 1e9 + 8;
        afterRead = false;
        return read;
      };
      expect(await waited(readThenParse)).toBe(false);
      expect(afterRead).toBe(false);
      // 8 ms are spent now: the next read waits (a turn starts at 1e9 + 8).
      expect(await waited(() => readManifest(at, true, true))).toBe(true);
      expect(await waited(() => readManifest(at, true, true))).toBe(false);

      // Audit D, finding 2: tasks woken together each check the budget right before their read, in the
      // stretch of the parse that follows. Checked before an await and parsed after it, every task
      // passed the check before any parsed: 32 slow parses in one stretch (0.5-1.1 s).
      const turns = countTurns();
      const parsedIn: number[] = [];
      const slowParse = function* () {
        yield* readManifest(at, true, true);
        parsedIn.push(turns.count());
        now += 8; // each parse spends twice the budget
      };
      await Promise.all([0, 1, 2, 3].map(() => runAsync(slowParse())));
      turns.stop();
      expect(parsedIn.length).toBe(4);
      expect(new Set(parsedIn).size).toBe(4);
    } finally {
      await leaveTurnReal(clock, () => waited(() => readManifest(at, true, true)));
    }
  });

  test("a first look's read waits for the budget right before it: reads woken together each get their own turn", async () => {
    // The plain path of a first look (scan.ts) lists in the pool, then reads and parses in place. The
    // fault seam runs right before each read: there the pinned clock moves 8 ms, as a slow read and
    // parse would, and the turn is noted. Checked in a function that returned first (an await between
    // the check and the read), all four passed the check before any read: one stretch.
    const root = writeTree({
      "a/SKILL.md": skill("a"),
      "b/SKILL.md": skill("b"),
      "c/SKILL.md": skill("c"),
      "d/SKILL.md": skill("d"),
    });
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    const turns = countTurns();
    const readIn: number[] = [];
    try {
      now = 3e9;
      setFaultHook((op) => {
        if (op !== "readManifest") return;
        readIn.push(turns.count());
        now += 8;
      });
      const s = await createAgentSkillsAsync({ roots: [{ path: root }] });
      expect(s.listSkills().map((k) => k.name)).toEqual(["a", "b", "c", "d"]);
    } finally {
      setFaultHook(null);
      turns.stop();
      await leaveTurnReal(clock, () => waited(() => readManifest(path.join(root, "a/SKILL.md"), true, true)));
    }
    expect(readIn).toHaveLength(4);
    expect(new Set(readIn).size).toBe(4);
  });
});
