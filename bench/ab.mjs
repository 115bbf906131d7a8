// `npm run bench:ab -- --base REV`: createAgentSkills of the working tree's build against the build of an
// earlier commit, both loaded in one process and alternated round by round. Separate processes of the
// same code differ by ±15 % on the shared machine; alternating in one process takes the machine's drift
// out of the comparison, and the range of each round's pair shows the noise that is left (0.69–1.35 on
// a busy morning, when even 31 rounds could not rank two builds 3 % apart; 0.93–0.98 quiet). Try the
// same commit against itself (`--base HEAD`) first: that busy morning it gave 1.009x and 1.027x.
// Usage: node --expose-gc bench/ab.mjs --base REV [--rounds N] [--store corpus|synthetic]
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { floor } from "./floor.mjs";
import { integerOption, median, settle, timeSync } from "./measure.mjs";
import { fmt } from "./report.mjs";
import { CORPUS_DIR, storeRoots } from "./store.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const { values } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "15" },
    store: { type: "string", default: fs.existsSync(CORPUS_DIR) ? "corpus" : "synthetic" },
  },
});
if (values.base === undefined) throw new Error("--base REV is required: the commit to compare against");
const ROUNDS = integerOption("rounds", values.rounds);

/** The base commit's files, built in a temporary folder that borrows the repository's node_modules. */
function buildBase(rev) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-skills-ab-"));
  const archive = execFileSync("git", ["-C", repo, "archive", "--format=tar", rev], {
    maxBuffer: 1 << 30,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"), "dir");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: "inherit" });
  return dir;
}

const load = async (dist) => {
  const lib = await import(pathToFileURL(path.join(dist, "index.js")).href);
  lib.setWarnSink(() => {});
  return lib;
};

const { roots, remove } = storeRoots(values.store);
const baseDir = buildBase(values.base);
try {
  const base = await load(path.join(baseDir, "dist"));
  const head = await load(path.join(repo, "dist"));
  // One untimed create each: both builds compiled, the files in the page cache.
  base.createAgentSkills({ roots });
  head.createAgentSkills({ roots });
  const f = [];
  const a = [];
  const b = [];
  const pairs = [];
  for (let round = 0; round < ROUNDS; round++) {
    await settle();
    f.push(timeSync(() => floor(roots)));
    // Each build goes first in every other round: neither always follows the floor.
    const order = round % 2 === 0 ? [base, head] : [head, base];
    const took = new Map();
    for (const lib of order) {
      await settle();
      took.set(
        lib,
        timeSync(() => lib.createAgentSkills({ roots }).listSkills().length),
      );
    }
    a.push(took.get(base));
    b.push(took.get(head));
    pairs.push(took.get(head) / took.get(base));
  }
  process.stdout.write(
    [
      `\nnode ${process.version}, ${values.store} store, ${ROUNDS} rounds, medians (ms)\n`,
      "| build | createAgentSkills | / floor |",
      "| --- | ---: | ---: |",
      `| floor | ${fmt(median(f))} | |`,
      `| base (${values.base}) | ${fmt(median(a))} | ${(median(a) / median(f)).toFixed(2)}x |`,
      `| working tree | ${fmt(median(b))} | ${(median(b) / median(f)).toFixed(2)}x |`,
      "",
      `working tree / base: ${(median(b) / median(a)).toFixed(3)}x of the medians, ` +
        `${median(pairs).toFixed(3)}x the median of each round's pair ` +
        `(${Math.min(...pairs).toFixed(3)}–${Math.max(...pairs).toFixed(3)})`,
      "",
    ].join("\n"),
  );
} finally {
  fs.rmSync(baseDir, { recursive: true, force: true });
  remove();
}
