// The search command: the skills that fit a request, best first, with their scores.
import type { SkillMatch } from "../index.js";
import { DEFAULT_WIDTH, open, printWarnings } from "./commands.js";
import type { CliIo, Invocation } from "./context.js";
import { cut, oneLine, pad, paint, toJson, widthOf } from "./text.js";

/** `search QUERY`: a table of score, name and description, or `SkillMatch[]` as JSON. */
export function searchCommand(inv: Invocation, io: CliIo): number {
  const skills = open(inv, io);
  const matches: readonly SkillMatch[] = skills.search(
    inv.args[0] ?? "",
    inv.limit === undefined ? {} : { limit: inv.limit },
  );
  if (inv.json) io.stdout(`${toJson(matches)}\n`);
  else {
    const { bold } = paint(io.stdoutIsTTY ?? false, io.env);
    const width = io.stdoutIsTTY && io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_WIDTH;
    const rows = matches.map((m) => [
      m.score.toFixed(3),
      oneLine(m.skill.name),
      oneLine(m.skill.description),
    ]);
    const head = ["SCORE", "NAME", "DESCRIPTION"];
    const widths = [0, 1].map((i) => Math.max(...[head, ...rows].map((r) => widthOf(r[i] ?? ""))));
    const room = Math.max(20, width - (widths[0] ?? 0) - (widths[1] ?? 0) - 4);
    const line = (r: readonly string[]) =>
      [pad(r[0] ?? "", widths[0] ?? 0), pad(r[1] ?? "", widths[1] ?? 0), cut(r[2] ?? "", room)]
        .join("  ")
        .trimEnd();
    if (rows.length > 0) io.stdout(`${bold(line(head))}\n${rows.map(line).join("\n")}\n`);
    io.stdout(
      rows.length === 0
        ? "no skill fits this request\n"
        : `${rows.length} skill${rows.length === 1 ? "" : "s"}, best first\n`,
    );
  }
  printWarnings(skills.warnings, io);
  return 0;
}
