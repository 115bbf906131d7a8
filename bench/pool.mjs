// Pooling for bench/search-eval.json, judged blind: for every request of a split, the union of the top N of
// plain BM25 (name + description, as in bench/search.mjs), of search() and of search({ floor: 0 }), less the
// skills already judged for that request (`relevant`, and `nonrelevant` where present), printed as
// (request, skill, description) pairs shuffled with a fixed seed and without saying which ranker proposed
// which, so that the judge cannot favour one. Rerun it after a ranker change to judge only its new proposals.
// Usage: node bench/pool.mjs [--split test3] [--depth 5] [--seed 14] [--json]
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openEvaluation, plainBm25 } from "./bm25.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const lib = await import(pathToFileURL(path.join(here, "..", "dist", "index.js")).href);
const corpus = path.resolve(here, "..", "..", "shared", "corpus", "real-skills");
const { values } = parseArgs({
  options: {
    split: { type: "string", default: "test3" },
    depth: { type: "string", default: "5" },
    seed: { type: "string", default: "14" },
    json: { type: "boolean", default: false },
  },
});
const depth = Number(values.depth);
if (!fs.existsSync(corpus)) {
  console.log(`pooling skipped: no corpus at ${corpus}`);
  process.exit(0);
}
const { skills, list, queries } = openEvaluation(lib, corpus);
const subset = queries.filter((q) => q.split === values.split);
if (subset.length === 0) throw new Error(`no request with split ${values.split}`);

/** The baseline of bench/search.mjs (kept identical): BM25 k1 1.2, b 0.75 over name + description, no stemming. */

const bm25 = plainBm25(list);
const names = (matches) => matches.map((m) => m.skill.name);
const rankers = [
  (q) => bm25(q, depth),
  (q) => names(skills.search(q, { limit: depth })),
  (q) => names(skills.search(q, { limit: depth, floor: 0 })),
];

const pairs = [];
for (const q of subset) {
  const judged = new Set([...Object.keys(q.relevant), ...(q.nonrelevant ?? [])]);
  const pool = new Set(rankers.flatMap((rank) => rank(q.query)));
  for (const name of [...pool].sort())
    if (!judged.has(name))
      pairs.push({ id: q.id, query: q.query, skill: name, description: skills.getSkill(name).description });
}

// Mulberry32: a fixed seed gives the same order on every run, and the order says nothing about the ranker.
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
for (let i = pairs.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
}

if (values.json) console.log(JSON.stringify(pairs, null, 2));
else {
  console.log(
    `# ${pairs.length} unjudged pairs for split ${values.split} (top ${depth} of each ranker, pooled)`,
  );
  for (const p of pairs)
    console.log(`${p.id}\t${p.query}\n\t${p.skill}: ${p.description.replace(/\s+/g, " ").slice(0, 300)}`);
}
