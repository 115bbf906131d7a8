// The commands that read a loaded set of skills: list, show, resource, explain.
import {
  type AgentSkills,
  createAgentSkills,
  SkillError,
  type SkillWarning,
  type WarnSink,
} from "../index.js";
import { type CliIo, type Invocation, rootsOf } from "./context.js";
import { cut, oneLine, pad, paint, showMessage, showPath, stripControls, toJson, widthOf } from "./text.js";

/** Columns assumed when standard output is not a terminal. */
export const DEFAULT_WIDTH = 80;
/** A description never gets fewer columns than this, even if the line then wraps. */
const MIN_DESCRIPTION = 20;

/** The instance an invocation names; its warnings go to `onWarning` (by default nowhere: they are on `warnings`). */
export function open(inv: Invocation, io: CliIo, onWarning: WarnSink = () => {}): AgentSkills {
  return createAgentSkills({
    roots: rootsOf(inv, io),
    cwd: io.cwd,
    ...(inv.workspace === undefined ? {} : { workspace: inv.workspace }),
    ...(inv.home === undefined ? {} : { home: inv.home }),
    strict: inv.strict,
    followSymlinks: inv.followSymlinks,
    // The scan's warnings are on `warnings`; the global sink of a program importing the library is never touched.
    onWarning,
  });
}

/** Print warnings to stderr, one line each. */
export function printWarnings(warnings: readonly SkillWarning[], io: CliIo): void {
  const yellow = paint(io.stderrIsTTY ?? false, io.env).yellow;
  for (const w of warnings) io.stderr(`${yellow("warning")}: ${w.code}: ${showMessage(w.message, io.cwd)}\n`);
}

function notFound(name: string): SkillError {
  return new SkillError("not_found", `no skill named ${JSON.stringify(name)} is loaded`, { skill: name });
}

/** `list`: the catalog as a table cut to the terminal, or `SkillInfo[]` as JSON. */
export function listCommand(inv: Invocation, io: CliIo): number {
  const skills = open(inv, io);
  const list = skills.listSkills();
  if (inv.json) io.stdout(`${toJson(list)}\n`);
  else {
    const { bold } = paint(io.stdoutIsTTY ?? false, io.env);
    const width = io.stdoutIsTTY && io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_WIDTH;
    const rows = list.map((s) => [
      oneLine(s.name),
      s.scope,
      oneLine(s.source) || "-",
      oneLine(s.description),
    ]);
    const head = ["NAME", "SCOPE", "SOURCE", "DESCRIPTION"];
    const widths = [0, 1, 2].map((i) => Math.max(...[head, ...rows].map((r) => widthOf(r[i] ?? ""))));
    const left = widths.reduce((a, b) => a + b + 2, 0);
    const room = Math.max(MIN_DESCRIPTION, width - left);
    const line = (r: readonly string[]) =>
      [...r.slice(0, 3).map((c, i) => pad(c, widths[i] ?? 0)), cut(r[3] ?? "", room)].join("  ").trimEnd();
    if (rows.length > 0) io.stdout(`${bold(line(head))}\n${rows.map(line).join("\n")}\n`);
    io.stdout(`${list.length} skill${list.length === 1 ? "" : "s"}\n`);
  }
  printWarnings(skills.warnings, io);
  return 0;
}

/** `show NAME`: the body, or the whole `SkillContent` as JSON. */
export function showCommand(inv: Invocation, io: CliIo): number {
  const name = inv.args[0] ?? "";
  const skills = open(inv, io);
  // Resource warnings concern the skill shown, so they are printed; the scan's are list's business.
  const content = skills.loadSkill(name);
  if (content === undefined) throw notFound(name);
  io.stdout(inv.json ? `${toJson(content)}\n` : `${stripControls(content.body)}\n`);
  printWarnings(content.warnings, io);
  return 0;
}

/** `resource NAME REL`: the confined absolute path. A refusal throws its SkillError, printed by main. */
export function resourceCommand(inv: Invocation, io: CliIo): number {
  const [name = "", rel = ""] = inv.args;
  const resolved = open(inv, io).resourcePath(name, rel);
  io.stdout(
    inv.json ? `${toJson({ skill: name, resource: rel, path: resolved })}\n` : `${stripControls(resolved)}\n`,
  );
  return 0;
}

/** `explain NAME`: the roots, then every candidate for NAME in precedence order with its verdict. */
export function explainCommand(inv: Invocation, io: CliIo): number {
  const name = inv.args[0] ?? "";
  const skills = open(inv, io);
  const candidates = skills.explain(name);
  if (candidates.length === 0) {
    throw new SkillError(
      "not_found",
      `no root offers a skill named ${JSON.stringify(name)} (run agent-skills list to see the names)`,
      { skill: name },
    );
  }
  if (inv.json) {
    io.stdout(`${toJson(candidates)}\n`);
    return 0;
  }
  const { green, red, dim, bold } = paint(io.stdoutIsTTY ?? false, io.env);
  const roots = skills.config.roots;
  const out = [bold("roots, lowest precedence first (the last root wins):")];
  const scopeWidth = Math.max(...roots.map((r) => r.scope.length));
  const sourceWidth = Math.max(...roots.map((r) => widthOf(oneLine(r.source))));
  roots.forEach((r, i) => {
    out.push(
      `  ${i}  ${pad(r.scope, scopeWidth)}  ${pad(oneLine(r.source), sourceWidth)}  ${showPath(r.path, io.cwd)}`,
    );
  });
  out.push("", bold(`candidates for ${JSON.stringify(oneLine(name))}:`));
  const colour = { winner: green, overridden: dim, duplicate: red, invalid: red } as const;
  for (const c of candidates) {
    out.push(`  root ${c.rootIndex}  ${colour[c.verdict](pad(c.verdict, 10))}  ${showPath(c.path, io.cwd)}`);
    out.push(`          ${showMessage(c.reason, io.cwd)}`);
  }
  io.stdout(`${out.join("\n")}\n`);
  return 0;
}
