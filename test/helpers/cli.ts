// Runs the CLI's main() in-process against the repository, capturing what it writes.
import * as path from "node:path";
import { type CliIo, main } from "../../src/cli/main.js";

/** The repository root: the CLI tests run from here so the examples' paths print as in the README. */
export const REPO = path.resolve(import.meta.dirname, "../..");

/** The example workspace's roots, as the README's commands give them. */
export const EXAMPLE = ["--workspace", "examples/workspace", "--home", "examples/home"];

/** What `list` prints for the example workspace on an 80-column, non-TTY stdout. */
export const EXAMPLE_TABLE = [
  "NAME        SCOPE      SOURCE   DESCRIPTION",
  "changelog   workspace  agents   Draft a CHANGELOG entry from the commits since …",
  "git-commit  workspace  agents   Write a conventional commit message for the sta…",
  "pdf         workspace  clarvis  Extract text and tables from PDF files; use whe…",
  "review      user       clarvis  Review a pull request for correctness first, st…",
  "4 skills",
  "",
].join("\n");

/** What one run of main() produced. */
export interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Run `argv` with stdout and stderr captured; `io` overrides the defaults (cwd REPO, empty env, no TTY). */
export function run(argv: readonly string[], io: Partial<CliIo> = {}): Run {
  let out = "";
  let err = "";
  const code = main(argv, {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    cwd: REPO,
    env: {},
    ...io,
  });
  // Only list --watch answers with a promise; its tests drive main themselves.
  if (typeof code !== "number") throw new Error("run() is for commands that finish");
  return { code, out, err };
}
