// The command line's help text and usage line, kept as constants so they read as one page.

/** The one-line usage shown with every usage error. */
export const USAGE = "usage: agent-skills <list|show|resource|explain|search|validate> [args] [options]";

/** The full help, printed by --help. */
export const HELP = `agent-skills: find, read and check Agent Skills (folders with a SKILL.md)

${USAGE}

Commands
  list                    the catalog: name, scope, source, description
  show NAME               the body of skill NAME
  resource NAME REL       the absolute path of file REL of skill NAME, confined to its directory
  explain NAME            every root's candidate for NAME, which one wins and why the others lost
  search QUERY            the skills that fit a request, best first, with scores (--limit N, default 10)
  validate [PATH...]      check skill directories, SKILL.md files or roots (default: the roots)
                          against the schema and the agentskills.io rules; exit 1 on any error

Roots (ascending precedence: the last one wins)
  --root PATH             a workspace-scoped root; repeatable
  --user-root PATH        a user-scoped root; repeatable
  --preset NAME           with no --root or --user-root: clarvis (default), agents or claude
  --workspace DIR         the workspace the preset looks in (default: the current directory)
  --home DIR              where ~ and the preset's user roots are (default: your home)

Options
  --strict                list/show/resource/explain: fail on a malformed skill or an in-root
                          duplicate; validate: fail on warnings too
  --no-follow-symlinks    ignore symlinked skill directories, manifests and resources
  --json                  machine-readable output on stdout
  --limit N               search: the most skills shown
  --watch                 list: keep watching and print each change as it happens (--json: one
                          object per line); Ctrl-C stops
  -h, --help              this help
  --version               the version

Exit codes: 0 ok, 1 errors found or the operation failed, 2 bad usage.
Colour only on a terminal, and never when NO_COLOR is set.
`;
