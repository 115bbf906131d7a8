// Issue 9, leftover survivors of src/schema.ts: a key the caller added to the exported schema (which
// discovery does not follow), and deep freezing (null and the other primitives skipped, nested objects frozen).
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { expect, test } from "vitest";
import { validateFrontmatter } from "../src/schema.js";
import { manifest, writeTree } from "./helpers/fixture.js";

const REPO = path.resolve(import.meta.dirname, "..");
const base = { name: "pdf", description: "Read PDFs." };

test("metadata with null, numbers, booleans and strings at every level is frozen down to its objects", () => {
  const got = validateFrontmatter({ ...base, n: null, deep: { a: [null, 1, true, "s", { b: null }] } });
  if (!got.ok) throw new Error(got.message);
  const m = got.value.metadata as { n: null; deep: { a: [null, number, boolean, string, { b: null }] } };
  expect(m.deep.a).toEqual([null, 1, true, "s", { b: null }]);
  expect([Object.isFrozen(m.deep), Object.isFrozen(m.deep.a), Object.isFrozen(m.deep.a[4])]).toEqual([
    true,
    true,
    true,
  ]);
});

test("a key the caller added to the exported schema does not change what discovery accepts", () => {
  // The built package in a process of its own: the change must reach the schema before zod's first parse
  // reads its shape, and in this process other files may have parsed with it already.
  const root = writeTree({
    "pdf/SKILL.md": manifest("name: pdf\ndescription: Read PDFs.\nversion: one\nuser-invocable: 'yes'"),
  });
  const script = `
    const m = await import("./dist/index.js");
    const { z } = await import("zod");
    m.skillFrontmatterSchema.shape.version = z.number();
    const parsed = m.skillFrontmatterSchema.safeParse({ name: "pdf", description: "Read PDFs.", version: "one" });
    const skills = m.createAgentSkills({ roots: [{ path: ${JSON.stringify(root)} }] }).listSkills();
    console.log(JSON.stringify([parsed.success, skills.map((s) => [s.name, s.userInvocable])]));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  // The exported schema took the key; discovery checks the package's own rules all the same.
  expect(JSON.parse(r.stdout)).toEqual([false, [["pdf", true]]]);
});
