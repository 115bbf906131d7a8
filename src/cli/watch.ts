// `list --watch`: the catalog, then each change as it happens, until the io's signal aborts (Ctrl-C in bin.ts).
import type { AgentSkills, RefreshResult, SkillInfo, SkillWarning } from "../index.js";
import { listCommand } from "./commands.js";
import { type CliIo, type Invocation, open, printWarnings } from "./context.js";
import { cut, oneLine, paint, showMessage, toJson } from "./text.js";

/** Columns a change line's description is cut to. */
const DESCRIPTION_WIDTH = 60;

/**
 * Text: the `list` table, then one line per changed name (`+` added, `~` changed, `-` removed) and the
 * warnings that are new. `--json`: one JSON object per line, `{ added, removed, changed }` with the
 * `SkillInfo` of added and changed skills and the names of removed ones; the first line holds the whole
 * catalog as added, so folding the lines gives the current catalog. Resolves to the exit code, 0, once
 * `io.signal` aborts; a refresh that fails (strict) prints its error and the watch goes on.
 */
export function watchListCommand(inv: Invocation, io: CliIo): Promise<number> {
  // Each scan that changed something emits its warnings again: print only those new since the last one.
  let seen = new Set<string>();
  let batch: SkillWarning[] = [];
  const flush = () => {
    printWarnings(
      batch.filter((w) => !seen.has(key(w))),
      io,
    );
    batch = [];
    seen = new Set(skills.warnings.map(key));
  };
  // Opened before anything is awaited: a bad option or a strict failure is thrown to main like any command's.
  const skills = open(inv, io, (w) => {
    if (batch.length === 0) queueMicrotask(flush);
    batch.push(w);
  });
  // The first scan's warnings are printed with the catalog below, not by the first flush.
  seen = new Set(skills.warnings.map(key));
  if (inv.json) {
    const all = skills.listSkills();
    io.stdout(`${toJson({ added: all, removed: [], changed: [] }, 0)}\n`);
    printWarnings(skills.warnings, io);
  } else listCommand(inv, io);
  return follow(skills, inv, io);
}

async function follow(skills: AgentSkills, inv: Invocation, io: CliIo): Promise<number> {
  const { green, yellow, red } = paint(io.stdoutIsTTY ?? false, io.env);
  const errRed = paint(io.stderrIsTTY ?? false, io.env).red;
  const onChange = (r: RefreshResult) => {
    const infos = (names: readonly string[]) => names.map((n) => skills.getSkill(n) as SkillInfo);
    if (inv.json) {
      io.stdout(`${toJson({ added: infos(r.added), removed: r.removed, changed: infos(r.changed) }, 0)}\n`);
    } else {
      const line = (mark: string, s: SkillInfo) =>
        `${mark} ${oneLine(s.name)}  ${cut(oneLine(s.description), DESCRIPTION_WIDTH)}`;
      const lines = [
        ...infos(r.added).map((s) => green(line("+", s))),
        ...infos(r.changed).map((s) => yellow(line("~", s))),
        ...r.removed.map((n) => red(`- ${oneLine(n)}`)),
      ];
      io.stdout(`${lines.join("\n")}\n`);
    }
  };
  const onError = (e: unknown) => {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(
      `${errRed("error")}: ${typeof code === "string" ? `${code}: ` : ""}${showMessage(message, io.cwd)}\n`,
    );
  };
  const watcher = skills.watch({
    onChange,
    onError,
    persistent: true,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
  await watcher.ready;
  const { signal } = io;
  if (signal !== undefined && !signal.aborted) {
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  }
  await watcher.close();
  return 0;
}

const key = (w: SkillWarning) => `${w.code}\0${w.message}`;
