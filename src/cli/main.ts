// The agent-skills command line: argv → one command → an exit code. Only bin.ts touches the process.
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import {
  type CatalogFormat,
  resolveAgainst,
  SkillError,
  type SkillRootInput,
  StartupError,
  VALIDATION_TARGETS,
  type ValidationTarget,
} from "../index.js";
import { CliError, type CliIo, type Invocation, PRESETS, type Preset } from "./context.js";
import { USAGE } from "./help.js";
import { COMMAND_OPTIONS, COMMANDS, helpText } from "./table.js";
import { oneLine, paint, showMessage, toJson } from "./text.js";

export type { CliIo } from "./context.js";

const FORMATS: readonly CatalogFormat[] = ["xml", "markdown", "json"];

const OPTIONS = {
  root: { type: "string", multiple: true },
  "user-root": { type: "string", multiple: true },
  preset: { type: "string" },
  workspace: { type: "string" },
  home: { type: "string" },
  strict: { type: "boolean" },
  "no-follow-symlinks": { type: "boolean" },
  json: { type: "boolean" },
  wide: { type: "boolean" },
  format: { type: "string" },
  budget: { type: "string" },
  query: { type: "string" },
  recursive: { type: "boolean" },
  target: { type: "string" },
  limit: { type: "string" },
  watch: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

class UsageError extends Error {}

const parseWith = (args: string[]) =>
  parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });

/** `--budget`: a non-negative integer, written in decimal digits. */
/** A count written in decimal digits, else `undefined`: Number() would also take "0x2", "1e0" and " 3". */
const count = (value: string): number | undefined => (/^\d{1,15}$/.test(value) ? Number(value) : undefined);

function budgetOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const budget = count(value);
  if (budget === undefined) {
    throw new UsageError(`--budget must be a non-negative integer, received ${JSON.stringify(value)}`);
  }
  return budget;
}

function parse(argv: readonly string[], io: CliIo): Invocation | { help: string } | "version" {
  let parsed: ReturnType<typeof parseWith>;
  try {
    parsed = parseWith([...argv]);
  } catch (e) {
    // parseArgs explains at length; its first sentence is the problem. It throws only TypeErrors.
    throw new UsageError((e as Error).message.split(". ")[0]);
  }
  const { values, positionals, tokens } = parsed;
  const [command, ...args] = positionals;
  const entry = command === undefined ? undefined : COMMANDS[command];
  if (command !== undefined && entry === undefined)
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (values.help) return { help: helpText(command) };
  if (values.version) return "version";
  if (command === undefined || entry === undefined) throw new UsageError("no command given");
  if (command === "help" && args[0] !== undefined && COMMANDS[args[0]] === undefined) {
    throw new UsageError(`unknown command ${JSON.stringify(args[0])}`);
  }
  if (values.watch && command !== "list") throw new UsageError("--watch goes with list only");
  for (const option of COMMAND_OPTIONS) {
    if (
      values[option] !== undefined &&
      !entry.options.some(([flag]) => flag.split(" ")[0] === `--${option}`)
    ) {
      throw new UsageError(`--${option} is not an option of ${command}`);
    }
  }
  const format = values.format ?? "xml";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be xml, markdown or json, received ${JSON.stringify(format)}`);
  }
  const target = values.target;
  if (target !== undefined && !(VALIDATION_TARGETS as readonly string[]).includes(target)) {
    throw new UsageError(`--target must be agentskills, claude or codex, received ${JSON.stringify(target)}`);
  }
  const budget = budgetOf(values.budget);
  const arity = entry.arity;
  if (args.length < arity[0] || args.length > arity[1]) {
    const [min, max] = arity;
    const [wanted, n] =
      min === max ? [`${min}`, min] : min === 0 ? [`at most ${max}`, max] : [`at least ${min}`, min];
    throw new UsageError(`${command} takes ${wanted} argument${n === 1 ? "" : "s"}, received ${args.length}`);
  }
  const preset = values.preset ?? "clarvis";
  if (!Object.hasOwn(PRESETS, preset)) {
    throw new UsageError(`--preset must be clarvis, agents or claude, received ${JSON.stringify(preset)}`);
  }
  for (const key of ["workspace", "home"] as const) {
    if (values[key] === "") throw new UsageError(`--${key} needs a non-empty path`);
  }
  // 0 for anything but a positive count: "0", or not decimal digits.
  const limit = values.limit === undefined ? undefined : (count(values.limit) ?? 0);
  if (limit !== undefined && (command !== "search" || limit === 0)) {
    throw new UsageError(
      command !== "search"
        ? "--limit applies to search only"
        : `--limit must be a positive integer, received ${JSON.stringify(values.limit)}`,
    );
  }
  const home = values.home === undefined ? undefined : resolveAgainst(values.home, io.cwd);
  // Tokens keep --root and --user-root in the order given: that order is their precedence.
  const roots: SkillRootInput[] = [];
  for (const t of tokens) {
    if (t.kind !== "option" || (t.name !== "root" && t.name !== "user-root")) continue;
    const scope = t.name === "root" ? "workspace" : "user";
    if (t.value === undefined || t.value === "") throw new UsageError(`--${t.name} needs a non-empty path`);
    roots.push({ path: resolveAgainst(t.value, io.cwd, home), scope });
  }
  // --workspace picks the preset's roots too: with PATHs it would be silently ignored.
  const picksRoots = roots.length > 0 || values.preset !== undefined || values.workspace !== undefined;
  if (command === "validate" && args.length > 0 && picksRoots) {
    throw new UsageError("validate checks either the PATHs given or the roots, not both");
  }
  if (roots.length > 0 && values.preset !== undefined) {
    throw new UsageError(
      "--preset chooses the roots when no --root or --user-root is given; give one or the other",
    );
  }
  return {
    command,
    args,
    roots,
    preset: preset as Preset,
    ...(values.workspace === undefined ? {} : { workspace: resolveAgainst(values.workspace, io.cwd, home) }),
    ...(home === undefined ? {} : { home }),
    strict: values.strict ?? false,
    followSymlinks: !values["no-follow-symlinks"],
    json: values.json ?? false,
    wide: values.wide ?? false,
    format: format as CatalogFormat,
    ...(budget === undefined ? {} : { budget }),
    ...(values.query === undefined ? {} : { query: values.query }),
    recursive: values.recursive ?? false,
    ...(target === undefined ? {} : { target: target as ValidationTarget }),
    ...(limit === undefined ? {} : { limit }),
    watch: values.watch ?? false,
  };
}

function version(): string {
  // Read on demand: package.json sits two levels up from both src/cli and dist/cli.
  const pkg = createRequire(import.meta.url)("../../package.json") as { version: string };
  return pkg.version;
}

/**
 * Run the command line `argv` (without the node and script paths) against `io`.
 * Under `--json`, a failure is one JSON object `{"error":{"code","message"}}` on stdout, nothing on stderr.
 * @returns the exit code: 0 ok, 1 errors found or the operation failed, 2 bad usage; a promise of it
 * for `list --watch`, which runs until `io.signal` aborts.
 * @example process.exitCode = main(process.argv.slice(2), { stdout: …, stderr: …, cwd: process.cwd(), env: process.env })
 */
export function main(argv: readonly string[], io: CliIo): number | Promise<number> {
  const red = paint(io.stderrIsTTY ?? false, io.env).red;
  // Known before parsing, so that a usage error under --json is JSON too.
  const json = argv.includes("--json");
  const fail = (code: string, message: string, exit: number, text: string): number => {
    if (json) io.stdout(`${toJson({ error: { code, message } })}\n`);
    else io.stderr(text);
    return exit;
  };
  try {
    const inv = parse(argv, io);
    if (inv === "version") {
      io.stdout(`${version()}\n`);
      return 0;
    }
    if ("help" in inv) {
      io.stdout(inv.help);
      return 0;
    }
    return (COMMANDS[inv.command] as (typeof COMMANDS)[string]).run(inv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // The problem, then the usage line, which names `agent-skills help`.
      const text = `${red("error")}: ${oneLine(e.message)}\n${USAGE}\n`;
      return fail("usage", e.message, 2, text);
    }
    if (e instanceof SkillError || e instanceof CliError) {
      return fail(e.code, e.message, 1, `${red("error")}: ${e.code}: ${showMessage(e.message, io.cwd)}\n`);
    }
    if (e instanceof StartupError) {
      return fail(
        "invalid_option",
        e.message,
        1,
        `${red("error")}: invalid_option: ${showMessage(e.message, io.cwd)}\n`,
      );
    }
    throw e;
  }
}
