// The validate command: check paths (or the roots) and print each finding with its fix, then counts by rule.
import { resolveAgainst, resolveConfig, type ValidationReport, validateSkills } from "../index.js";
import { type CliIo, type Invocation, rootsOf } from "./context.js";
import { pad, paint, showMessage, showPath, stripControls, toJson } from "./text.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Longest excerpt shown: a minified line must not flood the terminal. */
const EXCERPT_WIDTH = 160;

/**
 * The offending line and a caret under its column, as compilers show them. The caret's indent copies
 * the line's tabs, so it lines up whatever the tab width.
 */
function caret(excerpt: string, column: number): string[] {
  // The excerpt is one line of the file (split on newlines), so it holds no newline to flatten.
  const chars = [...stripControls(excerpt)];
  const at = Math.max(0, column - 1);
  const start = at >= EXCERPT_WIDTH ? at - EXCERPT_WIDTH / 2 : 0;
  const shown = chars.slice(start, start + EXCERPT_WIDTH).join("");
  const indent = chars
    .slice(start, at)
    .map((c) => (c === "\t" ? "\t" : " "))
    .join("");
  return [`  | ${shown}`, `  | ${indent}^`];
}

function print(report: ValidationReport, failed: boolean, strict: boolean, io: CliIo): void {
  const { red, yellow, bold, dim } = paint(io.stdoutIsTTY ?? false, io.env);
  const out: string[] = [];
  for (const f of report.findings) {
    // file:line:column, the form editors and CI annotations jump to.
    const where = [showPath(f.file, io.cwd), f.line, f.column].filter((p) => p !== undefined).join(":");
    const severity = f.severity === "error" ? red("error") : yellow("warning");
    out.push(`${where}: ${severity} ${f.rule}: ${showMessage(f.message, io.cwd)}`);
    // A finding with an excerpt has its column too.
    if (f.excerpt !== undefined) out.push(...caret(f.excerpt, f.column as number).map(dim));
    if (f.hint !== "") out.push(dim(`  fix: ${showMessage(f.hint, io.cwd)}`));
  }
  if (report.rules.length > 0) {
    // Every rule counted has its findings printed above: the blank line always separates them.
    out.push("");
    out.push(bold("findings by rule:"));
    const width = Math.max(...report.rules.map((r) => r.rule.length));
    const countWidth = Math.max(...report.rules.map((r) => String(r.count).length));
    for (const r of report.rules) {
      const severity = r.severity === "error" ? red(pad("error", 7)) : yellow(pad("warning", 7));
      out.push(`  ${severity}  ${pad(r.rule, width)}  ${String(r.count).padStart(countWidth)}`);
    }
  }
  const status = failed ? red(report.ok && strict ? "failed (--strict)" : "failed") : "ok";
  const failing = report.skillsWithErrors > 0 ? `, ${report.skillsWithErrors} with errors` : "";
  out.push(
    `${status}: ${plural(report.skills, "skill")} checked${failing}; ${plural(report.errors, "error")}, ${plural(report.warnings, "warning")}`,
  );
  io.stdout(`${out.join("\n")}\n`);
}

/** `validate [PATH...]`: exit 1 on any error, and with --strict on any finding. */
export function validateCommand(inv: Invocation, io: CliIo): number {
  const options = {
    cwd: io.cwd,
    followSymlinks: inv.followSymlinks,
    recursive: inv.recursive,
    // Every warning is a finding printed below; the global sink is never touched.
    onWarning: () => {},
    // No home: every path is made absolute (`~` expanded) before it is passed on.
    ...(inv.target === undefined ? {} : { target: inv.target }),
  };
  let report: ValidationReport;
  if (inv.args.length > 0) {
    report = validateSkills(
      inv.args.map((p) => resolveAgainst(p, io.cwd, inv.home)),
      options,
    );
  } else {
    // Resolved as list would resolve them, so a --workspace that does not exist fails here too.
    const { roots } = resolveConfig({
      roots: rootsOf(inv, io),
      cwd: io.cwd,
      // The workspace for its existence check; no home, as rootsOf already expanded every `~`.
      ...(inv.workspace === undefined ? {} : { workspace: inv.workspace }),
    });
    report = validateSkills(
      roots.map((r) => r.path),
      { ...options, asRoots: true },
    );
  }
  const failed = report.errors > 0 || (inv.strict && report.findings.length > 0);
  // In JSON, `ok` is the command's verdict, as the exit code is: with --strict a warning makes it false.
  if (inv.json) io.stdout(`${toJson({ ...report, ok: !failed })}\n`);
  else print(report, failed, inv.strict, io);
  return failed ? 1 : 0;
}
