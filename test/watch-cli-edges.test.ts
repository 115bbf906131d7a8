// `list --watch` edges, main() in-process: warnings printed once each, colour, several lines at once, a failing
// stdout, and ending without a signal or with one already aborted.
import { getEventListeners } from "node:events";
import { expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { REPO, watchList } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

const BAD = "---\nname: [\n---\n";

const invalid = (err: string) => err.match(/warning: invalid_skill: /g)?.length ?? 0;

test("each warning is printed once: a lone new one, then only the new one of a scan that repeats the old", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root);
  await w.until(() => w.out().includes("1 skill\n"));
  // A scan whose only warning is new.
  writeTree({ "bad1/SKILL.md": BAD }, root);
  await w.until(() => invalid(w.err()) === 1);
  // A scan that warns of bad1 again and of bad2 for the first time.
  writeTree({ "bad2/SKILL.md": BAD }, root);
  await w.until(() => invalid(w.err()) === 2);
  // A change of a name that warns of both again, then one more new warning.
  writeTree({ "c/SKILL.md": skill("c") }, root);
  await w.until(() => w.out().includes("+ c"));
  writeTree({ "bad3/SKILL.md": BAD }, root);
  await w.until(() => invalid(w.err()) >= 3);
  w.stop();
  expect(await w.code).toBe(0);
  expect(
    w
      .err()
      .split("\n")
      .map((l) => l.match(/bad\d/)?.[0] ?? l),
  ).toEqual(["bad1", "bad2", "bad3", ""]);
  // The watch, long started, leaves no listener on the caller's (possibly long-lived) signal.
  expect(getEventListeners(w.signal, "abort")).toHaveLength(0);
});

test("on terminals: changes coloured by kind, several in one line each, the error red", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root, ["--strict"], { stdoutIsTTY: true, stderrIsTTY: true, columns: 80 });
  await w.until(() => w.out().includes("1 skill\n"));
  writeTree({ "b/SKILL.md": skill("b"), "c/SKILL.md": skill("c") }, root);
  await w.until(() => w.out().includes("+ c"));
  writeTree({ "bad/SKILL.md": BAD }, root);
  await w.until(() => w.err().includes("\n"));
  w.stop();
  expect(await w.code).toBe(0);
  expect(w.out().slice(w.out().indexOf("1 skill\n") + 8)).toBe(
    "\x1b[32m+ b  The b skill.\x1b[39m\n\x1b[32m+ c  The c skill.\x1b[39m\n",
  );
  const red = "\x1b[31merror\x1b[39m: invalid_skill: ";
  expect(w.err().slice(0, red.length)).toBe(red);
});

test("a stdout that throws on a change: its error printed without a code, and the watch goes on", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root, [], {}, (s) => s.startsWith("+ b"));
  await w.until(() => w.out().includes("1 skill\n"));
  writeTree({ "b/SKILL.md": skill("b") }, root);
  await w.until(() => w.err() !== "");
  writeTree({ "c/SKILL.md": skill("c") }, root);
  await w.until(() => w.out().includes("+ c"));
  w.stop();
  expect(await w.code).toBe(0);
  expect(w.err()).toBe("error: stdout is closed\n");
  expect(w.out().slice(w.out().indexOf("1 skill\n"))).toBe("1 skill\n+ c  The c skill.\n");
});

test("without a signal it ends once watching has started; with one already aborted too", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  let out = "";
  const io = {
    stdout: (s: string) => {
      out += s;
    },
    stderr: () => {},
    cwd: REPO,
    env: {},
  };
  await expect(main(["list", "--watch", "--root", root], io)).resolves.toBe(0);
  expect(out.endsWith("1 skill\n")).toBe(true);
  await expect(
    main(["list", "--watch", "--json", "--root", root], { ...io, signal: AbortSignal.abort() }),
  ).resolves.toBe(0);
});

test("stopped during a scan (from the warning it prints): the scan's changes are not printed", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const stop = new AbortController();
  let out = "";
  let err = "";
  const code = main(["list", "--watch", "--root", root], {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
      stop.abort();
    },
    cwd: REPO,
    env: {},
    signal: stop.signal,
  });
  // The table is printed before main returns its promise; the scan below warns of bad and adds b.
  expect(out).toBe("NAME  SCOPE      SOURCE  DESCRIPTION\na     workspace  -       The a skill.\n1 skill\n");
  writeTree({ "b/SKILL.md": skill("b"), "bad/SKILL.md": BAD }, root);
  expect(await code).toBe(0);
  expect([out.includes("+ b"), invalid(err)]).toEqual([false, 1]);
});

test("while watching, its file watches hold the process open (bin.ts has nothing else to wait on)", async () => {
  const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
  const before = watches();
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root);
  writeTree({ "b/SKILL.md": skill("b") }, root);
  // A change printed: watching has started.
  await w.until(() => w.out().includes("+ b"));
  const during = watches();
  w.stop();
  expect(await w.code).toBe(0);
  expect([during > before, watches()]).toEqual([true, before]);
});

test("a stdout that throws a value that is no Error: the value printed as the message", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  let out = "";
  const stdout = (s: string) => {
    // A bare string, as a hand-written stream wrapper might throw.
    if (s.startsWith("+ b")) throw "stdout is closed";
    out += s;
  };
  const w = watchList(root, [], { stdout });
  // The table is printed before main returns its promise.
  expect(out.endsWith("1 skill\n")).toBe(true);
  writeTree({ "b/SKILL.md": skill("b") }, root);
  await w.until(() => w.err() !== "");
  w.stop();
  expect(await w.code).toBe(0);
  expect(w.err()).toBe("error: stdout is closed\n");
});
