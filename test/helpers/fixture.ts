// Fixture trees written from object literals into fresh temp folders under the real tmpdir.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "vitest";
import type { SkillInfo } from "../../src/index.js";
import { TEMP_ROOT_VARIABLE } from "./temp-root.js";

/** A file's content, a symlink (target as written), a FIFO, or an empty directory. */
export type Node = string | Buffer | { symlink: string } | { fifo: true } | { dir: true };

/** Paths relative to the tree's top, "/"-separated, mapped to what they hold. */
export type Tree = Record<string, Node>;

const made: string[] = [];

/** Remove every folder {@link tempDir} made: test/helpers/setup.ts does it after each test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}

/** A fresh empty folder (its realpath), removed after the test file. */
export function tempDir(): string {
  // Inside the run's own folder when the main config's global setup made one (test/helpers/temp-root.ts).
  const base = process.env[TEMP_ROOT_VARIABLE] ?? os.tmpdir();
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(base, "agent-skills-")));
  made.push(dir);
  return dir;
}

/** Write `tree` under `base` (a fresh temp folder when omitted) and return `base`. */
export function writeTree(tree: Tree, base: string = tempDir()): string {
  for (const [rel, node] of Object.entries(tree)) {
    const abs = path.join(base, ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof node === "string" || Buffer.isBuffer(node)) fs.writeFileSync(abs, node);
    else if ("symlink" in node) fs.symlinkSync(node.symlink, abs);
    else if ("fifo" in node) mkfifo(abs);
    else fs.mkdirSync(abs, { recursive: true });
  }
  return base;
}

function mkfifo(abs: string): void {
  // Node has no mkfifo; the coreutils binary is on every POSIX machine this runs on.
  execFileSync("mkfifo", [abs]);
}

/** A SKILL.md text with the given frontmatter lines and body. */
export function manifest(frontmatter: string, body = "Body."): string {
  return `---\n${frontmatter}\n---\n${body}\n`;
}

/** A minimal valid manifest for `name`. */
export function skill(name: string, description = `The ${name} skill.`, extra = ""): string {
  return manifest(`name: ${name}\ndescription: ${description}${extra === "" ? "" : `\n${extra}`}`);
}

/** The vendored real skills (test/fixtures/real-skills, see its SOURCES.md): always present. */
export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/real-skills");

/** The full corpus of real skills beside the repository (`../shared/corpus/real-skills`): CI only. */
export const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus/real-skills");

/** Whether the full corpus is there; a fresh clone with nothing beside it has none. */
export const HAS_CORPUS = fs.existsSync(CORPUS);

/** Why corpus tests were skipped: shown in each skipped test's title and once by the global setup. */
export const NO_CORPUS =
  "skipped: no ../shared/corpus/real-skills beside the repository (.ci/run requires it)";

/**
 * A test over the full corpus: run when the corpus is there, else skipped with the reason in its title,
 * so a fresh clone passes and the report still says what did not run.
 */
export function corpusTest(name: string, fn: () => unknown, timeout?: number): void {
  if (HAS_CORPUS) test(name, fn, timeout);
  else test.skip(`${name} [${NO_CORPUS}]`, fn);
}

/** The repository folders of `base`, each usable as a root, sorted by name. */
function repositoryRoots(base: string): { path: string; source: string }[] {
  return fs
    .readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => ({ path: path.join(base, name), source: name }));
}

/** The corpus repository folders, each usable as a root, sorted. Only inside `corpusTest`. */
export function corpusRoots(): { path: string; source: string }[] {
  return repositoryRoots(CORPUS);
}

/** The vendored repository folders (anthropics__skills, openai__skills, openclaw__skills), sorted. */
export function fixtureRoots(): { path: string; source: string }[] {
  return repositoryRoots(FIXTURES);
}

/**
 * Every manifest under `roots`, one per skill folder, sorted: `SKILL.md`, else the first of its case
 * variants (as discovery picks them).
 */
export function manifestFiles(roots: readonly { path: string }[]): string[] {
  const files: string[] = [];
  for (const { path: root } of roots) {
    for (const dir of fs.readdirSync(root).sort()) {
      const names = fs.readdirSync(path.join(root, dir)).sort();
      const name = names.find((n) => n === "SKILL.md") ?? names.find((n) => n.toLowerCase() === "skill.md");
      if (name !== undefined) files.push(path.join(root, dir, name));
    }
  }
  return files;
}

/**
 * A catalog entry as `listSkills()` would give it, under the fixed root `/skills`, for the pure functions
 * (`renderCatalog`, `searchSkills`); `extra` overrides any field, and `body` gives the search index a body.
 */
export function skillInfo(
  name: string,
  description: string,
  extra: Partial<SkillInfo> & { body?: string } = {},
): SkillInfo {
  const dir = `/skills/${name}`;
  return {
    name,
    description,
    metadata: { name, description },
    userInvocable: true,
    scope: "workspace",
    source: "",
    root: "/skills",
    dir,
    path: `${dir}/SKILL.md`,
    ...extra,
  } as SkillInfo;
}

/** `inner` inside `n` flow sequences: `[[[inner]]]` for n = 3, for nesting-depth tests. */
export const nest = (n: number, inner: string): string => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;
