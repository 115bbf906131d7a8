// Issue 10, findings 7 and 8: what a snapshot holds. Each manifest's bytes are their own buffer, so a
// kept body pins nothing else across refreshes; bodies nobody can load (duplicates, overridden skills)
// are not kept, and are read again if their candidate later wins.
import * as fs from "node:fs";
import * as path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { setFaultHook } from "../src/fsx.js";
import { createAgentSkills, createAgentSkillsAsync } from "../src/index.js";
import { scanSync } from "../src/scan.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Bytes held in ArrayBuffers after a full collection. */
function held(): number {
  gc();
  gc();
  return process.memoryUsage().arrayBuffers;
}

test("finding 7: every manifest is read into a buffer of its own, exactly its size", () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 20; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`, "d", `pad: ${"p".repeat(i * 50)}`);
  const root = writeTree(tree);
  const scan = scanSync(resolveConfig({ roots: [{ path: root }] }));
  const buffers = new Set<ArrayBufferLike>();
  for (const item of scan.roots[0] ?? []) {
    if (item.kind !== "candidate" || !item.outcome.ok) throw new Error("expected valid candidates");
    const { buffer } = item.outcome.body;
    buffers.add(buffer);
    expect(buffer.byteLength).toBe(fs.statSync(item.path).size);
  }
  expect(buffers.size).toBe(20);
});

test.each([false, true])(
  "finding 8: in-root duplicates and overridden skills keep no body (async %s)",
  async (async) => {
    const MiB = 1024 * 1024;
    const big = (name: string) => manifest(`name: ${name}\ndescription: d`, "b".repeat(MiB - 100));
    const tree: Record<string, string> = {};
    for (let i = 0; i < 12; i++) tree[`r1/d${String(i).padStart(2, "0")}/SKILL.md`] = big("dup");
    for (let i = 0; i < 8; i++) tree[`r1/o${i}/SKILL.md`] = big(`o${i}`);
    for (let i = 0; i < 8; i++) tree[`r2/o${i}/SKILL.md`] = skill(`o${i}`);
    const base = writeTree(tree);
    const start = held();
    const options = {
      roots: [{ path: path.join(base, "r1") }, { path: path.join(base, "r2") }],
      onWarning: () => {},
    };
    const skills = async ? await createAgentSkillsAsync(options) : createAgentSkills(options);
    const growth = held() - start;
    // One body of 1 MiB is served (dup, from d00); 11 duplicates and 8 overridden bodies are not kept.
    expect(skills.listSkills()).toHaveLength(9);
    expect(growth).toBeGreaterThan(MiB / 2);
    expect(growth).toBeLessThan(3 * MiB);
  },
);

test.each([false, true])(
  "a dropped body is read again when its candidate wins later (async %s)",
  async (async) => {
    const base = writeTree({
      "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body"),
      "r1/b1/SKILL.md": manifest("name: b\ndescription: d", "first b"),
      "r1/b2/SKILL.md": manifest("name: b\ndescription: d", "second b"),
      "r2/a/SKILL.md": manifest("name: a\ndescription: d", "workspace body"),
    });
    const options = {
      roots: [{ path: path.join(base, "r1") }, { path: path.join(base, "r2") }],
      onWarning: () => {},
    };
    const skills = async ? await createAgentSkillsAsync(options) : createAgentSkills(options);
    expect(skills.loadSkill("a")?.body).toBe("workspace body");
    expect(skills.loadSkill("b")?.body).toBe("first b");
    fs.rmSync(path.join(base, "r2", "a"), { recursive: true });
    fs.rmSync(path.join(base, "r1", "b1"), { recursive: true });
    const reads: string[] = [];
    setFaultHook((op, p) => {
      if (op === "readManifest") reads.push(p);
    });
    const result = async ? await skills.refreshAsync() : skills.refresh();
    setFaultHook(null);
    expect(result.changed).toEqual(["a", "b"]);
    expect(skills.loadSkill("a")?.body).toBe("user body");
    expect(skills.loadSkill("b")?.body).toBe("second b");
    // The two files were unchanged, so only the dropped bodies were read, each once.
    expect(reads.sort()).toEqual([
      path.join(base, "r1", "a", "SKILL.md"),
      path.join(base, "r1", "b2", "SKILL.md"),
    ]);
  },
);

test("a dropped body that cannot be read again serves an empty body until the next scan", async () => {
  const base = writeTree({
    "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body"),
    "r2/a/SKILL.md": manifest("name: a\ndescription: d", "workspace body"),
  });
  await pastTrustWindow(base);
  const skills = createAgentSkills({
    roots: [{ path: path.join(base, "r1") }, { path: path.join(base, "r2") }],
    onWarning: () => {},
  });
  fs.rmSync(path.join(base, "r2", "a"), { recursive: true });
  const file = path.join(base, "r1", "a", "SKILL.md");
  setFaultHook((op, p) => {
    if (op === "readManifest" && p === file) throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
  });
  expect(skills.refresh().changed).toEqual(["a"]);
  setFaultHook(null);
  expect(skills.loadSkill("a")?.body).toBe("");
});
