// The commands that read a loaded set of skills: list, show, resource, explain.
import * as path from "node:path";
import { type AgentSkills, SkillError } from "../index.js";
import { closest } from "../spelling.js";
import { noteSearched } from "./catalog.js";
import { CliError, type CliIo, type Invocation, open, printWarnings } from "./context.js";
import {
  cut,
  oneLine,
  outputWidth,
  pad,
  paint,
  showMessage,
  showPath,
  stripControls,
  toJson,
  widthOf,
} from "./text.js";

/** A description never gets fewer columns than this, even if the line then wraps. */
const MIN_DESCRIPTION = 20;

/**
 * `head` and `rows` as aligned lines: every column padded to its widest cell in display columns, the
 * last one cut so the line fits `width` (but never to fewer than 20 columns).
 */
export function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
): string[] {
  const last = head.length - 1;
  // Every row has a cell for each heading.
  const cell = (r: readonly string[], i: number) => r[i] as string;
  // A loop, not Math.max(...rows): a spread of 130,000 arguments overflows the stack.
  const widths: number[] = head.slice(0, last).map(() => 0);
  for (const r of [head, ...rows]) {
    for (let i = 0; i < last; i++) widths[i] = Math.max(widths[i] as number, widthOf(cell(r, i)));
  }
  const room = Math.max(MIN_DESCRIPTION, width - widths.reduce((a, b) => a + b + 2, 0));
  const line = (r: readonly string[]) =>
    [...r.slice(0, last).map((c, i) => pad(c, widths[i] as number)), cut(cell(r, last), room)]
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/**
 * The likely meant skill for an unknown `name`: an invalid manifest in a directory of that name, else a
 * skill whose directory is called `name` (its frontmatter name differs), else the closest spelling.
 */
function didYouMean(skills: AgentSkills, name: string): string {
  // explain lists a manifest that failed under its directory name: the likeliest cause of all.
  if (skills.explain(name).some((c) => c.verdict === "invalid")) {
    return `; a skill directory of that name holds an invalid manifest (agent-skills explain ${name} shows why)`;
  }
  const list = skills.listSkills();
  const byDir = list.find((s) => path.basename(s.dir) === name);
  if (byDir !== undefined) {
    return `; did you mean ${JSON.stringify(byDir.name)}? (its directory is ${JSON.stringify(name)}, its frontmatter name differs)`;
  }
  const near = closest(
    name,
    list.map((s) => s.name),
  );
  return near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`;
}

/**
 * `not_found` for an unknown skill, with a hint, after saying on stderr where the CLI looked if it
 * found nothing. Under `--json` the error object is the whole output, so the note is left out.
 */
function notFound(skills: AgentSkills, name: string, inv: Invocation, io: CliIo, lead?: string): SkillError {
  if (!inv.json) noteSearched(skills, io);
  const message = lead ?? `no skill named ${JSON.stringify(name)} is loaded`;
  return new SkillError("not_found", `${message}${didYouMean(skills, name)}`, { skill: name });
}

/** `list`: the catalog as a table cut to the terminal, or `SkillInfo[]` as JSON. */
export function listCommand(inv: Invocation, io: CliIo): number {
  const skills = open(inv, io);
  const list = skills.listSkills();
  if (inv.json) io.stdout(`${toJson(list)}\n`);
  else {
    const { bold } = paint(io.stdoutIsTTY ?? false, io.env);
    const width = outputWidth(io, inv.wide);
    const rows = list.map((s) => [
      oneLine(s.name),
      s.scope,
      oneLine(s.source) || "-",
      oneLine(s.description),
    ]);
    const head = ["NAME", "SCOPE", "SOURCE", "DESCRIPTION"];
    const lines = table(head, rows, width);
    // The head line is always the first.
    if (rows.length > 0) io.stdout(`${bold(lines[0] as string)}\n${lines.slice(1).join("\n")}\n`);
    io.stdout(`${list.length} skill${list.length === 1 ? "" : "s"}\n`);
  }
  printWarnings(skills.warnings, io);
  noteSearched(skills, io);
  return 0;
}

/** `show NAME`: the body, or the whole `SkillContent` as JSON. */
export function showCommand(inv: Invocation, io: CliIo): number {
  // The command's arity is [1, 1]: parse has checked that its NAME is there.
  const name = inv.args[0] as string;
  const skills = open(inv, io);
  // Resource warnings concern the skill shown, so they are printed; the scan's are list's business.
  const content = skills.loadSkill(name);
  if (content === undefined) throw notFound(skills, name, inv, io);
  io.stdout(inv.json ? `${toJson(content)}\n` : `${stripControls(content.body)}\n`);
  printWarnings(content.warnings, io);
  return 0;
}

/**
 * `resource NAME REL`: the confined absolute path, printed exactly: a path is never rewritten, since a
 * rewritten path names another file. A path holding a control character cannot be printed as text
 * without rewriting it (or letting it drive the terminal), so text mode refuses it; `--json` prints it
 * escaped, exactly. A refusal throws, and main prints it.
 */
export function resourceCommand(inv: Invocation, io: CliIo): number {
  const [name = "", rel = ""] = inv.args;
  const skills = open(inv, io);
  if (!skills.listSkills().some((s) => s.name === name)) throw notFound(skills, name, inv, io);
  const resolved = skills.resourcePath(name, rel);
  if (inv.json) io.stdout(`${toJson({ skill: name, resource: rel, path: resolved })}\n`);
  else if (stripControls(resolved) !== resolved || /[\t\n]/.test(resolved)) {
    throw new CliError(
      "unprintable_path",
      `the path of resource ${JSON.stringify(rel)} of skill ${JSON.stringify(name)} holds control characters; run with --json to get it exactly`,
    );
  } else io.stdout(`${resolved}\n`);
  return 0;
}

/** `explain NAME`: the roots, then every candidate for NAME in precedence order with its verdict. */
export function explainCommand(inv: Invocation, io: CliIo): number {
  // The command's arity is [1, 1]: parse has checked that its NAME is there.
  const name = inv.args[0] as string;
  const skills = open(inv, io);
  const candidates = skills.explain(name);
  if (candidates.length === 0) {
    throw notFound(
      skills,
      name,
      inv,
      io,
      `no root offers a skill named ${JSON.stringify(name)} (run agent-skills list to see the names)`,
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
