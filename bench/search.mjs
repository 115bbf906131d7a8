// `npm run bench` (search part): ranking quality on bench/search-eval.json against the real corpus, plain
// BM25 over name + description as the baseline, then query latency and index build time.
// Usage: node bench/search.mjs [--split NAME]... [--tune] [--quality-only]
//   --split dev       only these splits (repeatable; default: every split). Tune with `--split dev` only:
//                     the held-out splits are looked at once, at the end, never to change the ranker.
//   --tune            also print per-query ranks of the chosen splits (dev when none is chosen)
//   --quality-only    skip the speed measurements
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openEvaluation, plainBm25 } from "./bm25.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const lib = await import(pathToFileURL(path.join(here, "..", "dist", "index.js")).href);
const corpus = path.resolve(here, "..", "..", "shared", "corpus", "real-skills");
const { values } = parseArgs({
  options: {
    tune: { type: "boolean", default: false },
    split: { type: "string", multiple: true },
    "quality-only": { type: "boolean", default: false },
  },
});
if (!fs.existsSync(corpus)) {
  console.log(`search bench skipped: no corpus at ${corpus}`);
  process.exit(0);
}
const { roots, skills, list, queries } = openEvaluation(lib, corpus);
for (const q of queries)
  for (const name of Object.keys(q.relevant))
    if (skills.getSkill(name) === undefined) throw new Error(`${q.id}: no skill ${name} in the catalog`);

function metrics(rank, subset) {
  const answered = subset.filter((q) => Object.keys(q.relevant).length > 0);
  const none = subset.filter((q) => Object.keys(q.relevant).length === 0);
  let r5 = 0,
    s1 = 0,
    mrr = 0,
    ndcg = 0;
  for (const q of answered) {
    const got = rank(q.query);
    const rel = q.relevant;
    const total = Object.keys(rel).length;
    r5 += got.slice(0, 5).filter((n) => rel[n] !== undefined).length / total;
    s1 += rel[got[0]] !== undefined ? 1 : 0;
    const first = got.findIndex((n) => rel[n] !== undefined);
    mrr += first < 0 ? 0 : 1 / (first + 1);
    const dcg = got.slice(0, 10).reduce((a, n, i) => a + (2 ** (rel[n] ?? 0) - 1) / Math.log2(i + 2), 0);
    const ideal = Object.values(rel)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((a, g, i) => a + (2 ** g - 1) / Math.log2(i + 2), 0);
    ndcg += dcg / ideal;
  }
  const n = answered.length;
  const empty = none.filter((q) => rank(q.query).length === 0).length;
  return { n, r5: r5 / n, s1: s1 / n, mrr: mrr / n, ndcg: ndcg / n, empty, none: none.length };
}

const contents = list.map((s) => skills.loadSkill(s.name));
const names = (matches) => matches.map((m) => m.skill.name);
const rankers = {
  "plain BM25 (name + description)": plainBm25(list),
  "ours, no floor": (q) => names(skills.search(q, { floor: 0 })),
  "ours, without the body, no floor": (q) => names(lib.searchSkills(list, q, { floor: 0 })),
  "ours, without the body": (q) => names(lib.searchSkills(list, q)),
  ours: (q) => names(skills.search(q)),
};

/**
 * Requests padded with generic context, as longer requests are written: the floor must not drop them.
 * Written once, not from any request of the set; applied to every request of the chosen splits.
 */
const PADDINGS = [
  (q) => `${q}, I need this done for a project at work`,
  (q) => `I've been trying for a while: ${q}`,
  (q) => `${q} — what's the best way to do that?`,
  (q) => `can you ${q} quickly, it's for my team`,
  (q) => `${q} and explain the steps`,
  (q) => `hi! ${q}. thanks a lot in advance`,
];

// While tuning, the held-out splits stay out of sight. dev-para was written while designing the floor
// (dev's requests in other words, and more that no skill serves): tuned on, like dev. test to test4
// were held out until the floor's unknown-word share moved from a fifth to a quarter, which was chosen
// on every split written by then: since, they count as tuned on. test5 was written blind after that
// choice and scored once: the part held out.
const TUNED = new Set(["dev", "dev-para"]);
const BEFORE_TEST5 = new Set(["dev", "dev-para", "test", "test2", "test3", "test4"]);
const SPLITS = {
  dev: (q) => q.split === "dev",
  "dev-para": (q) => q.split === "dev-para",
  "tuned on: dev + dev-para": (q) => TUNED.has(q.split),
  test: (q) => q.split === "test",
  test2: (q) => q.split === "test2",
  test3: (q) => q.split === "test3",
  "test + test2 + test3": (q) => ["test", "test2", "test3"].includes(q.split),
  test4: (q) => q.split === "test4",
  "every split before test5 (the quarter chosen on them)": (q) => BEFORE_TEST5.has(q.split),
  "test5, held out": (q) => q.split === "test5",
  all: () => true,
};
const chosen = values.split ?? (values.tune ? ["dev"] : Object.keys(SPLITS));
for (const split of chosen)
  if (SPLITS[split] === undefined && !queries.some((q) => q.split === split))
    throw new Error(
      `--split ${split}: no such split (${Object.keys(SPLITS).join(", ")}, or a split named in the file)`,
    );
const inSplit = (split) => SPLITS[split] ?? ((q) => q.split === split);

if (values.tune) {
  for (const q of queries.filter((x) => chosen.some((split) => inSplit(split)(x)))) {
    const matches = skills.search(q.query, { floor: 0 });
    const got = names(matches);
    const base = rankers["plain BM25 (name + description)"](q.query);
    const pos = (g) => g.findIndex((n) => q.relevant[n] !== undefined) + 1;
    const scores = matches
      .filter((m) => q.relevant[m.skill.name] !== undefined)
      .map((m) => m.score.toFixed(3));
    console.log(
      `${q.id} ours ${pos(got)} base ${pos(base)} top ${matches[0]?.score.toFixed(3)} relevant ${scores.join(" ")} | ${q.query}\n   ${got.slice(0, 5).join(", ")}`,
    );
  }
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
console.log(
  "\n## Search quality (bench/search-eval.json, answered requests; Success@1 and MRR count grade >= 1)\n",
);
console.log("| split | ranker | Recall@5 | Success@1 | MRR | nDCG@10 | no-answer empty |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
// A split that is not in the file (test4 before it was written) has nothing to report.
const present = chosen.filter((split) => queries.some(inSplit(split)));
const against = [];
for (const split of present) {
  const subset = queries.filter(inSplit(split));
  const m = {};
  for (const [label, rank] of Object.entries(rankers)) {
    m[label] = metrics(rank, subset);
    const { n, none, r5, s1, mrr, ndcg, empty } = m[label];
    console.log(
      `| ${split} (${n}+${none}) | ${label} | ${pct(r5)} | ${pct(s1)} | ${mrr.toFixed(3)} | ${ndcg.toFixed(3)} | ${empty}/${none} |`,
    );
  }
  against.push([split, m["plain BM25 (name + description)"], m.ours, m["ours, no floor"]]);
}

// The targets, read off the table: gains over plain BM25, and what the floor costs.
console.log("\n## Ours against plain BM25, and the floor's cost\n");
console.log("| split | Recall@5 | Success@1 | nDCG@10 | no-answer empty | Recall@5 lost to the floor |");
console.log("| --- | --- | --- | --- | --- | --- |");
const rel = (a, b) => `${a >= b ? "+" : ""}${(100 * (a / b - 1)).toFixed(0)}%`;
for (const [split, base, ours, open] of against) {
  const points = 100 * (ours.s1 - base.s1);
  console.log(
    `| ${split} | ${rel(ours.r5, base.r5)} | ${points >= 0 ? "+" : ""}${points.toFixed(1)} points | ${rel(ours.ndcg, base.ndcg)} | ${ours.empty}/${ours.none} | ${pct(1 - ours.r5 / open.r5)} |`,
  );
}

console.log("\n## The floor on longer requests (each request padded with generic context, six ways; ours)\n");
console.log(
  "| split | floor | Recall@5 lost to the floor (mean, worst of six) | no-answer empty (least of six) |",
);
console.log("| --- | --- | --- | --- |");
for (const split of present) {
  const subset = queries.filter(inSplit(split));
  for (const floor of [undefined, 0.1]) {
    const lost = [];
    const empty = [];
    for (const pad of PADDINGS) {
      const padded = subset.map((q) => ({ ...q, query: pad(q.query) }));
      const open = metrics((q) => names(skills.search(q, { floor: 0 })), padded);
      const kept = metrics((q) => names(skills.search(q, floor === undefined ? {} : { floor })), padded);
      lost.push(1 - kept.r5 / open.r5);
      empty.push(kept.empty);
    }
    const mean = lost.reduce((a, x) => a + x, 0) / lost.length;
    console.log(
      `| ${split} | ${floor ?? "default"} | ${pct(mean)}, ${pct(Math.max(...lost))} | ${Math.min(...empty)}/${subset.filter((q) => Object.keys(q.relevant).length === 0).length} |`,
    );
  }
}

if (values["quality-only"]) process.exit(0);

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
/** Wall-clock and CPU milliseconds of `fn`: on a shared, loaded machine the CPU figure is the one to compare. */
function clock(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}
const wall = [];
const cpu = [];
for (let round = 0; round < 20; round++)
  for (const q of queries) {
    const m = clock(() => skills.search(q.query));
    wall.push(m.wall);
    cpu.push(m.cpu);
  }
const build = (make) => {
  const runs = [];
  for (let i = 0; i < 9; i++) {
    const input = make();
    runs.push(clock(() => lib.searchSkills(input, "x")));
  }
  const ms = (key) =>
    percentile(
      runs.map((r) => r[key]),
      0.5,
    ).toFixed(1);
  const least = (key) => Math.min(...runs.map((r) => r[key])).toFixed(1);
  return `${ms("wall")} ms wall, ${ms("cpu")} ms CPU (least of 9: ${least("wall")} ms wall, ${least("cpu")} ms CPU)`;
};
const first = clock(() => lib.createAgentSkills({ roots }).search("x"));
const create = clock(() => lib.createAgentSkills({ roots }));
const ms3 = (xs, p) => percentile(xs, p).toFixed(3);
console.log(
  `\n## Search speed (${list.length} skills; medians; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs)\n`,
);
console.log(
  `- query latency over ${wall.length} searches: p50 ${ms3(wall, 0.5)} ms, p95 ${ms3(wall, 0.95)} ms wall; p95 ${ms3(cpu, 0.95)} ms CPU`,
);
console.log(`- index build, name + description + metadata (median of 9): ${build(() => [...list])}`);
console.log(
  `- index build, plus the body (its first 2,000 characters outside code) (median of 9): ${build(() => [...contents])}`,
);
console.log(
  `- createAgentSkills then a first search() (decodes bodies, builds with bodies): ${first.wall.toFixed(0)} ms wall, ${first.cpu.toFixed(0)} ms CPU; createAgentSkills alone: ${create.wall.toFixed(0)} ms wall, ${create.cpu.toFixed(0)} ms CPU`,
);
