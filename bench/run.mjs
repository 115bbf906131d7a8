// `npm run bench`: discovery against its bare-I/O floor and against peer loaders, interleaved rounds, medians, one process.
// Usage: node --expose-gc bench/run.mjs [--rounds N]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { floor, floorYaml } from "./floor.mjs";
import { integerOption, median, nodeRun, perCall, settle, timed, timedWithLoop } from "./measure.mjs";
import { loadPeers } from "./peers.mjs";
import { casesTable, otherTable, targetsTable } from "./report.mjs";
import { CORPUS_DIR, corpusRoots, PER_ROOT, removeStore, writeStore } from "./store.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const libUrl = pathToFileURL(path.join(here, "..", "dist", "index.js")).href;
const { values } = parseArgs({
  options: { rounds: { type: "string", default: "9" }, scale: { type: "string", default: "10000" } },
});
// Every case of one round runs before the next round starts, so drift in the machine's load spreads over all.
const ROUNDS = integerOption("rounds", values.rounds);
// Skills a root of the scale store (4 roots): 10,000 by default; `--scale 25000` gives the 100,000 run.
const SCALE = integerOption("scale", values.scale, PER_ROOT);

const lib = await import(libUrl);
// The default sink writes every warning to stderr (500 a scan on the corpus): measure the scan, not the terminal.
lib.setWarnSink(() => {});
const { peers, missing } = await loadPeers();

/** The measured cases of one set of roots, in the order each round runs them. */
function cases(roots) {
  const live = lib.createAgentSkills({ roots });
  const manifests = live.listSkills().map((s) => s.path);
  const touched = manifests.filter((_, i) => i % 100 === 0);
  let first;
  return [
    { key: "floor", label: "bare-I/O floor (readdir + read, no parse)", run: () => floor(roots) },
    { key: "yaml", label: "floor + one `yaml` parse per file", run: () => floorYaml(roots) },
    {
      key: "create",
      label: "createAgentSkills",
      run: () => lib.createAgentSkills({ roots }).listSkills().length,
    },
    {
      key: "async",
      label: "createAgentSkillsAsync",
      loop: true,
      run: async () => (await lib.createAgentSkillsAsync({ roots })).listSkills().length,
    },
    {
      key: "refreshFirst",
      label: "first refresh() after discovery, nothing changed",
      // A fresh instance each round (untimed): only its first refresh is measured.
      before: () => {
        first = lib.createAgentSkills({ roots });
      },
      run: () => first.refresh().changed.length,
    },
    { key: "refresh", label: "refresh(), nothing changed", run: () => live.refresh().changed.length },
    {
      key: "refresh1",
      label: `refresh(), 1% of manifests touched (${touched.length})`,
      before: () => {
        const now = new Date();
        for (const file of touched) fs.utimesSync(file, now, now);
      },
      run: () => live.refresh().changed.length,
      // Untimed: once the touched files are older than the library's 100 ms trust window, one more
      // refresh reads them a last time, so the next "nothing changed" case really finds nothing.
      after: async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        live.refresh();
      },
    },
    {
      key: "refreshAsync",
      label: "refreshAsync(), nothing changed",
      loop: true,
      run: async () => (await live.refreshAsync()).changed.length,
    },
    ...peers.map((p) => ({ key: `peer:${p.name}`, label: p.name, peer: true, run: () => p.run(roots) })),
  ];
}

/** `xs` in an order drawn from `seed` (Fisher-Yates on a mulberry32 sequence): the same every run. */
function shuffled(xs, seed) {
  const out = [...xs];
  let a = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function measureSet(name, roots) {
  const list = cases(roots);
  const samples = new Map(list.map((c) => [c.key, { ms: [], gc: [], block: [], value: undefined }]));
  for (let round = 0; round < ROUNDS; round++) {
    // A different order each round: a case can leave the heap in a state that slows the next one.
    const order = shuffled(list, round + 1);
    for (const c of order) {
      c.before?.();
      const r = c.loop ? await timedWithLoop(c.run) : await timed(c.run);
      await c.after?.();
      const s = samples.get(c.key);
      s.ms.push(r.ms);
      s.gc.push(r.gcMs);
      if (r.blockMs !== undefined) s.block.push(r.blockMs);
      s.value = r.value;
    }
    process.stderr.write(`${name}: round ${round + 1}/${ROUNDS}\n`);
  }
  return { list, samples };
}

function micro(roots) {
  const skills = lib.createAgentSkills({ roots });
  const three = skills.listSkills().find((s) => skills.loadSkill(s.name)?.resources.length === 3);
  if (three === undefined) throw new Error("the store has no skill with 3 resources");
  const list = median(Array.from({ length: 5 }, () => perCall(() => skills.listSkills(), 1_000_000)));
  const load = median(Array.from({ length: 5 }, () => perCall(() => skills.loadSkill(three.name), 2_000)));
  return { list, load, three: three.name };
}

function peakRss(roots) {
  const run = () => Number(nodeRun([path.join(here, "rss.mjs"), libUrl, JSON.stringify(roots)]).stdout);
  return median(Array.from({ length: 3 }, run));
}

/** Wall time of a fresh process: empty node, importing the library, and two CLI commands. */
function startup() {
  const bin = path.join(here, "..", "dist", "cli", "bin.js");
  const example = path.join(here, "..", "examples");
  const runs = {
    empty: ["-e", ""],
    withLib: ["--input-type=module", "-e", `await import(${JSON.stringify(libUrl)})`],
    version: [bin, "--version"],
    list: [bin, "list", "--workspace", path.join(example, "workspace"), "--home", path.join(example, "home")],
  };
  const ms = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  // Interleaved, so a change in the machine's load touches every command alike.
  for (let i = 0; i < 15; i++) for (const [k, args] of Object.entries(runs)) ms[k].push(nodeRun(args).ms);
  return Object.fromEntries(Object.entries(ms).map(([k, xs]) => [k, median(xs)]));
}

/** RSS (MiB) of a fresh process right after discovering `roots`, garbage collected. */
function rssAfterDiscovery(roots) {
  const run = () =>
    Number(
      nodeRun(["--expose-gc", path.join(here, "rss.mjs"), libUrl, JSON.stringify(roots), "discovery"]).stdout,
    );
  return median(Array.from({ length: 3 }, run));
}

/**
 * Time per manifest of createAgentSkills on a store of `perRoot` skills a root, interleaved with the
 * same measure on `small`, and RSS after discovery of both: how discovery scales.
 */
async function scale(perRoot, small) {
  const big = writeStore(1, perRoot);
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    const stores = [
      { roots: small, n: 4 * PER_ROOT },
      { roots: big.roots, n: 4 * perRoot },
    ];
    const ms = [[], []];
    for (let round = 0; round < Math.min(ROUNDS, 5); round++) {
      for (const [i, st] of stores.entries())
        ms[i].push((await timed(() => lib.createAgentSkills({ roots: st.roots }))).ms);
      process.stderr.write(`scale 4 x ${perRoot}: round ${round + 1}\n`);
    }
    return {
      perRoot,
      perManifest: stores.map((st, i) => (median(ms[i]) * 1000) / st.n),
      rss: stores.map((st) => rssAfterDiscovery(st.roots)),
    };
  } finally {
    removeStore(big.base);
  }
}

const store = writeStore();
// The library does not trust a signature younger than 100 ms (a change could hide in the same tick).
await new Promise((resolve) => setTimeout(resolve, 300));
try {
  const sets = [{ title: "synthetic 4 x 2,500", roots: store.roots }];
  if (fs.existsSync(CORPUS_DIR)) {
    const roots = corpusRoots();
    sets.push({ title: `real corpus (${roots.length} roots)`, roots });
  }
  for (const set of sets) set.result = await measureSet(set.title, set.roots);
  await settle();
  const measures = {
    micro: micro(store.roots),
    rss: peakRss(store.roots),
    imports: startup(),
    scale: await scale(SCALE, store.roots),
  };
  const cpu = os.cpus();
  console.log(
    `\nnode ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? "?"}), ${ROUNDS} rounds, medians\n`,
  );
  console.log(`${casesTable(sets)}\n\n${otherTable(measures)}\n\n${targetsTable(sets, measures)}`);
  for (const set of sets) {
    const counts = set.result.list.map(
      (c) => `${c.label.split(" (")[0]}: ${set.result.samples.get(c.key).value}`,
    );
    console.log(`\nwhat each case returned on ${set.title}: ${counts.join("; ")}`);
  }
  if (missing.length > 0) console.log(`\npeers not measured: ${missing.join(", ")}`);
} finally {
  removeStore(store.base);
}
await import("./watch.mjs"); // live skills (issue 12): latency, idle cost, handles, a burst, close()
