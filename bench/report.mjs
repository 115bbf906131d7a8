// The benchmark's printed report: markdown tables of medians and ratios, and the issue's targets checked.
import { median } from "./measure.mjs";

/** Milliseconds as the tables print them: three significant figures or so. */
export const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const med = (result, key) => median(result.samples.get(key).ms);

function ratio(c, result) {
  const ms = med(result, c.key);
  if (c.key === "yaml" || c.key === "create") return `${(ms / med(result, "floor")).toFixed(2)}x floor`;
  if (c.key === "async") return `${(ms / med(result, "create")).toFixed(2)}x create (sync)`;
  if (c.key.startsWith("refresh")) return `${(ms / med(result, "create")).toFixed(2)}x create`;
  if (c.peer) return `${(ms / med(result, "create")).toFixed(2)}x create`;
  return "";
}

/** The main table: every case on every set of roots, median ms (with its GC pauses) and its ratio. */
export function casesTable(sets) {
  const lines = [
    `| measure (median ms) | ${sets.map((s) => `${s.title} | ratio`).join(" | ")} |`,
    `| --- | ${sets.map(() => "---: | ---:").join(" | ")} |`,
  ];
  for (const c of sets[0].result.list) {
    const cells = sets.map(({ result }) => {
      const s = result.samples.get(c.key);
      // Peers' GC is theirs to tell; ours and the floors' show what the collector took of the time.
      const notes = c.peer ? [] : [`GC ${fmt(median(s.gc))}`];
      if (s.block.length > 0) notes.push(`longest block ${fmt(median(s.block))}`);
      return `${fmt(median(s.ms))}${notes.length > 0 ? ` (${notes.join("; ")})` : ""} | ${ratio(c, result)}`;
    });
    lines.push(`| ${c.label} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

/** The other measures: per-call costs, memory, start-up and scale. */
export function otherTable({ micro, rss, imports, scale }) {
  return [
    "| other measure | value |",
    "| --- | ---: |",
    `| listSkills() per call | ${micro.list.toFixed(1)} ns |`,
    `| loadSkill() per call, a skill with 3 resources | ${(micro.load / 1000).toFixed(1)} µs |`,
    `| peak RSS of a fresh process: create, refresh, 100 loadSkill (synthetic) | ${rss.toFixed(0)} MiB |`,
    `| \`node -e ''\` | ${fmt(imports.empty)} ms |`,
    `| \`node -e "import('@clarvis/agent-skills')"\` | ${fmt(imports.withLib)} ms (+${fmt(imports.withLib - imports.empty)}) |`,
    `| \`agent-skills --version\` | ${fmt(imports.version)} ms (${(imports.version / imports.empty).toFixed(2)}x empty node) |`,
    `| \`agent-skills list\` on the example workspace | ${fmt(imports.list)} ms (${(imports.list / imports.empty).toFixed(2)}x empty node) |`,
    `| createAgentSkills per manifest, 4 x 2,500 / 4 x ${scale.perRoot.toLocaleString("en")} | ${scale.perManifest.map((us) => `${us.toFixed(1)} µs`).join(" / ")} |`,
    `| RSS after discovery, 4 x 2,500 / 4 x ${scale.perRoot.toLocaleString("en")} | ${scale.rss.map((m) => `${m.toFixed(0)} MiB`).join(" / ")} |`,
  ].join("\n");
}

/** The issue's targets, each with the figure that decides it. */
export function targetsTable(sets, { micro, rss, imports, scale }) {
  const [synthetic] = sets;
  const r = synthetic.result;
  const perSet = (label, fn, ok) => sets.map((s) => [`${label} (${s.title})`, fn(s.result), ok, "x"]);
  const rows = [
    ...perSet(
      "createAgentSkills <= 1.5x the bare-I/O floor",
      (x) => med(x, "create") / med(x, "floor"),
      (x) => x <= 1.5,
    ),
    ...perSet(
      "createAgentSkillsAsync <= 1.5x createAgentSkills",
      (x) => med(x, "async") / med(x, "create"),
      (x) => x <= 1.5,
    ),
    ...perSet(
      "first refresh(), nothing changed <= 0.3x create",
      (x) => med(x, "refreshFirst") / med(x, "create"),
      (x) => x <= 0.3,
    ),
    ["`agent-skills --version` <= 1.5x `node -e ''`", imports.version / imports.empty, (x) => x <= 1.5, "x"],
    [
      "`agent-skills list` (example) <= 1.8x `node -e ''`",
      imports.list / imports.empty,
      (x) => x <= 1.8,
      "x",
    ],
    [
      `time per manifest, 4 x ${scale.perRoot.toLocaleString("en")} <= 1.3x 4 x 2,500`,
      scale.perManifest[1] / scale.perManifest[0],
      (x) => x <= 1.3,
      "x",
    ],
    ["refresh(), nothing changed <= 0.3x create", med(r, "refresh") / med(r, "create"), (x) => x <= 0.3, "x"],
    ["refresh(), 1% changed <= 0.4x create", med(r, "refresh1") / med(r, "create"), (x) => x <= 0.4, "x"],
    ["listSkills() under 1 µs", micro.list / 1000, (x) => x < 1, " µs"],
    ["loadSkill() under 50 µs (3 resources)", micro.load / 1000, (x) => x < 50, " µs"],
    ["peak RSS under 150 MiB", rss, (x) => x < 150, " MiB"],
    ...sets.map((s) => {
      const block = Math.max(...["async", "refreshAsync"].map((k) => median(s.result.samples.get(k).block)));
      return [`async longest event-loop block under 20 ms (${s.title})`, block, (x) => x < 20, " ms"];
    }),
    ...sets.map((s) => {
      const peers = s.result.list.filter((c) => c.peer);
      const fastest = Math.min(...peers.map((c) => med(s.result, c.key)));
      return [
        `faster than every peer (${s.title}): fastest peer / create`,
        fastest / med(s.result, "create"),
        (x) => x > 1,
        "x",
      ];
    }),
  ];
  const lines = ["| target | measured | met |", "| --- | ---: | :---: |"];
  for (const [label, value, ok, unit] of rows)
    lines.push(`| ${label} | ${value.toFixed(2)}${unit} | ${ok(value) ? "yes" : "NO"} |`);
  return lines.join("\n");
}
