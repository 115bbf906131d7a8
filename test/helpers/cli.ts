// Runs the CLI's main() in-process against the repository, capturing what it writes.
import * as path from "node:path";
import { type CliIo, main } from "../../src/cli/main.js";
import { waiter } from "./wait.js";

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

/** Far above any real wait: only a missed change reaches it. */
export const LIMIT_MS = 10_000;

/** A `list --watch` running in-process: its exit code to come, how to stop it, and what it printed. */
export interface WatchRun {
  readonly code: number | Promise<number>;
  stop(): void;
  readonly signal: AbortSignal;
  until(what: () => boolean): Promise<void>;
  out(): string;
  err(): string;
}

/** Start `list --watch` on `root` (stdout throws on the texts `fails` picks); `until(what)` resolves once what() holds. */
export function watchList(
  root: string,
  extra: string[] = [],
  io: Partial<CliIo> = {},
  fails: (text: string) => boolean = () => false,
): WatchRun {
  let out = "";
  let err = "";
  const waits = waiter(LIMIT_MS);
  const stop = new AbortController();
  const code = main(["list", "--watch", "--root", root, ...extra], {
    stdout: (s) => {
      // A plain Error, no code: as a closed pipe might throw.
      if (fails(s)) throw new Error("stdout is closed");
      out += s;
      waits.wake();
    },
    stderr: (s) => {
      err += s;
      waits.wake();
    },
    cwd: REPO,
    env: {},
    signal: stop.signal,
    ...io,
  });
  const until = (what: () => boolean) =>
    waits.until(what, () => `not printed within ${LIMIT_MS} ms:\n${out}\n${err}`);
  return { code, stop: () => stop.abort(), signal: stop.signal, until, out: () => out, err: () => err };
}
