// watch(): real files, real fs events; every wait is on a promise with a generous upper bound, never a duration asserted.
import { createHook } from "node:async_hooks";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import {
  type AgentSkills,
  createAgentSkills,
  type RefreshResult,
  SkillError,
  type SkillWarning,
  type SkillWatcher,
  StartupError,
  setWarnSink,
  type WatchOptions,
} from "../src/index.js";
import { actAt, failAt } from "./helpers/faults.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow, waiter } from "./helpers/wait.js";

/** Far above any real wait: only a missed change reaches it. */
const LIMIT_MS = 10_000;

/** A watched instance and everything its watcher reported. */
interface Live {
  readonly roots: string[];
  readonly skills: AgentSkills;
  readonly watcher: SkillWatcher;
  readonly changes: RefreshResult[];
  readonly errors: unknown[];
  readonly warnings: SkillWarning[];
  /** Resolves once `check` holds after a report, rejects after LIMIT_MS naming `what`. */
  until(what: string, check: () => boolean): Promise<void>;
}

const open: SkillWatcher[] = [];
afterEach(async () => {
  setFaultHook(null);
  setWarnSink(null);
  await Promise.all(open.splice(0).map((w) => w.close()));
});

async function live(
  roots: string[],
  options: WatchOptions = {},
  create: { strict?: boolean; defaultOnError?: boolean; followSymlinks?: boolean } = {},
): Promise<Live> {
  const warnings: SkillWarning[] = [];
  setWarnSink((w) => warnings.push(w));
  const skills = createAgentSkills({
    roots: roots.map((p) => ({ path: p })),
    ...(create.strict === undefined ? {} : { strict: create.strict }),
    ...(create.followSymlinks === undefined ? {} : { followSymlinks: create.followSymlinks }),
  });
  const changes: RefreshResult[] = [];
  const errors: unknown[] = [];
  const waits = waiter(LIMIT_MS);
  const watcher = skills.watch({
    debounceMs: 10,
    onChange: (r) => {
      changes.push(r);
      waits.wake();
    },
    ...(create.defaultOnError
      ? {}
      : {
          onError: (e: unknown) => {
            errors.push(e);
            waits.wake();
          },
        }),
    ...options,
  });
  open.push(watcher);
  await watcher.ready;
  const until = (what: string, check: () => boolean) =>
    waits.until(check, () => `not seen within ${LIMIT_MS} ms: ${what}`);
  return { roots, skills, watcher, changes, errors, warnings, until };
}

/** Run `script` as an ES module in a child node (through `sh` when `shell` prefixes it); its exit status and stdout; stderr to `stderr`. */
function runChild(
  script: string,
  shell = "",
  stderr?: (text: string) => void,
): Promise<[number | null, string]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/bin/sh",
      ["-c", `${shell} exec "$0" --input-type=module -e "$1"`, process.execPath, script],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stderr.on("data", (d) => stderr?.(String(d)));
    child.stdout.on("data", (d) => {
      out += d;
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`still running after ${LIMIT_MS} ms: ${out}`));
    }, LIMIT_MS);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve([status, out]);
    });
  });
}

/** The compiled package (npm test builds first), as a child process imports it. */
const DIST = pathToFileURL(path.resolve(import.meta.dirname, "../dist/index.js")).href;

/** Counts the refreshes of a one-root instance: each scan after the first stats the root once. */
function countScans(root: string): { readonly n: number } {
  const counter = { n: 0 };
  setFaultHook((op, p) => {
    if (op === "stat" && p === root) counter.n++;
  });
  return counter;
}

/**
 * The watched instance serves what a fresh scan finds: the watcher's refreshes, which look only where
 * events point, lost nothing. (Once the files are older than the 100 ms trust window, a fresh scan and a
 * hinted refresh must agree on warnings as well.)
 */
async function expectCurrent(w: Live): Promise<void> {
  await w.watcher.close();
  const fresh = createAgentSkills({ roots: w.roots.map((p) => ({ path: p })) });
  expect(w.skills.listSkills()).toEqual(fresh.listSkills());
  expect(w.skills.warnings).toEqual(fresh.warnings);
}

const names = (s: AgentSkills) => s.listSkills().map((x) => x.name);

/** How many folders lie above the one holding `root`: each is watched too (for the name below it). */
function further(root: string): number {
  let n = 0;
  for (let p = path.dirname(root); path.dirname(p) !== p; p = path.dirname(p)) n++;
  return n;
}
const description = (s: AgentSkills, name: string) => s.getSkill(name)?.description;

describe("what a watcher sees in a root", () => {
  test("a new skill directory, a renamed one and a removed one", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root]);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added", () => names(w.skills).includes("b"));
    expect(w.changes.at(-1)).toEqual({ added: ["b"], removed: [], changed: [] });

    fs.renameSync(path.join(root, "b"), path.join(root, "c"));
    await w.until("b moved to c", () => w.skills.getSkill("b")?.dir === path.join(root, "c"));
    expect(w.changes.at(-1)).toEqual({ added: [], removed: [], changed: ["b"] });

    fs.rmSync(path.join(root, "c"), { recursive: true });
    await w.until("b removed", () => !names(w.skills).includes("b"));
    expect(w.changes.at(-1)).toEqual({ added: [], removed: ["b"], changed: [] });
    expect(names(w.skills)).toEqual(["a"]);
    await expectCurrent(w);
  });

  test("an empty directory that gets its SKILL.md later", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root]);
    fs.mkdirSync(path.join(root, "later"));
    // The directory alone changes nothing; its manifest, written after the directory is watched, does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.writeFileSync(path.join(root, "later", "SKILL.md"), skill("later"));
    await w.until("later added", () => names(w.skills).includes("later"));
    expect(w.changes.map((c) => c.added)).toEqual([["later"]]);
    await expectCurrent(w);
  });

  test("SKILL.md edited in place at the same size, replaced by a rename, deleted", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "first") });
    const file = path.join(root, "a", "SKILL.md");
    const w = await live([root]);

    // Same size, same file: bytes overwritten through an open descriptor, no truncation.
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, skill("a", "other"), 0);
    fs.closeSync(fd);
    await w.until("edit in place", () => description(w.skills, "a") === "other");
    expect(w.changes.at(-1)).toEqual({ added: [], removed: [], changed: ["a"] });

    // How editors save: a new file beside it, renamed over it.
    fs.writeFileSync(path.join(root, "a", ".SKILL.md.swp"), skill("a", "saved by an editor"));
    fs.renameSync(path.join(root, "a", ".SKILL.md.swp"), file);
    await w.until("atomic save", () => description(w.skills, "a") === "saved by an editor");

    fs.unlinkSync(file);
    await w.until("manifest deleted", () => names(w.skills).length === 0);
    expect(w.changes.at(-1)).toEqual({ added: [], removed: ["a"], changed: [] });
    await expectCurrent(w);
  });

  test("a change to a file that is not a manifest refreshes nothing", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "a/notes.md": "n" });
    const w = await live([root]);
    const scans = countScans(root);
    fs.writeFileSync(path.join(root, "a", "notes.md"), "changed");
    fs.writeFileSync(path.join(root, "a", "README.md"), "new");
    // Room for a wrong refresh to happen before the one that must.
    await new Promise((resolve) => setTimeout(resolve, 100));
    writeTree({ "z/SKILL.md": skill("z") }, root);
    await w.until("z added", () => names(w.skills).includes("z"));
    expect(scans.n).toBe(1);
    expect(w.changes).toEqual([{ added: ["z"], removed: [], changed: [] }]);
  });
});

describe("roots that come and go", () => {
  test("a root whose parents do not exist yet, created later", async () => {
    const ws = tempDir();
    const root = path.join(ws, ".clarvis", "skills");
    const w = await live([root]);
    expect(names(w.skills)).toEqual([]);
    writeTree({ ".clarvis/skills/late/SKILL.md": skill("late") }, ws);
    await w.until("late added", () => names(w.skills).includes("late"));
    expect(w.changes).toEqual([{ added: ["late"], removed: [], changed: [] }]);
  });

  test("a root removed and created again", async () => {
    const ws = tempDir();
    const root = writeTree({ "a/SKILL.md": skill("a") }, path.join(ws, "skills"));
    const w = await live([root]);
    fs.rmSync(root, { recursive: true });
    await w.until("a removed", () => names(w.skills).length === 0);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added", () => names(w.skills).includes("b"));
    // And the new root's directories are watched: an edit inside one is seen.
    fs.writeFileSync(path.join(root, "b", "SKILL.md"), skill("b", "edited"));
    await w.until("b edited", () => description(w.skills, "b") === "edited");
    await expectCurrent(w);
  });

  test("a root that is a symlink: its target removed and made again, then swapped by renames (audit E, finding 2)", async () => {
    const ws = tempDir();
    const store = writeTree({ "a/SKILL.md": skill("a") }, path.join(ws, "store", "skills"));
    const root = path.join(ws, "root");
    fs.symlinkSync(store, root);
    const w = await live([root]);
    fs.rmSync(store, { recursive: true });
    await w.until("a removed", () => names(w.skills).length === 0);
    // Made again where the link points: only the target's folder sees it.
    writeTree({ "b/SKILL.md": skill("b") }, store);
    await w.until("b added", () => names(w.skills).includes("b"));
    // Swapped by renames: the new one's edits are seen too.
    const next = writeTree({ "c/SKILL.md": skill("c") }, path.join(ws, "store", "next"));
    fs.renameSync(store, path.join(ws, "store", "old"));
    fs.renameSync(next, store);
    await w.until("c in place of b", () => names(w.skills).join() === "c");
    fs.writeFileSync(path.join(store, "c", "SKILL.md"), skill("c", "edited"));
    await w.until("c edited", () => description(w.skills, "c") === "edited");
    await expectCurrent(w);
  });

  test("an ancestor of the root renamed away and another put in its place: the new tree is served and watched (audit E, finding 3)", async () => {
    const ws = tempDir();
    const project = path.join(ws, "work", "project");
    const root = path.join(project, ".clarvis", "skills");
    writeTree({ "a/SKILL.md": skill("a") }, root);
    const w = await live([root]);
    // `mv project project.bak` and a fresh checkout at the old path, two levels above the root.
    fs.renameSync(project, `${project}.bak`);
    writeTree({ ".clarvis/skills/b/SKILL.md": skill("b") }, project);
    await w.until("b in place of a", () => names(w.skills).join() === "b");
    // The old tree, moved away, is no longer watched: a change there is not the root's.
    writeTree({ "c/SKILL.md": skill("c") }, path.join(`${project}.bak`, ".clarvis", "skills"));
    // The new root's directories are: an edit inside one is seen.
    fs.writeFileSync(path.join(root, "b", "SKILL.md"), skill("b", "edited"));
    await w.until("b edited", () => description(w.skills, "b") === "edited");
    expect(names(w.skills)).toEqual(["b"]);
    await expectCurrent(w);
  });

  test("a symlinked ancestor of the root re-pointed: the new target's skills are served (audit E, finding 3)", async () => {
    const ws = tempDir();
    writeTree({ "one/skills/a/SKILL.md": skill("a"), "two/skills/b/SKILL.md": skill("b") }, ws);
    const link = path.join(ws, "current");
    fs.symlinkSync(path.join(ws, "one"), link);
    const w = await live([path.join(link, "skills")]);
    // `ln -sfn two current`: a new link renamed over the old one.
    fs.symlinkSync(path.join(ws, "two"), `${link}.new`);
    fs.renameSync(`${link}.new`, link);
    await w.until("b in place of a", () => names(w.skills).join() === "b");
    await expectCurrent(w);
  });

  test("an ancestor that is a symlink, its target replaced by a fresh copy: the copy is served and watched (audit G, finding 1)", async () => {
    const ws = tempDir();
    const real = path.join(ws, "store", "real");
    writeTree({ "skills/one/SKILL.md": skill("one") }, real);
    fs.symlinkSync(real, path.join(ws, "link"));
    const root = path.join(ws, "link", "skills");
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = count();
    const w = await live([root], { persistent: true });
    fs.renameSync(real, `${real}.bak`);
    writeTree({ "skills/two/SKILL.md": skill("two") }, real);
    await w.until("two in place of one", () => names(w.skills).join() === "two");
    fs.writeFileSync(path.join(real, "skills", "two", "SKILL.md"), skill("two", "edited"));
    await w.until("two edited", () => description(w.skills, "two") === "edited");
    await expectCurrent(w);
    // The watch where the linked ancestor's target lives is released with the rest.
    expect(count()).toBe(before);
  });

  test("an ancestor swapped while its root is being watched again: the swap and later edits are seen (audit G, finding 2)", async () => {
    const ws = tempDir();
    const project = path.join(ws, "project");
    const root = path.join(project, ".clarvis", "skills");
    writeTree({ "one/SKILL.md": skill("one", "old checkout") }, root);
    const w = await live([root]);
    // The next sync of the root (after the note below) looks at the folders above it: the swap lands then.
    actAt("watchStat", path.join(project, ".clarvis"), () => {
      fs.renameSync(project, `${project}.bak`);
      writeTree({ "one/SKILL.md": skill("one", "new checkout"), "notes.txt": "x" }, root);
    });
    fs.writeFileSync(path.join(root, "notes.txt"), "x");
    await w.until("the new checkout", () => description(w.skills, "one") === "new checkout");
    fs.writeFileSync(path.join(root, "one", "SKILL.md"), skill("one", "edited later"));
    await w.until("the later edit", () => description(w.skills, "one") === "edited later");
    await expectCurrent(w);
  });

  test("a root that is a file, then a directory", async () => {
    const ws = tempDir();
    const root = path.join(ws, "skills");
    fs.writeFileSync(root, "not a folder");
    const w = await live([root]);
    fs.rmSync(root);
    writeTree({ "a/SKILL.md": skill("a") }, root);
    await w.until("a added", () => names(w.skills).includes("a"));
  });
});

describe("symlinks", () => {
  test("a skill directory linked into a shared store: an edit in the store, then a new link target", async () => {
    const store = writeTree({
      "pdf/SKILL.md": skill("pdf", "v1"),
      "pdf-next/SKILL.md": skill("pdf", "v2"),
    });
    const root = writeTree({ pdf: { symlink: path.join(store, "pdf") } });
    const w = await live([root]);
    fs.writeFileSync(path.join(store, "pdf", "SKILL.md"), skill("pdf", "v1 edited"));
    await w.until("store edit", () => description(w.skills, "pdf") === "v1 edited");

    // How `ln -sfn` swaps a link: a new link renamed over the old one.
    fs.symlinkSync(path.join(store, "pdf-next"), path.join(root, ".pdf.tmp"));
    fs.renameSync(path.join(root, ".pdf.tmp"), path.join(root, "pdf"));
    await w.until("new target", () => description(w.skills, "pdf") === "v2");
    // The new target is the one watched now.
    fs.writeFileSync(path.join(store, "pdf-next", "SKILL.md"), skill("pdf", "v2 edited"));
    await w.until("new target edit", () => description(w.skills, "pdf") === "v2 edited");
    await expectCurrent(w);
  });

  test("a linked skill directory whose target goes away, and comes back", async () => {
    const store = writeTree({ "pdf/SKILL.md": skill("pdf") });
    const root = writeTree({ "a/SKILL.md": skill("a"), pdf: { symlink: path.join(store, "pdf") } });
    const w = await live([root]);
    fs.renameSync(path.join(store, "pdf"), path.join(store, "pdf.old"));
    await w.until("pdf gone", () => !names(w.skills).includes("pdf"));
    expect(w.skills.warnings.map((x) => x.code)).toEqual(["dangling_symlink"]);
    fs.renameSync(path.join(store, "pdf.old"), path.join(store, "pdf"));
    await w.until("pdf back", () => names(w.skills).includes("pdf"));
    fs.writeFileSync(path.join(store, "pdf", "SKILL.md"), skill("pdf", "edited"));
    await w.until("pdf edited", () => description(w.skills, "pdf") === "edited");
    await expectCurrent(w);
  });

  test("a dangling manifest link whose target is created later", async () => {
    const store = writeTree({ "manifests/keep.md": "k" });
    const root = writeTree({ "x/SKILL.md": { symlink: path.join(store, "manifests", "x.md") } });
    const w = await live([root]);
    expect(w.skills.warnings.map((x) => x.code)).toEqual(["dangling_symlink"]);
    fs.writeFileSync(path.join(store, "manifests", "x.md"), skill("x"));
    await w.until("x appears", () => names(w.skills).includes("x"));
    await expectCurrent(w);
  });

  test("a manifest that is a symlink: its real file edited, then replaced by a rename", async () => {
    const store = writeTree({ "manifests/x.md": skill("x", "one") });
    const real = path.join(store, "manifests", "x.md");
    const root = writeTree({ "x/SKILL.md": { symlink: real } });
    const w = await live([root]);
    fs.writeFileSync(real, skill("x", "two"));
    await w.until("target edit", () => description(w.skills, "x") === "two");
    fs.writeFileSync(`${real}.tmp`, skill("x", "three"));
    fs.renameSync(`${real}.tmp`, real);
    await w.until("target replaced", () => description(w.skills, "x") === "three");
    await expectCurrent(w);
  });
});

describe("refreshes", () => {
  test("a strict refresh that throws goes to onError and the last good snapshot stays", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root], {}, { strict: true });
    writeTree({ "bad/SKILL.md": "---\nname: [\n---\n" }, root);
    await w.until("the error", () => w.errors.length > 0);
    expect(w.errors[0]).toBeInstanceOf(SkillError);
    expect((w.errors[0] as SkillError).code).toBe("invalid_skill");
    expect(names(w.skills)).toEqual(["a"]);
    // Fixed: the next refresh goes through.
    fs.writeFileSync(path.join(root, "bad", "SKILL.md"), skill("bad"));
    await w.until("bad fixed", () => names(w.skills).includes("bad"));
  });

  test("the changes of a batch whose strict refresh failed are not lost (audit E, finding 1)", async () => {
    // The batch's hint was spent on the failed refresh, so later scans carried its directories over
    // from the last good scan: b's edit stayed unseen once a was fixed, and a's breakage too.
    const root = writeTree({
      "a/SKILL.md": skill("a"),
      "b/SKILL.md": skill("b", "b0"),
      "c/SKILL.md": skill("c", "c0"),
    });
    // Older than the scan's trust window (100 ms): a hinted scan then carries unnamed directories over.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const w = await live([root], {}, { strict: true });
    const descriptions = () => w.skills.listSkills().map((x) => x.description);
    fs.writeFileSync(path.join(root, "b", "SKILL.md"), skill("b", "b1"));
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), "---\nname: [\n---\n");
    await w.until("the error", () => w.errors.length > 0);
    // Another skill is edited: the refresh it starts must see a again, still broken (the same failure,
    // which is not reported twice), and install nothing.
    const scans = countScans(root);
    fs.writeFileSync(path.join(root, "c", "SKILL.md"), skill("c", "c1"));
    for (const end = Date.now() + LIMIT_MS; scans.n === 0 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(scans.n).toBeGreaterThan(0);
    expect(w.errors.length).toBe(1);
    expect(descriptions()).toEqual(["The a skill.", "b0", "c0"]);
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a"));
    await w.until("b's and c's edits", () => descriptions().join() === "The a skill.,b1,c1");
  });

  test.each([false, true])(
    "a warning that stays is not repeated by each poll or at ready (polling: %s; audit E, finding 4)",
    async (usePolling) => {
      const root = writeTree({ "a/SKILL.md": skill("a"), gone: { symlink: "nowhere" } });
      // Older than the scan's trust window (100 ms): each scan may reuse what it read of a.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const w = await live([root], { usePolling, pollMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The scan at creation said it once; ready and every poll since found nothing new to say.
      expect(w.warnings.map((x) => x.code)).toEqual(["dangling_symlink"]);
    },
  );

  // Audit G: a polling watcher in strict mode reported the same failure at every poll (10 a second at
  // pollMs 100), to the sink or to onError.
  test.each([false, true])(
    "a strict failure that stays is reported once, not at every poll; fixed and broken again, once more (onError: %s)",
    async (withOnError) => {
      const root = writeTree({ "a/SKILL.md": skill("a") });
      const w = await live(
        [root],
        { usePolling: true, pollMs: 20 },
        { strict: true, defaultOnError: !withOnError },
      );
      // The default report goes to the warn sink, which wakes no wait: look every few milliseconds.
      const poll = async (what: string, check: () => boolean) => {
        for (const end = Date.now() + LIMIT_MS; !check(); await new Promise((r) => setTimeout(r, 5)))
          if (Date.now() > end) throw new Error(`not seen within ${LIMIT_MS} ms: ${what}`);
      };
      const failures = () =>
        withOnError ? w.errors.length : w.warnings.filter((x) => x.code === "invalid_skill").length;
      writeTree({ "bad/SKILL.md": "---\nname: [\n---\n" }, root);
      await poll("the failure", () => failures() > 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(failures()).toBe(1);
      // Broken another way: a new failure, reported.
      fs.writeFileSync(path.join(root, "bad", "SKILL.md"), "---\nname: bad\n---\n");
      await poll("the other failure", () => failures() === 2);
      fs.writeFileSync(path.join(root, "bad", "SKILL.md"), skill("bad"));
      await poll("bad fixed", () => names(w.skills).includes("bad"));
      fs.writeFileSync(path.join(root, "bad", "SKILL.md"), "---\nname: [\n---\n");
      await poll("the failure again", () => failures() === 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(failures()).toBe(3);
    },
  );

  test("without onError, a strict failure is a warning under its code", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root], {}, { strict: true, defaultOnError: true });
    writeTree({ "bad/SKILL.md": "---\nname: [\n---\n" }, root);
    const seen = () => w.warnings.some((x) => x.code === "invalid_skill");
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no warning")), LIMIT_MS);
      const tick = setInterval(() => {
        if (!seen()) return;
        clearInterval(tick);
        clearTimeout(timer);
        resolve();
      }, 5);
    });
    const found = w.warnings.find((x) => x.code === "invalid_skill");
    expect(found?.message).toMatch(/^refresh failed, the last good snapshot stays: .*bad.SKILL\.md/);
  });

  test("what onChange throws goes to onError", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const boom = new Error("boom");
    const w = await live([root], {
      onChange: () => {
        throw boom;
      },
    });
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("the error", () => w.errors.length > 0);
    expect(w.errors).toEqual([boom]);
  });

  test("what a throwing onError throws goes to the warn sink when it is a SkillError", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live(
      [root],
      {
        onError: (e) => {
          throw e;
        },
      },
      { strict: true },
    );
    writeTree({ "bad/SKILL.md": "---\nname: [\n---\n" }, root);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no warning")), LIMIT_MS);
      const tick = setInterval(() => {
        if (!w.warnings.some((x) => x.code === "invalid_skill")) return;
        clearInterval(tick);
        clearTimeout(timer);
        resolve();
      }, 5);
    });
    expect(names(w.skills)).toEqual(["a"]);
  });

  test("without onError, what onChange throws is thrown outside the watcher, as from any callback", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const script = `
      import * as fs from "node:fs";
      import { createAgentSkills } from ${JSON.stringify(DIST)};
      const root = ${JSON.stringify(root)};
      const w = createAgentSkills({ roots: [{ path: root }] }).watch({
        persistent: true,
        debounceMs: 10,
        onChange: () => { throw new Error("boom from onChange"); },
      });
      await w.ready;
      fs.mkdirSync(root + "/b");
      fs.writeFileSync(root + "/b/SKILL.md", "---\\nname: b\\ndescription: d\\n---\\n");
    `;
    let err = "";
    const [status] = await runChild(script, "", (t) => {
      err += t;
    });
    expect(status).toBe(1);
    expect(err).toContain("Error: boom from onChange");
  });

  test("a burst of 300 new skills gives at most 3 refreshes", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root], { debounceMs: 50 });
    const scans = countScans(root);
    const burst: Record<string, string> = {};
    for (let i = 0; i < 300; i++) burst[`s${i}/SKILL.md`] = skill(`s${i}`);
    writeTree(burst, root);
    await w.until("all 300", () => names(w.skills).length === 301);
    expect(scans.n).toBeLessThanOrEqual(3);
    expect(w.changes.length).toBeLessThanOrEqual(3);
    expect(w.changes.flatMap((c) => c.added)).toHaveLength(300);
    await expectCurrent(w);
  });

  test("a change during a refresh brings one more refresh", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root]);
    // While the refresh that finds b reads b's manifest, c appears: too late for that scan's listing.
    actAt("readManifest", path.join(root, "b", "SKILL.md"), () =>
      writeTree({ "c/SKILL.md": skill("c") }, root),
    );
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("c added", () => names(w.skills).includes("c"));
    expect(w.changes.map((c) => c.added)).toEqual([["b"], ["c"]]);
  });

  test("a refresh that only rebuilds edited entries serves exactly what a fresh scan does", async () => {
    // Root 0 has x (overridden by root 1's x) and two dirs declaring d (the second is a duplicate).
    const low = writeTree({
      "x/SKILL.md": skill("x", "low"),
      "d1/SKILL.md": skill("d"),
      "d2/SKILL.md": skill("d"),
    });
    const high = writeTree({ "x/SKILL.md": skill("x", "high"), "y/SKILL.md": skill("y") });
    const roots = [{ path: low }, { path: high }];
    const skills = createAgentSkills({ roots });
    // Past the trust window, the signatures this refresh takes vouch for the files not edited below.
    await pastTrustWindow(high);
    skills.refresh();
    const edits: [string, string][] = [
      [path.join(high, "x", "SKILL.md"), skill("x", "high, edited")],
      [path.join(low, "x", "SKILL.md"), skill("x", "low, edited")],
      [path.join(low, "d2", "SKILL.md"), skill("d", "duplicate, edited")],
      [path.join(low, "d1", "SKILL.md"), skill("d", "first, edited")],
    ];
    for (const [file, text] of edits) {
      const before = skills.listSkills();
      fs.writeFileSync(file, text);
      const result = skills.refresh();
      const fresh = createAgentSkills({ roots });
      expect(skills.listSkills()).toEqual(fresh.listSkills());
      for (const name of ["x", "d", "y"]) expect(skills.explain(name)).toEqual(fresh.explain(name));
      expect(skills.warnings).toEqual(fresh.warnings);
      // Unchanged skills keep their very SkillInfo object.
      expect(skills.getSkill("y")).toBe(before.find((s) => s.name === "y"));
      const served = file.startsWith(high) || file.endsWith(path.join("d1", "SKILL.md"));
      expect(result.changed).toEqual(served ? [path.basename(path.dirname(file)).replace(/\d$/, "")] : []);
    }
    // A new name in the same file is no mere edit.
    fs.writeFileSync(path.join(high, "y", "SKILL.md"), skill("z"));
    expect(skills.refresh()).toEqual({ added: ["z"], removed: ["y"], changed: [] });
    expect(skills.listSkills()).toEqual(createAgentSkills({ roots }).listSkills());
  });

  test("a watcher started after changes catches up in its first refresh", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    writeTree({ "b/SKILL.md": skill("b") }, root);
    const changes: RefreshResult[] = [];
    const watcher = skills.watch({ onChange: (r) => changes.push(r) });
    open.push(watcher);
    await watcher.ready;
    expect(changes).toEqual([{ added: ["b"], removed: [], changed: [] }]);
  });
});

describe("several watchers on one instance (audit E, finding 5)", () => {
  test("each change is reported once to every open watcher, whichever refreshed; a closed one hears nothing", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const heard: Record<"first" | "second" | "third", RefreshResult[]> = { first: [], second: [], third: [] };
    const waits = waiter(LIMIT_MS);
    const watch = (who: keyof typeof heard) => {
      const watcher = skills.watch({
        debounceMs: 10,
        onChange: (r) => {
          heard[who].push(r);
          waits.wake();
        },
      });
      open.push(watcher);
      return watcher;
    };
    const first = watch("first");
    const second = watch("second");
    const third = watch("third");
    await Promise.all([first.ready, second.ready, third.ready]);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    const all = (n: number) => () => Object.values(heard).every((h) => h.length >= n);
    await waits.until(all(1), () => `not all heard b: ${JSON.stringify(heard)}`);
    await third.close();
    fs.rmSync(path.join(root, "a"), { recursive: true });
    await waits.until(
      () => heard.first.length >= 2 && heard.second.length >= 2,
      () => `not both heard a go: ${JSON.stringify(heard)}`,
    );
    // Every watcher's own refresh has run by now (each found nothing new): no report came twice.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const b = { added: ["b"], removed: [], changed: [] };
    const a = { added: [], removed: ["a"], changed: [] };
    expect(heard).toEqual({ first: [b, a], second: [b, a], third: [b] });
  });

  test("what one watcher's onChange throws goes to its own onError; the others still hear the change", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const boom = new Error("boom");
    const errors: [string, unknown][] = [];
    const heard: RefreshResult[] = [];
    const waits = waiter(LIMIT_MS);
    const throwing = skills.watch({
      debounceMs: 10,
      onChange: () => {
        throw boom;
      },
      onError: (e) => {
        errors.push(["throwing", e]);
        waits.wake();
      },
    });
    const quiet = skills.watch({
      debounceMs: 10,
      onChange: (r) => {
        heard.push(r);
        waits.wake();
      },
      onError: (e) => errors.push(["quiet", e]),
    });
    open.push(throwing, quiet);
    await Promise.all([throwing.ready, quiet.ready]);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await waits.until(
      () => errors.length > 0 && heard.length > 0,
      () => "the change or the error not seen",
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([["throwing", boom]]);
    expect(heard).toEqual([{ added: ["b"], removed: [], changed: [] }]);
  });
});

describe("degraded: polling", () => {
  test("a watch refused with ENOSPC polls instead, with a watch_degraded warning naming the cause", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    failAt("watch", root, "ENOSPC");
    const w = await live([root], { pollMs: 20 });
    const degraded = w.warnings.filter((x) => x.code === "watch_degraded");
    expect(degraded).toEqual([
      {
        code: "watch_degraded",
        message: `cannot watch ${root} (ENOSPC); polling every 20 ms instead of watching for events`,
        path: root,
      },
    ]);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added by a poll", () => names(w.skills).includes("b"));
  });

  test("fs.watch failing for real (EMFILE: no descriptor left) falls back to polling", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    // Every descriptor is taken while the watcher starts, then given back for the scans.
    const script = `
      import * as fs from "node:fs";
      import { createAgentSkills, setWarnSink } from ${JSON.stringify(DIST)};
      const root = ${JSON.stringify(root)};
      const warnings = [];
      setWarnSink((w) => warnings.push(w));
      const skills = createAgentSkills({ roots: [{ path: root }] });
      const hog = [];
      try { for (;;) hog.push(fs.openSync("/dev/null", "r")); } catch (e) { if (e.code !== "EMFILE") throw e; }
      let changed;
      const seen = new Promise((resolve) => { changed = resolve; });
      // A poll while every descriptor is taken would find the root unreadable: the first one comes after
      // the descriptors are given back.
      const w = skills.watch({ pollMs: 250, persistent: true, onChange: changed });
      while (!warnings.some((x) => x.code === "watch_degraded")) await new Promise((r) => setTimeout(r, 1));
      for (const fd of hog) fs.closeSync(fd);
      await w.ready;
      fs.mkdirSync(root + "/b");
      fs.writeFileSync(root + "/b/SKILL.md", "---\\nname: b\\ndescription: d\\n---\\n");
      const result = await seen;
      await w.close();
      process.stdout.write(JSON.stringify({ warnings, result }));
    `;
    const [status, out] = await runChild(script, "ulimit -n 256 &&");
    expect(status).toBe(0);
    const above = path.dirname(root);
    expect(JSON.parse(out)).toEqual({
      warnings: [
        {
          code: "watch_degraded",
          message: `cannot watch ${above} (EMFILE); polling every 250 ms instead of watching for events`,
          path: above,
        },
      ],
      result: { added: ["b"], removed: [], changed: [] },
    });
  });

  test("the watcher's own listing of a root failing leaves the rest live", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    failAt("watchReaddir", root, "EIO");
    const w = await live([root]);
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added", () => names(w.skills).includes("b"));
  });

  test("a manifest link that can be neither resolved nor read is left unwatched", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "x/SKILL.md": { symlink: "missing.md" } });
    const link = path.join(root, "x", "SKILL.md");
    failAt("watchReadlink", link, "EIO");
    const w = await live([root]);
    expect(w.skills.warnings.map((x) => x.code)).toEqual(["dangling_symlink"]);
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "edited"));
    await w.until("a edited", () => description(w.skills, "a") === "edited");
  });

  test("a root's parent created while the watch above it is being set is followed down", async () => {
    const ws = tempDir();
    const root = path.join(ws, "a", "b", "skills");
    actAt("watch", ws, () => fs.mkdirSync(path.join(ws, "a")));
    const w = await live([root]);
    writeTree({ "a/b/skills/late/SKILL.md": skill("late") }, ws);
    await w.until("late added", () => names(w.skills).includes("late"));
  });

  test("usePolling polls without a warning", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const w = await live([root], { usePolling: true, pollMs: 20 });
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added by a poll", () => names(w.skills).includes("b"));
    expect(w.warnings.filter((x) => x.code === "watch_degraded")).toEqual([]);
  });

  test("a watch that fails for another reason (EACCES) leaves that path unwatched and the rest live", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    failAt("watch", path.join(root, "a"), "EACCES");
    const w = await live([root]);
    fs.writeFileSync(path.join(root, "b", "SKILL.md"), skill("b", "edited"));
    await w.until("b edited", () => description(w.skills, "b") === "edited");
    expect(w.warnings.filter((x) => x.code === "watch_degraded")).toEqual([]);
  });
});

describe("options and lifetime", () => {
  test.each([
    [null, "watch options must be an object, received null"],
    [{ debounceMs: -1 }, "watch option debounceMs must be a number of milliseconds >= 0, received -1"],
    [{ pollMs: 0 }, "watch option pollMs must be a number of milliseconds >= 1, received 0"],
    [{ pollMs: Number.NaN }, "watch option pollMs must be a number of milliseconds >= 1, received NaN"],
    [{ persistent: "yes" }, "watch option persistent must be a boolean, received yes"],
    [{ usePolling: 1 }, "watch option usePolling must be a boolean, received 1"],
    [{ onChange: 3 }, "watch option onChange must be a function, received number"],
    [{ signal: {} }, "watch option signal must be an AbortSignal, received [object Object]"],
  ])("%o is refused: %s", (options, message) => {
    const skills = createAgentSkills({ roots: [{ path: tempDir() }] });
    expect(() => skills.watch(options as WatchOptions)).toThrow(new StartupError(message));
  });

  test("close() releases every handle and timer it made; no refresh starts after it", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = count();
    const w = await live([root], { persistent: true });
    // The root, the folder above it, every folder further up, and two skill directories.
    expect(count() - before).toBe(4 + further(root));
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "edited"));
    await w.watcher.close();
    expect(count()).toBe(before);
    const snapshot = w.skills.listSkills();
    writeTree({ "c/SKILL.md": skill("c") }, root);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(w.skills.listSkills()).toBe(snapshot);
    expect(w.changes.filter((c) => c.added.includes("c"))).toEqual([]);
  });

  test("with followSymlinks: false, symlinked skill directories and manifests are not watched", async () => {
    const store = writeTree({ "x/SKILL.md": skill("x"), "m.md": skill("m") });
    const root = writeTree({
      "a/SKILL.md": skill("a"),
      "m/SKILL.md": { symlink: path.join(store, "m.md") },
      x: { symlink: path.join(store, "x") },
    });
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = count();
    const w = await live([root], { persistent: true }, { followSymlinks: false });
    // The root, the folders above it, and the real directories a and m: no link is followed.
    expect(count() - before).toBe(4 + further(root));
    writeTree({ "b/SKILL.md": skill("b") }, root);
    await w.until("b added", () => names(w.skills).includes("b"));
    expect(names(w.skills)).toEqual(["a", "b"]);
  });

  test("a polling watcher's timer is released by close()", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    // The timers made while the watcher starts, followed one by one: a count of every active timer in
    // the process also saw other timers come and go (a flake under load).
    const timers = new Set<number>();
    const hook = createHook({
      init: (id, type) => void (type === "Timeout" && timers.add(id)),
      destroy: (id) => void timers.delete(id),
    }).enable();
    try {
      const w = await live([root], { persistent: true, usePolling: true });
      expect(timers.size).toBe(1);
      await w.watcher.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(timers.size).toBe(0);
    } finally {
      hook.disable();
    }
  });

  test("an AbortSignal closes it, and one already aborted starts nothing", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = count();
    const controller = new AbortController();
    const w = await live([root], { persistent: true, signal: controller.signal });
    expect(count()).toBeGreaterThan(before);
    controller.abort();
    await w.watcher.close();
    expect(count()).toBe(before);

    const skills = createAgentSkills({ roots: [{ path: root }] });
    const idle = skills.watch({ signal: AbortSignal.abort(), persistent: true });
    await idle.ready;
    expect(count()).toBe(before);
    await idle.close();
  });

  test("a process that only watches exits on its own, whether it closes or not", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const code = (persistent: boolean, close: boolean, more = "") => `
      import { createAgentSkills } from ${JSON.stringify(DIST)};
      const w = createAgentSkills({ roots: [{ path: ${JSON.stringify(root)} }] }).watch({ persistent: ${persistent}, ${more} });
      await w.ready;
      ${close ? "await w.close();" : ""}
      process.stdout.write("ready");
    `;
    // Side by side: each child exits (or is killed after LIMIT_MS) on its own.
    const exits = await Promise.all([
      runChild(code(false, false)),
      runChild(code(true, true)),
      runChild(code(false, false, "usePolling: true")),
    ]);
    expect(exits).toEqual([
      [0, "ready"],
      [0, "ready"],
      [0, "ready"],
    ]);
  });
});
