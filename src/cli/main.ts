// The agent-skills command line: argv → one command → an exit code. Only bin.ts touches the process.
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { resolveAgainst, SkillError, type SkillRootInput, StartupError } from "../index.js";
import { explainCommand, listCommand, resourceCommand, showCommand } from "./commands.js";
import { type CliIo, type Invocation, PRESETS, type Preset } from "./context.js";
import { HELP, USAGE } from "./help.js";
import { searchCommand } from "./search.js";
import { oneLine, paint, showMessage } from "./text.js";
import { validateCommand } from "./validate.js";
import { watchListCommand } from "./watch.js";

export type { CliIo } from "./context.js";

/** How many positional arguments each command takes: [min, max]. */
const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  list: [0, 0],
  show: [1, 1],
  resource: [2, 2],
  explain: [1, 1],
  search: [1, 1],
  validate: [0, Number.POSITIVE_INFINITY],
};

const OPTIONS = {
  root: { type: "string", multiple: true },
  "user-root": { type: "string", multiple: true },
  preset: { type: "string" },
  workspace: { type: "string" },
  home: { type: "string" },
  strict: { type: "boolean" },
  "no-follow-symlinks": { type: "boolean" },
  json: { type: "boolean" },
  limit: { type: "string" },
  watch: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

class UsageError extends Error {}

const parseWith = (args: string[]) =>
  parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });

function parse(argv: readonly string[], io: CliIo): Invocation | "help" | "version" {
  let parsed: ReturnType<typeof parseWith>;
  try {
    parsed = parseWith([...argv]);
  } catch (e) {
    // parseArgs explains at length; its first sentence is the problem.
    throw new UsageError((e instanceof Error ? e.message : String(e)).split(". ")[0] ?? "bad arguments");
  }
  const { values, positionals, tokens } = parsed;
  if (values.help) return "help";
  if (values.version) return "version";
  const [command, ...args] = positionals;
  if (command === undefined) throw new UsageError("no command given");
  const arity = ARITY[command];
  if (arity === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (args.length < arity[0] || args.length > arity[1]) {
    const wanted = arity[0] === arity[1] ? `${arity[0]}` : `at least ${arity[0]}`;
    throw new UsageError(
      `${command} takes ${wanted} argument${arity[0] === 1 ? "" : "s"}, received ${args.length}`,
    );
  }
  if (values.watch && command !== "list") throw new UsageError("--watch goes with list only");
  const preset = values.preset ?? "clarvis";
  if (!Object.hasOwn(PRESETS, preset)) {
    throw new UsageError(`--preset must be clarvis, agents or claude, received ${JSON.stringify(preset)}`);
  }
  for (const key of ["workspace", "home"] as const) {
    if (values[key] === "") throw new UsageError(`--${key} needs a non-empty path`);
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (command !== "search" || !(Number.isSafeInteger(limit) && limit > 0))) {
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
  if (command === "validate" && args.length > 0 && (roots.length > 0 || values.preset !== undefined)) {
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
 * @returns the exit code: 0 ok, 1 errors found or the operation failed, 2 bad usage; a promise of it
 * for `list --watch`, which runs until `io.signal` aborts.
 * @example process.exitCode = main(process.argv.slice(2), { stdout: …, stderr: …, cwd: process.cwd(), env: process.env })
 */
export function main(argv: readonly string[], io: CliIo): number | Promise<number> {
  const red = paint(io.stderrIsTTY ?? false, io.env).red;
  try {
    const inv = parse(argv, io);
    if (inv === "help") {
      io.stdout(HELP);
      return 0;
    }
    if (inv === "version") {
      io.stdout(`${version()}\n`);
      return 0;
    }
    switch (inv.command) {
      case "list":
        return inv.watch ? watchListCommand(inv, io) : listCommand(inv, io);
      case "show":
        return showCommand(inv, io);
      case "resource":
        return resourceCommand(inv, io);
      case "explain":
        return explainCommand(inv, io);
      case "search":
        return searchCommand(inv, io);
      default:
        return validateCommand(inv, io);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(
        `${red("error")}: ${oneLine(e.message)}\n${USAGE}\nRun agent-skills --help for the commands and options.\n`,
      );
      return 2;
    }
    if (e instanceof SkillError) {
      io.stderr(`${red("error")}: ${e.code}: ${showMessage(e.message, io.cwd)}\n`);
      return 1;
    }
    if (e instanceof StartupError) {
      io.stderr(`${red("error")}: ${showMessage(e.message, io.cwd)}\n`);
      return 1;
    }
    throw e;
  }
}
