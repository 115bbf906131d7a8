// The command table: one entry per command (its arity, its own options, its help and its handler). Add a command here.
import { catalogCommand, rootsCommand } from "./catalog.js";
import { explainCommand, listCommand, resourceCommand, showCommand } from "./commands.js";
import type { CliIo, Invocation } from "./context.js";
import { type CommandDoc, commandHelp, mainHelp } from "./help.js";
import { searchCommand } from "./search.js";
import { validateCommand } from "./validate.js";
import { watchListCommand } from "./watch.js";

/** One command: how many arguments it takes, which of the command-specific options, its help and its run. */
export interface Command extends CommandDoc {
  /** Positional arguments: [min, max]. */
  readonly arity: readonly [number, number];
  /**
   * Runs the command; returns the exit code (a promise of it for a command that runs until
   * `io.signal` aborts, `list --watch`), throws a SkillError, StartupError or CliError to fail.
   */
  readonly run: (inv: Invocation, io: CliIo) => number | Promise<number>;
}

/**
 * The long names of the options only some commands take, checked against each command's option list;
 * `--limit` (search) and `--watch` (list) are checked on their own in main.ts. Every other option
 * applies to all.
 */
export const COMMAND_OPTIONS = ["format", "budget", "query", "recursive", "target", "wide"] as const;

const EX = "--workspace examples/workspace --home examples/home";

/** Every command, in the order the help lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  list: {
    arity: [0, 0],
    args: "",
    summary: "the catalog: name, scope, source, description",
    details: [
      "One line per skill, sorted by name, cut to the terminal (or COLUMNS) unless --wide. When no root",
      "exists or no skill is found, stderr says which roots were searched.",
    ],
    options: [
      ["--wide", "never cut a line to the terminal width"],
      [
        "--watch",
        "keep watching; print each change as it happens (--json: one object per line); Ctrl-C stops",
      ],
    ],
    examples: [
      [`list ${EX}`, "the example workspace's skills"],
      ["list --json --root skills", "the SkillInfo[] of one root, for a script"],
    ],
    run: (inv, io) => (inv.watch ? watchListCommand(inv, io) : listCommand(inv, io)),
  },
  show: {
    arity: [1, 1],
    args: "NAME",
    summary: "the body of skill NAME",
    details: ["An unknown NAME exits 1, naming the skill whose directory is NAME or a close spelling."],
    options: [],
    examples: [[`show pdf ${EX}`, "print the body of the winning pdf skill"]],
    run: showCommand,
  },
  resource: {
    arity: [2, 2],
    args: "NAME REL",
    summary: "the absolute path of file REL of skill NAME, confined to its directory",
    details: [
      "The path is printed exactly; one holding control characters is refused in text (exit 1,",
      "unprintable_path) and given exactly, escaped, by --json.",
    ],
    options: [],
    examples: [[`resource pdf scripts/extract.py ${EX}`, "the path of a script the skill ships"]],
    run: resourceCommand,
  },
  explain: {
    arity: [1, 1],
    args: "NAME",
    summary: "every root's candidate for NAME, which one wins and why the others lost",
    details: [],
    options: [],
    examples: [[`explain pdf ${EX}`, "which root's pdf wins"]],
    run: explainCommand,
  },
  search: {
    arity: [1, 1],
    args: "QUERY",
    summary: "the skills that fit a request, best first, with scores",
    details: [],
    options: [
      ["--limit N", "the most skills shown (default 10)"],
      ["--wide", "never cut a line to the terminal width"],
    ],
    examples: [[`search "extract tables from a pdf" ${EX}`, "the best matches for a request"]],
    run: searchCommand,
  },
  catalog: {
    arity: [0, 0],
    args: "",
    summary: "the prompt block an agent shows the model (renderCatalog of the catalog)",
    details: [
      "Prints renderCatalog(listSkills(), { format, budget, query }).text and a newline; when skills are",
      "left out, stderr says how many. A description is never cut below 60 characters.",
    ],
    options: [
      ["--format xml|markdown|json", "the text's shape (default xml)"],
      ["--budget N", "at most N characters (UTF-16 code units)"],
      ["--query TEXT", "over the budget, keep the skills most relevant to TEXT (see search)"],
    ],
    examples: [
      [`catalog ${EX}`, "the <available_skills> block"],
      [
        'catalog --format markdown --budget 8000 --query "review a pull request" --root skills',
        "a markdown list within 8,000 characters, the skills for that request kept first",
      ],
    ],
    run: catalogCommand,
  },
  roots: {
    arity: [0, 0],
    args: "",
    summary: "the roots in precedence order, with scope, source and state",
    details: ["State: ok (with its valid skills), missing, not a directory or unreadable."],
    options: [],
    examples: [
      [`roots ${EX}`, "where the clarvis preset looks, and what it found"],
      ["roots --preset claude --json", "the same for the claude preset, as JSON"],
    ],
    run: rootsCommand,
  },
  validate: {
    arity: [0, Number.POSITIVE_INFINITY],
    args: "[PATH...]",
    summary: "check skill folders, SKILL.md files or roots (default: the roots); exit 1 on errors",
    details: [
      "Each finding with file:line, rule and a fix, then counts by rule. Checking no skill at all is an",
      "error (no-manifest), naming near-miss files such as SKILLS.md. PATHs or the root options, not",
      "both. With --json, ok is the verdict: false exactly when the exit code is 1.",
    ],
    options: [
      ["--recursive", "find SKILL.md files at any depth below each PATH (plugin repositories)"],
      ["--target CLIENT", "add the rules of agentskills, claude or codex (errors)"],
    ],
    examples: [
      ["validate skills/", "gate CI on the skills of a repository"],
      [
        "validate --recursive --target claude plugins/",
        "every skill of a plugin repository, as Claude Code checks",
      ],
    ],
    run: validateCommand,
  },
  help: {
    arity: [0, 1],
    args: "[COMMAND]",
    summary: "this help, or one command's",
    details: [],
    options: [],
    examples: [["help validate", "validate's options and examples"]],
    run: (inv, io) => {
      io.stdout(helpText(inv.args[0]));
      return 0;
    },
  },
};

/** The help for `command` (a key of {@link COMMANDS}), or the full help. */
export function helpText(command?: string): string {
  const entry = command === undefined ? undefined : COMMANDS[command];
  return entry === undefined || command === undefined ? mainHelp(COMMANDS) : commandHelp(command, entry);
}
