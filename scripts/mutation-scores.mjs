// Scores per file from StrykerJS JSON reports, as the table of docs/mutation.md, and the survivors.
// Usage: node scripts/mutation-scores.mjs reports/mutation/mutation.json [more.json ...] [--survivors]
// A file in several reports counts from the last one given.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const files = new Map();
for (const report of args.filter((a) => !a.startsWith("--")))
  for (const [name, data] of Object.entries(JSON.parse(readFileSync(report, "utf8")).files))
    files.set(name, data);

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);
const rows = [];
const total = { outside: [0, 0], cli: [0, 0] };
for (const [name, { mutants, source }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const count = (status) => mutants.filter((m) => m.status === status).length;
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const valid = detected + mutants.filter((m) => UNDETECTED.has(m.status)).length;
  const part = name.startsWith("src/cli/") ? total.cli : total.outside;
  part[0] += detected;
  part[1] += valid;
  const score = valid === 0 ? "n/a" : `${((100 * detected) / valid).toFixed(1)} %`;
  const ignored = count("Ignored");
  rows.push(
    `| ${name} | ${valid}${ignored ? ` (+${ignored} static, ignored)` : ""} | ${count("Killed")} | ${count("Timeout")} | ${count("Survived")} | ${count("NoCoverage")} | ${score} |`,
  );
  if (args.includes("--survivors")) {
    const lines = source.split("\n");
    for (const m of mutants.filter((x) => UNDETECTED.has(x.status))) {
      const l = m.location.start.line;
      rows.push(`    L${l} ${m.status} ${m.mutatorName}: ${lines[l - 1]?.trim()} => ${m.replacement ?? ""}`);
    }
  }
}
console.log("| file | mutants | killed | timed out | survived | no coverage | score |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
const pct = ([d, v]) => (v === 0 ? "n/a" : `${((100 * d) / v).toFixed(1)}%`);
console.log(
  `\nTotal: ${pct(total.outside)} (${total.outside[0]} of ${total.outside[1]} mutants detected, src/ outside src/cli/)`,
);
if (total.cli[1] > 0) console.log(`CLI: ${pct(total.cli)} (${total.cli[0]} of ${total.cli[1]}, src/cli/)`);
