// The commands about the whole set: catalog (the prompt block) and roots (where the CLI looked), and the note list prints when it found nothing.
import { fsCode, statSync } from "../fsx.js";
import { type AgentSkills, renderCatalog, type SkillRoot } from "../index.js";
import { type CliIo, type Invocation, open, printWarnings } from "./context.js";
import { oneLine, pad, paint, showPath, toJson } from "./text.js";

/** What a root turned out to be at the scan. */
type RootState = "ok" | "missing" | "not a directory" | "unreadable";

/** One row of `roots`: a root, what it is, and how many valid skills it holds. */
interface RootReport {
  /** The root's absolute path. */
  readonly path: string;
  /** Its scope, `user` or `workspace`. */
  readonly scope: SkillRoot["scope"];
  /** Its provenance label (the preset's name, or `""` for --root). */
  readonly source: string;
  /** What the path turned out to be at the scan. */
  readonly state: RootState;
  /** Valid skills in the root, served or overridden by a later root; 0 unless `ok`. */
  readonly skills: number;
}

/** What a root the scan did not warn about is: there, or not (a stat refused counts as unreadable). */
function stateOf(root: string): RootState {
  try {
    return statSync(root) === undefined ? "missing" : "ok";
  } catch (e) {
    fsCode(e);
    return "unreadable";
  }
}

/** Every root of `skills` with its state, in precedence order (lowest first). */
function rootReports(skills: AgentSkills): RootReport[] {
  const roots = skills.config.roots;
  // Filled as skills are counted: a root without any stays a hole, read as 0.
  const counts: number[] = [];
  // Every valid skill is a candidate for a served name (an overridden one shares its winner's name).
  for (const info of skills.listSkills()) {
    for (const c of skills.explain(info.name)) {
      if (c.verdict === "winner" || c.verdict === "overridden")
        counts[c.rootIndex] = (counts[c.rootIndex] ?? 0) + 1;
    }
  }
  // Keyed by the warning's path, which a root's warning always has.
  const warned = new Map<string | undefined, RootState>();
  for (const w of skills.warnings) {
    if (w.code === "root_not_directory") warned.set(w.path, "not a directory");
    if (w.code === "root_unreadable") warned.set(w.path, "unreadable");
  }
  return roots.map((r, i) => {
    const state = warned.get(r.path) ?? stateOf(r.path);
    return {
      path: r.path,
      scope: r.scope,
      source: r.source,
      state,
      skills: state === "ok" ? (counts[i] ?? 0) : 0,
    };
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The rows of the roots table, aligned: index, scope, source, state, path. */
function rootLines(reports: readonly RootReport[], io: CliIo): string[] {
  const scopeWidth = Math.max(5, ...reports.map((r) => r.scope.length));
  const sourceWidth = Math.max(6, ...reports.map((r) => oneLine(r.source).length));
  const state = (r: RootReport) => (r.state === "ok" ? `ok, ${plural(r.skills, "skill")}` : r.state);
  const stateWidth = Math.max(5, ...reports.map((r) => state(r).length));
  return reports.map(
    (r, i) =>
      `  ${i}  ${pad(r.scope, scopeWidth)}  ${pad(oneLine(r.source) || "-", sourceWidth)}  ${pad(state(r), stateWidth)}  ${showPath(r.path, io.cwd)}`,
  );
}

/**
 * When `list` or `catalog` finds nothing, or `show`, `resource` or `explain` is given a name it does not
 * know, the user's next question is where it looked: say it on stderr when no root exists or no skill
 * was found.
 */
export function noteSearched(skills: AgentSkills, io: CliIo): void {
  // A skill found means a root exists: nothing to say, and no need to count every root's skills.
  if (skills.listSkills().length > 0) return;
  const reports = rootReports(skills);
  const none = reports.every((r) => r.state !== "ok");
  const why = none ? "none of these roots exists" : "no skill found in these roots";
  io.stderr(
    `note: ${why} (agent-skills roots shows them; --root PATH adds one):\n${rootLines(reports, io).join("\n")}\n`,
  );
}

/** `roots`: the roots in precedence order with scope, source and state; `--json` an array. */
export function rootsCommand(inv: Invocation, io: CliIo): number {
  const reports = rootReports(open(inv, io));
  if (inv.json) io.stdout(`${toJson(reports)}\n`);
  else {
    const { bold } = paint(io.stdoutIsTTY ?? false, io.env);
    io.stdout(
      `${bold("roots, lowest precedence first (the last root wins):")}\n${rootLines(reports, io).join("\n")}\n`,
    );
  }
  return 0;
}

/** `catalog`: exactly `renderCatalog(listSkills(), { format, budget, query }).text` and a newline; `omitted` on stderr. */
export function catalogCommand(inv: Invocation, io: CliIo): number {
  const skills = open(inv, io);
  const list = skills.listSkills();
  const { text, omitted } = renderCatalog(list, {
    format: inv.format,
    ...(inv.budget === undefined ? {} : { budget: inv.budget }),
    ...(inv.query === undefined ? {} : { query: inv.query }),
  });
  if (inv.json) io.stdout(`${toJson({ text, omitted })}\n`);
  else if (text !== "") io.stdout(`${text}\n`);
  printWarnings(skills.warnings, io);
  if (omitted > 0) {
    // Without a budget, only a name or location that cannot be shown as it is leaves a skill out.
    const why = `${inv.budget === undefined ? "" : "over the budget, or "}a name or location that cannot be shown as it is`;
    io.stderr(`note: ${plural(omitted, "skill")} of ${list.length} left out (${why})\n`);
  }
  // noteSearched says nothing when a skill was found.
  noteSearched(skills, io);
  return 0;
}
