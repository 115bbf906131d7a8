// `npm run bench:contention`: createAgentSkills against its bare-I/O floor on a quiet machine and with a
// sibling process streaming through memory on the other core, as a busy shared machine does.
// Usage: node --expose-gc bench/contention.mjs [--rounds N] [--store corpus|synthetic] [--lib DIST]
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { floor } from "./floor.mjs";
import { integerOption, median, settle, timeSync } from "./measure.mjs";
import { fmt } from "./report.mjs";
import { CORPUS_DIR, storeRoots } from "./store.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "11" },
    store: { type: "string", default: fs.existsSync(CORPUS_DIR) ? "corpus" : "synthetic" },
    lib: { type: "string", default: path.join(here, "..", "dist") },
  },
});
const ROUNDS = integerOption("rounds", values.rounds);

const lib = await import(pathToFileURL(path.join(path.resolve(values.lib), "index.js")).href);
lib.setWarnSink(() => {});

/**
 * The sibling: 128 MiB of doubles read and written a cache line at a time, over and over, far more than
 * any cache holds. It takes memory bandwidth and the shared cache from the scan, not the scan's core.
 */
const SIBLING = `const a = new Float64Array(16 * 1024 * 1024);
for (;;) for (let i = 0; i < a.length; i += 8) a[i] += 1;`;

/** Start the sibling and wait until it runs (its first output would be too late: give it 300 ms). */
async function startSibling() {
  const child = spawn(process.execPath, ["-e", SIBLING], { stdio: "ignore" });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return child;
}

/** Rounds of the floor and a create, in alternating order, each after a collection and a pause. */
async function phase(roots) {
  const f = [];
  const c = [];
  const cases = [
    () => f.push(timeSync(() => floor(roots))),
    () => c.push(timeSync(() => lib.createAgentSkills({ roots }).listSkills().length)),
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of round % 2 === 0 ? cases : [...cases].reverse()) {
      await settle();
      run();
    }
  }
  return { floor: median(f), create: median(c) };
}

const { roots, remove } = storeRoots(values.store);
try {
  // One untimed create first: the code is compiled and the files are in the page cache for both phases.
  lib.createAgentSkills({ roots });
  const quiet = await phase(roots);
  const sibling = await startSibling();
  let busy;
  try {
    busy = await phase(roots);
  } finally {
    sibling.kill();
  }
  const ratio = (p) => `${(p.create / p.floor).toFixed(2)}x`;
  process.stdout.write(
    [
      `\nnode ${process.version}, ${values.store} store, ${ROUNDS} rounds a phase, medians (ms)\n`,
      "| phase | floor | createAgentSkills | create / floor |",
      "| --- | ---: | ---: | ---: |",
      `| quiet | ${fmt(quiet.floor)} | ${fmt(quiet.create)} | ${ratio(quiet)} |`,
      `| memory-streaming sibling | ${fmt(busy.floor)} | ${fmt(busy.create)} | ${ratio(busy)} |`,
      `| sibling / quiet | ${(busy.floor / quiet.floor).toFixed(2)}x | ${(busy.create / quiet.create).toFixed(2)}x | |`,
      "",
    ].join("\n"),
  );
} finally {
  remove();
}
