// The command line's help pages, built from the command table so a new command documents itself.

/** What the help says about one command; part of its entry in the command table. */
export interface CommandDoc {
  /** The arguments after the command name, e.g. `NAME REL`. */
  readonly args: string;
  /** One line: what the command prints. */
  readonly summary: string;
  /** More lines for `help COMMAND`: what it does, exit codes beyond the usual. */
  readonly details: readonly string[];
  /** The options only this command takes, each with its one-line meaning. */
  readonly options: readonly (readonly [flag: string, meaning: string])[];
  /** One or two examples: the arguments after `agent-skills`, and what they do. */
  readonly examples: readonly (readonly [args: string, what: string])[];
}

/** The one-line usage shown with every usage error. */
export const USAGE = "usage: agent-skills <command> [args] [options]   (agent-skills help [command])";

const ROOT_OPTIONS = `Roots (ascending precedence: the last one wins)
  --root PATH             a workspace-scoped root; repeatable
  --user-root PATH        a user-scoped root; repeatable
  --preset NAME           with no --root or --user-root: clarvis (default), agents or claude
  --workspace DIR         the workspace the preset looks in (default: the current directory)
  --home DIR              where ~ and the preset's user roots are (default: your home)`;

const GLOBAL_OPTIONS = `Options for every command
  --strict                fail on a malformed skill or an in-root duplicate (validate: on warnings too)
  --no-follow-symlinks    ignore symlinked skill directories, manifests and resources
  --json                  machine-readable output on stdout; a failure is {"error":{"code","message"}}
  -h, --help              help (agent-skills COMMAND --help: that command's)
  --version               the version`;

const FOOTER = `Exit codes: 0 ok, 1 errors found or the operation failed, 2 bad usage.
Colour only on a terminal, and never when NO_COLOR is set. Output that is not a terminal is cut to
COLUMNS columns (default 80); --wide never cuts.`;

function column(rows: readonly (readonly [string, string])[], indent: number): string {
  let width = 22;
  for (const [a] of rows) width = Math.max(width, a.length);
  return rows.map(([a, b]) => `${" ".repeat(indent)}${a.padEnd(width)}  ${b}`).join("\n");
}

/** The full help: every command's summary, the root and global options, an example of each. */
export function mainHelp(table: Readonly<Record<string, CommandDoc>>): string {
  const commands = Object.entries(table).map(([name, d]) => [`${name} ${d.args}`.trim(), d.summary] as const);
  const examples = Object.values(table).flatMap((d) =>
    d.examples.slice(0, 1).map(([a]) => `  agent-skills ${a}`),
  );
  const own = Object.entries(table).flatMap(([name, d]) =>
    d.options.map(([flag, meaning]) => [flag, `${name}: ${meaning}`] as const),
  );
  return `agent-skills: find, read and check Agent Skills (folders with a SKILL.md)

usage: agent-skills <command> [args] [options]

Commands
${column(commands, 2)}

${ROOT_OPTIONS}

${GLOBAL_OPTIONS}

Options of one command
${column(own, 2)}

Examples
${examples.join("\n")}

${FOOTER}
`;
}

/** One command's help: usage, what it does, its own options, examples, then the shared options. */
export function commandHelp(name: string, doc: CommandDoc): string {
  const own = doc.options.length === 0 ? "" : `\nOptions\n${column(doc.options, 2)}\n`;
  const examples = doc.examples.map(([a, what]) => `  agent-skills ${a}\n      ${what}`).join("\n");
  return `usage: agent-skills ${`${name} ${doc.args}`.trim()} [options]

${doc.summary}
${doc.details.length === 0 ? "" : `\n${doc.details.map((l) => `${l}\n`).join("")}`}${own}
Examples
${examples}

${ROOT_OPTIONS}

${GLOBAL_OPTIONS}

${FOOTER}
`;
}
