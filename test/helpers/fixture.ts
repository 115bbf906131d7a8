// Fixture trees written from object literals into fresh temp folders under the real tmpdir.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";

/** A file's content, a symlink (target as written), a FIFO, or an empty directory. */
export type Node = string | Buffer | { symlink: string } | { fifo: true } | { dir: true };

/** Paths relative to the tree's top, "/"-separated, mapped to what they hold. */
export type Tree = Record<string, Node>;

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
});

/** A fresh empty folder (its realpath), removed after the test. */
export function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-skills-")));
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

/** The corpus of real skills beside the repository (`../shared/corpus/real-skills`). */
export const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus/real-skills");

/** The corpus repository folders, each usable as a root, sorted. */
export function corpusRoots(): { path: string; source: string }[] {
  return fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => ({ path: path.join(CORPUS, name), source: name }));
}
