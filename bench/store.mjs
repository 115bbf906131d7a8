// The synthetic skill store: 4 roots x 2,500 skills written into a temp folder, deterministic for a given seed.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Skills per root by default, a quarter of which reuse a name shared by every root. */
export const PER_ROOT = 2500;
const ROOTS = ["user-agents", "workspace-agents", "user-clarvis", "workspace-clarvis"];

const WORDS = (
  "analyse build check deploy extract format generate index inspect lint migrate optimise parse " +
  "profile refactor render report review scan search summarise test trace translate validate " +
  "pdf spreadsheet repository changelog release schema invoice dataset diagram notebook api " +
  "service container cluster query dashboard ticket commit branch document slide image audio"
).split(" ");

/** A small deterministic generator (mulberry32), so every run writes the same bytes. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rnd, chars) {
  const words = [];
  let length = 0;
  while (length < chars) {
    const w = WORDS[Math.floor(rnd() * WORDS.length)];
    words.push(w);
    length += w.length + 1;
  }
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1);
}

/** The SKILL.md text of one synthetic skill: the frontmatter shapes most real manifests use. */
export function manifestText(name, rnd) {
  const description = `${sentence(rnd, 120)}. Use when the user asks to ${sentence(rnd, 40).toLowerCase()}.`;
  // Real manifests quote about one description in five; the rest are plain scalars.
  const quoted = rnd() < 0.2;
  const lines = [
    "---",
    `name: ${name}`,
    quoted ? `description: "${description}"` : `description: ${description}`,
    "license: Apache-2.0",
    "allowed-tools: Read Grep Bash(git log:*)",
    "metadata:",
    `  author: team-${Math.floor(rnd() * 50)}`,
    `  version: "1.${Math.floor(rnd() * 10)}"`,
    "---",
    `# ${name}`,
    "",
  ];
  for (let i = 0; i < 38; i++) lines.push(i % 8 === 7 ? "" : sentence(rnd, 70));
  return `${lines.join("\n")}\n`;
}

/** The name of skill `i` of root `r`: the first quarter of each root's `perRoot` is shared by every root. */
export function skillName(r, i, perRoot = PER_ROOT) {
  return i < perRoot / 4 ? `shared-skill-${i}` : `r${r}-skill-${i}`;
}

/**
 * Write the store under a fresh temp folder and return its root paths (ascending precedence).
 * Every skill has two resource files; every 100th has a third, for the loadSkill measure.
 */
export function writeStore(seed = 1, perRoot = PER_ROOT) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-skills-bench-")));
  const rnd = random(seed);
  const roots = ROOTS.map((label, r) => {
    const root = path.join(base, label);
    for (let i = 0; i < perRoot; i++) {
      const name = skillName(r, i, perRoot);
      const dir = path.join(root, name);
      fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), manifestText(name, rnd));
      fs.writeFileSync(path.join(dir, "reference.md"), `# ${name} reference\n\n${sentence(rnd, 400)}\n`);
      fs.writeFileSync(path.join(dir, "scripts", "run.sh"), "#!/bin/sh\necho run\n");
      if (i % 100 === 0) fs.writeFileSync(path.join(dir, "scripts", "extra.py"), "print('extra')\n");
    }
    return { path: root, source: label, scope: label.startsWith("user") ? "user" : "workspace" };
  });
  return { base, roots };
}

/** Remove a store written by {@link writeStore}. */
export function removeStore(base) {
  fs.rmSync(base, { recursive: true, force: true });
}

/** The real corpus beside the repository, when it is there (CI lays it out; a clone alone lacks it). */
export const CORPUS_DIR = path.resolve(import.meta.dirname, "..", "..", "shared", "corpus", "real-skills");

/** The corpus's repository folders as roots, each its own source, in path order. */
export function corpusRoots() {
  return fs
    .readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ path: path.join(CORPUS_DIR, d.name), source: d.name }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * The roots of a `--store` choice, "corpus" or "synthetic" (written now), and how to remove what was
 * written; the scripts that measure one store at a time use it.
 */
export function storeRoots(kind) {
  if (kind === "corpus") return { roots: corpusRoots(), remove: () => {} };
  if (kind !== "synthetic") throw new Error(`--store must be corpus or synthetic, got ${kind}`);
  const store = writeStore();
  return { roots: store.roots, remove: () => removeStore(store.base) };
}
