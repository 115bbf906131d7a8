// What the library makes of the real-skills corpus, per repository: writes docs/corpus-report.md.
// Usage: npm run corpus-report [-- CORPUS_DIR]   (default ../shared/corpus/real-skills beside the repository)
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createAgentSkills } from "../dist/index.js";
import { decodeUtf8, splitManifest } from "../dist/manifest.js";
import { checkFormatRules, FORMAT_RULES } from "../dist/rules.js";
import { parseManifest } from "../dist/skill.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpus = path.resolve(process.argv[2] ?? path.join(repoRoot, "../shared/corpus/real-skills"));
const target = path.join(repoRoot, "docs", "corpus-report.md");

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const rel = (p) => path.relative(corpus, p).split(path.sep).join("/");
const count = (list, pred) => list.filter(pred).length;
const table = (head, rows) =>
  [head, head.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
const code = (s) => `\`${s.replace(/`/g, "'")}\``;

/** Why each kind of skip is a broken manifest and not one the library should take (checked by reading them). */
const VERDICTS = [
  [
    "no opening",
    "no frontmatter in the format. Most are plain markdown with no name or description at all; the " +
      "`key:` lines without fences are not frontmatter either; the block after a blank first line breaks " +
      "§5 of the spec (the file starts with a line `---`), which the library keeps.",
  ],
  [
    "no closing",
    "the frontmatter is never closed, so where it ends (and the body begins) could only be guessed; " +
      "§5 makes that invalid_skill.",
  ],
  [
    "YAML",
    "broken beyond a line repair: markdown written inside the frontmatter before its fence, and a git " +
      "merge conflict left in the frontmatter.",
  ],
  ["required", "`name` is required (§5) and is the skill's identity; another key is not guessed for it."],
];

/** Each flattened corpus dir's original directory name (a repeated name got a `__N` suffix). */
const sourceDir = new Map();
for (const line of fs.readFileSync(path.join(corpus, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1)) {
  const [repo, dir, source] = line.split("\t");
  sourceDir.set(`${repo}/${dir}`, { name: path.posix.basename(source), source });
}

/** Why a manifest was refused, from the message the library gave, as a stable reason. */
function reason(message) {
  const m = /: (?:\d+(?::\d+)?: )?(.*); skipped$/.exec(message)?.[1] ?? message;
  if (m.includes("does not start with a --- frontmatter fence")) return "no opening `---` fence";
  if (m.includes("has no closing --- fence")) return "no closing `---` fence";
  if (m.startsWith("invalid YAML")) return "YAML that does not parse, even after the repair";
  const missing = /^frontmatter "([^"]+)" is missing/.exec(m);
  if (missing !== null) return `required ${code(missing[1])} missing`;
  const wrong = /^frontmatter "([^"]+)" must be/.exec(m);
  if (wrong !== null) return `${code(wrong[1])} of the wrong type`;
  return m;
}

/** The shape of the first non-blank line of a file that has no opening fence. */
function firstLineShape(file) {
  const lines = fs
    .readFileSync(file, "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/);
  const i = lines.findIndex((l) => l.trim() !== "");
  const line = lines[i] ?? "";
  if (/^---\s*$/.test(line)) return `a frontmatter block after ${i} blank line(s)`;
  if (line.startsWith("#")) return "a markdown heading: no frontmatter at all";
  if (/^[A-Za-z_][\w-]*\s*:/.test(line)) return "`key:` lines without fences";
  if (line.startsWith("<!--")) return "an HTML comment: no frontmatter at all";
  return "other text: no frontmatter at all";
}

/** A refusal message without its file path and trailing "; skipped", with its position in words. */
function located(w) {
  const m = /^:(\d+)(?::(\d+))?: (.*); skipped$/.exec(w.message.slice(w.path.length));
  if (m === null) return w.message.slice(w.path.length + 2).replace(/; skipped$/, "");
  return `line ${m[1]}${m[2] === undefined ? "" : `, column ${m[2]}`}: ${m[3]}`;
}

/** File lines, for quoting the line an error points at. */
const linesOf = (file) => fs.readFileSync(file, "utf8").split(/\r?\n/);
const quote = (line) => code(line.length > 80 ? `${line.slice(0, 80)}…` : line);

/** Where a frontmatter that is never closed runs to: the end of the file, through the body's first heading. */
function unclosed(file) {
  const lines = linesOf(file);
  const heading = lines.findIndex((l, i) => i > 0 && l.trimStart().startsWith("#"));
  const end = `${lines.length - (lines.at(-1) === "" ? 1 : 0)} lines and no second \`---\` line`;
  return heading === -1 ? end : `${end}; the body starts at line ${heading + 1}, ${quote(lines[heading])}`;
}

/** Top-level keys written in a manifest's frontmatter. */
function keysOf(file) {
  const split = splitManifest(decodeUtf8(fs.readFileSync(file)) ?? "");
  if (!split.ok) return [];
  return [...split.frontmatter.matchAll(/^([A-Za-z_][\w-]*)\s*:/gm)].map((m) => m[1]);
}

/** The manifest of a directory, chosen as discovery does (SKILL.md first, else the first by name). */
function manifestOf(dir) {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.toLowerCase() === "skill.md")
    .sort(byCodeUnit);
  const name = names.includes("SKILL.md") ? "SKILL.md" : names[0];
  return name === undefined ? undefined : path.join(dir, name);
}

const repos = fs
  .readdirSync(corpus, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort(byCodeUnit);

const perRepo = repos.map((repo) => {
  const root = path.join(corpus, repo);
  const skills = createAgentSkills({ roots: [{ path: root, source: repo }] });
  const warnings = skills.warnings;
  const loaded = skills.listSkills();
  const invalid = warnings
    .filter((w) => w.code === "invalid_skill")
    .map((w) => ({ ...w, why: reason(w.message) }));
  const duplicates = warnings.filter((w) => w.code === "duplicate_skill");
  const manifests = fs
    .readdirSync(root)
    .sort(byCodeUnit)
    .map((d) => manifestOf(path.join(root, d)))
    .filter((m) => m !== undefined);
  if (manifests.length !== loaded.length + invalid.length + duplicates.length) {
    throw new Error(`${repo}: ${manifests.length} manifests, but loaded + invalid + duplicate do not add up`);
  }
  // A strict YAML parser, no repair: the library's own parse and schema stages with the repair off.
  const strictNames = new Set();
  for (const m of manifests) {
    const outcome = parseManifest(fs.readFileSync(m), false);
    if (outcome.ok) strictNames.add(outcome.fields.name);
  }
  const findings = loaded.map((s) => {
    const original = sourceDir.get(rel(s.dir))?.name ?? path.basename(s.dir);
    return { skill: s, rules: checkFormatRules(s.metadata, original).map((f) => f.rule) };
  });
  const repaired = warnings.filter((w) => w.code === "yaml_repaired");
  return {
    repo,
    manifests: manifests.length,
    loaded,
    repaired,
    // A repaired manifest can still lose to an earlier directory of the same name.
    repairedLoaded: repaired.filter((w) => loaded.some((s) => s.path === w.path)),
    invalid,
    duplicates,
    strict: strictNames.size,
    findings,
  };
});

const merged = createAgentSkills({ roots: repos.map((r) => ({ path: path.join(corpus, r), source: r })) });
const mergedCodes = new Map();
for (const w of merged.warnings) mergedCodes.set(w.code, (mergedCodes.get(w.code) ?? 0) + 1);
const sum = (f) => perRepo.reduce((n, r) => n + f(r), 0);
// A name that differs from its corpus dir only because the corpus renamed a repeated dir to `x__2`.
const renamed = count(
  merged.warnings,
  (w) => w.code === "name_mismatch" && w.skill === sourceDir.get(rel(path.dirname(w.path)))?.name,
);
const reasons = [...new Set(perRepo.flatMap((r) => r.invalid.map((w) => w.why)))].sort(byCodeUnit);

const lines = [];
const say = (...more) => lines.push(...more);
say(
  "# Corpus report",
  "",
  "Generated by `npm run corpus-report` from the real-skills corpus (`../shared/corpus/real-skills`, see its",
  "SOURCES.md): 10 repository folders, each used as one root, discovered leniently with the library as built.",
  "Do not edit by hand.",
  "",
  "## Summary",
  "",
  `- Manifests found: **${sum((r) => r.manifests)}**.`,
  `- Loaded, each repository alone: **${sum((r) => r.loaded.length)}**, of which **${sum((r) => r.repairedLoaded.length)}** only after the YAML repair`,
  `  (${sum((r) => r.repaired.length)} manifests needed the repair; the others are in-root duplicates).`,
  `- Skipped: **${sum((r) => r.invalid.length)}** invalid, **${sum((r) => r.duplicates.length)}** in-root duplicates.`,
  `- All ten as roots of one instance (sorted order, the last root wins): **${merged.listSkills().length}** skills in the catalog;`,
  `  warnings: ${[...mergedCodes]
    .sort(([a], [b]) => byCodeUnit(a, b))
    .map(([c, n]) => `${c} ${n}`)
    .join(", ")}`,
  `  (${renamed} of the name_mismatch only because the corpus renamed a repeated directory \`x\` to \`x__2\`).`,
  `- A strict YAML parser without the repair would load **${sum((r) => r.strict)}** (${sum((r) => r.loaded.length - r.strict)} fewer).`,
  "",
  "## Per repository",
  "",
  table(
    [
      "repository",
      "manifests",
      "loaded",
      "loaded after repair",
      "invalid",
      "duplicate",
      "strict, no repair",
      "in merged catalog",
    ],
    perRepo.map((r) => [
      r.repo,
      r.manifests,
      r.loaded.length,
      r.repairedLoaded.length,
      r.invalid.length,
      r.duplicates.length,
      r.strict,
      count(merged.listSkills(), (s) => s.source === r.repo),
    ]),
  ),
  "",
  "## Skipped as invalid, by reason",
  "",
  table(
    ["repository", ...reasons],
    perRepo.map((r) => [r.repo, ...reasons.map((why) => count(r.invalid, (w) => w.why === why))]),
  ),
  "",
  "## agentskills.io format rules over the loaded skills",
  "",
  "Checked with `checkFormatRules`; `name-matches-dir` compares with the skill's original directory name",
  "(the corpus renames a repeated directory to `name__2`). Discovery loads these skills all the same.",
  "",
  table(
    ["repository", ...FORMAT_RULES, "skills with a finding"],
    perRepo.map((r) => [
      r.repo,
      ...FORMAT_RULES.map((rule) => count(r.findings, (f) => f.rules.includes(rule))),
      count(r.findings, (f) => f.rules.length > 0),
    ]),
  ),
  "",
  "## Every skip, looked at",
  "",
);

const invalid = perRepo.flatMap((r) => r.invalid);
for (const why of reasons) {
  const group = invalid.filter((w) => w.why === why);
  say(`### ${why} (${group.length})`, "");
  if (why.startsWith("no opening")) {
    const shapes = new Map();
    for (const w of group) {
      const shape = firstLineShape(w.path);
      shapes.set(shape, [...(shapes.get(shape) ?? []), rel(w.path)]);
    }
    say("The first non-blank line of these files is:", "");
    for (const [shape, files] of [...shapes].sort(([a], [b]) => byCodeUnit(a, b))) {
      const list = files.map(code).join(", ");
      say(
        `- ${shape} (${files.length}): ${files.length > 10 ? `<details><summary>list</summary>${list}</details>` : list}`,
      );
    }
  } else {
    for (const w of group) {
      let fact = located(w);
      if (why.startsWith("no closing")) fact = unclosed(w.path);
      if (why.startsWith("YAML"))
        fact += `; the line is ${quote(linesOf(w.path)[Number(/^line (\d+)/.exec(fact)?.[1]) - 1] ?? "")}`;
      if (why.includes("missing"))
        fact += `; the keys written are ${keysOf(w.path).map(code).join(", ") || "none"}`;
      say(`- ${code(rel(w.path))}: ${fact}`);
    }
  }
  say("", `Verdict: ${VERDICTS.find(([prefix]) => why.startsWith(prefix))?.[1] ?? "to be looked at."}`, "");
}

say(`### In-root duplicates (${sum((r) => r.duplicates.length)})`, "");
say(
  "Verdict: real duplicates. Different skills of one repository (other authors, other plugins: see the source",
  "paths) declare the same `name`; in one root the first by sorted directory name is kept (§6). Installed as",
  "the sources lay them out, most would sit in different roots.",
  "",
);
say(
  table(
    ["repository", "name", "skipped (source path)", "kept"],
    perRepo.flatMap((r) =>
      r.duplicates.map((w) => {
        const kept = /; (.*) comes first and is kept$/.exec(w.message)?.[1] ?? "";
        const source = sourceDir.get(rel(path.dirname(w.path)))?.source ?? "";
        return [
          r.repo,
          code(w.skill ?? ""),
          `${code(path.basename(path.dirname(w.path)))} (${code(source)})`,
          code(path.basename(path.dirname(kept))),
        ];
      }),
    ),
  ),
);
say("", `### Needed the YAML repair (${sum((r) => r.repaired.length)})`, "");
say(perRepo.flatMap((r) => r.repaired.map((w) => code(rel(w.path)))).join(", "), "");

fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${lines.join("\n")}\n`);
process.stdout.write(
  `wrote ${path.relative(process.cwd(), target)}: ${merged.listSkills().length} skills in the merged catalog\n`,
);
