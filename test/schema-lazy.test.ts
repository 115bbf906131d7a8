// The exported schema is a real zod schema, yet importing the package and discovering skills never
// loads `zod` (start-up cost); the built package is checked in a child process of its own.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, test } from "vitest";
import { z } from "zod";
import { skillFrontmatterSchema } from "../src/index.js";
import { manifest, tempDir, writeTree } from "./helpers/fixture.js";

const REPO = path.resolve(import.meta.dirname, "..");
const VERSION = "9.9.9-lazy";

/**
 * A copy of the built package beside a node_modules holding `yaml` and no `zod`: in it, whatever
 * loads zod fails with ERR_MODULE_NOT_FOUND / MODULE_NOT_FOUND, which is how the test sees the load.
 */
function packageWithoutZod(): string {
  const dir = tempDir();
  fs.cpSync(path.join(REPO, "dist"), path.join(dir, "dist"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", version: VERSION }));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.join(REPO, "node_modules", "yaml"), path.join(dir, "node_modules", "yaml"));
  return dir;
}

/** Run `script` as an ES module in `cwd`. */
function run(cwd: string, script: string): string {
  return node(cwd, ["--input-type=module", "-e", script]);
}

/** What node prints on stdout, then on stderr. */
function node(cwd: string, args: string[]): string {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  return `${r.stdout}${r.stderr}`.trim();
}

/** How a failed load of zod shows, thrown or as the skill's `invalid_skill` warning. */
const NO_ZOD = /Cannot find (?:module|package) 'zod'|MODULE_NOT_FOUND/;

test("importing the package and discovering skills, valid or not, never loads zod", () => {
  const pkg = packageWithoutZod();
  const plain = writeTree({ "plain/SKILL.md": manifest("name: plain\ndescription: Plainly valid.") });
  const list = (root: string) =>
    `const m = await import("./dist/index.js");
     console.log(m.createAgentSkills({ roots: [{ path: ${JSON.stringify(root)} }] }).listSkills().map((s) => s.name).join());`;
  const broken = writeTree({
    "word/SKILL.md": manifest("name: word\ndescription: d\nuser-invocable: 'no'"),
    "nameless/SKILL.md": manifest("description: d"),
  });
  expect(run(pkg, list(plain))).toBe("plain");
  expect(node(pkg, ["dist/cli/bin.js", "--version"])).toBe(VERSION);
  // Discovery settles every manifest by the schema's rules without zod: a word boolean, a refusal.
  const refusal =
    /^word\nagent-skills: warning: invalid_skill: \S+\/nameless\/SKILL\.md: frontmatter "name" is missing; skipped$/;
  expect(run(pkg, list(broken))).toMatch(refusal);
  // The schema itself is zod's.
  expect(run(pkg, `(await import("./dist/index.js")).skillFrontmatterSchema.shape;`)).toMatch(NO_ZOD);
  expect(run(REPO, list(broken))).toMatch(refusal);
});

test("skillFrontmatterSchema behaves as the zod object schema it stands for", () => {
  expect(skillFrontmatterSchema instanceof z.ZodObject).toBe(true);
  expect(skillFrontmatterSchema instanceof z.ZodType).toBe(true);
  expect(Object.keys(skillFrontmatterSchema.shape)).toEqual([
    "name",
    "description",
    "allowed-tools",
    "tools",
    "user-invocable",
  ]);
  const extended = skillFrontmatterSchema.extend({ version: z.number() });
  expect(extended.safeParse({ name: "a", description: "b", version: 2 }).success).toBe(true);
  expect(extended.safeParse({ name: "a", description: "b", version: "2" }).success).toBe(false);
  const nested = z.object({ fm: skillFrontmatterSchema });
  expect(nested.parse({ fm: { name: "a", description: "b", "user-invocable": "Off" } })).toEqual({
    fm: { name: "a", description: "b", "user-invocable": false },
  });
  expect(z.toJSONSchema(skillFrontmatterSchema).required).toEqual(["name", "description"]);
  expect("safeParse" in skillFrontmatterSchema).toBe(true);
  expect(Reflect.ownKeys(skillFrontmatterSchema)).toContain("_zod");
});

test("the command line is one module with yaml inside: it reads a broken manifest with no yaml installed", () => {
  // Node 20 loads the CLI's ~45 modules and yaml's ~70 files one by one; the build bundles them (issue 13).
  expect(fs.readdirSync(path.join(REPO, "dist", "cli")).sort()).toEqual(["bin.js", "main.js"]);
  const pkg = packageWithoutZod();
  fs.rmSync(path.join(pkg, "node_modules"), { recursive: true });
  const root = writeTree({
    "broken/SKILL.md": manifest('name: broken\ndescription: "unclosed'),
    "plain/SKILL.md": manifest("name: plain\ndescription: Plainly valid."),
  });
  const r = spawnSync(process.execPath, ["dist/cli/bin.js", "list", "--json", "--root", root], {
    cwd: pkg,
    encoding: "utf8",
  });
  expect((JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name)).toEqual(["plain"]);
  expect(r.stderr).toMatch(/broken.SKILL\.md:4:1: invalid YAML: Missing closing "quote; skipped\n/);
  expect(r.status).toBe(0);
});
