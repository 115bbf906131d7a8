// The search command: the skills that fit a request, best first, with their scores.
import type { SkillMatch } from "../index.js";
import { table } from "./commands.js";
import { type CliIo, type Invocation, open, printWarnings } from "./context.js";
import { oneLine, outputWidth, paint, toJson } from "./text.js";

/** `search QUERY`: a table of score, name and description, or `SkillMatch[]` as JSON. */
export function searchCommand(inv: Invocation, io: CliIo): number {
  const skills = open(inv, io);
  const matches: readonly SkillMatch[] = skills.search(
    // The command's arity is [1, 1]: parse has checked that its QUERY is there.
    inv.args[0] as string,
    inv.limit === undefined ? {} : { limit: inv.limit },
  );
  if (inv.json) io.stdout(`${toJson(matches)}\n`);
  else {
    const { bold } = paint(io.stdoutIsTTY ?? false, io.env);
    const rows = matches.map((m) => [
      m.score.toFixed(3),
      oneLine(m.skill.name),
      oneLine(m.skill.description),
    ]);
    const lines = table(["SCORE", "NAME", "DESCRIPTION"], rows, outputWidth(io, inv.wide));
    // The head line is always the first.
    if (rows.length > 0) io.stdout(`${bold(lines[0] as string)}\n${lines.slice(1).join("\n")}\n`);
    io.stdout(
      rows.length === 0
        ? "no skill fits this request\n"
        : `${rows.length} skill${rows.length === 1 ? "" : "s"}, best first\n`,
    );
  }
  printWarnings(skills.warnings, io);
  return 0;
}
