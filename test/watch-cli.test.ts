// `agent-skills list --watch`: main() driven in-process on real folders, stopped through io.signal; and the real bin stopped by SIGINT.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, test } from "vitest";
import { LIMIT_MS, REPO, run, watchList } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

test("list --watch prints the table, then a line per change, and exits 0 when stopped", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root);
  expect(w.code).toBeInstanceOf(Promise);
  await w.until(() => w.out().includes("1 skill\n"));
  writeTree({ "b/SKILL.md": skill("b") }, root);
  await w.until(() => w.out().includes("+ b"));
  fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "Edited."));
  await w.until(() => w.out().includes("~ a"));
  fs.rmSync(path.join(root, "b"), { recursive: true });
  await w.until(() => w.out().includes("- b"));
  // Broken skills change no name, but their warnings are printed, once each.
  writeTree({ "bad/SKILL.md": "---\nname: [\n---\n", "bad2/SKILL.md": "---\nname: [\n---\n" }, root);
  await w.until(() => (w.err().match(/warning: invalid_skill/g) ?? []).length === 2);
  w.stop();
  expect(await w.code).toBe(0);
  expect(w.out()).toBe(
    [
      "NAME  SCOPE      SOURCE  DESCRIPTION",
      "a     workspace  -       The a skill.",
      "1 skill",
      "+ b  The b skill.",
      "~ a  Edited.",
      "- b",
      "",
    ].join("\n"),
  );
  expect(w.err().match(/warning: invalid_skill/g)).toHaveLength(2);
});

test("list --watch --json prints one JSON object per line, the first holding the catalog", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root, ["--json"]);
  await w.until(() => w.out().split("\n").length === 2);
  writeTree({ "b/SKILL.md": skill("b") }, root);
  await w.until(() => w.out().split("\n").length === 3);
  w.stop();
  expect(await w.code).toBe(0);
  const lines = w
    .out()
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.added.map((s: { name: string }) => s.name), l.removed, l.changed])).toEqual([
    [["a"], [], []],
    [["b"], [], []],
  ]);
  expect(lines[1].added[0]).toMatchObject({ name: "b", dir: path.join(root, "b") });
});

test("a strict failure while watching is printed and the watch goes on", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const w = watchList(root, ["--strict"]);
  await w.until(() => w.out().includes("1 skill\n"));
  writeTree({ "bad/SKILL.md": "---\nname: [\n---\n" }, root);
  await w.until(() => w.err().includes("error: invalid_skill: "));
  fs.writeFileSync(path.join(root, "bad", "SKILL.md"), skill("bad"));
  await w.until(() => w.out().includes("+ bad"));
  w.stop();
  expect(await w.code).toBe(0);
});

test("--watch goes with list only", () => {
  const r = run(["show", "a", "--watch"]);
  expect([r.code, r.err.split("\n")[0]]).toEqual([2, "error: --watch goes with list only"]);
});

test("the built bin's list --watch stops cleanly on SIGINT with exit code 0", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a") });
  const child = spawn(
    process.execPath,
    [path.join(REPO, "dist/cli/bin.js"), "list", "--watch", "--root", root],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no table within ${LIMIT_MS} ms`)), LIMIT_MS);
    child.stdout.on("data", (d) => {
      out += d;
      if (!out.includes("1 skill\n")) return;
      clearTimeout(timer);
      resolve();
    });
  });
  writeTree({ "b/SKILL.md": skill("b") }, root);
  await new Promise<void>((resolve) => {
    child.stdout.on("data", () => {
      if (out.includes("+ b")) resolve();
    });
    if (out.includes("+ b")) resolve();
  });
  child.kill("SIGINT");
  expect(await exited).toBe(0);
});
