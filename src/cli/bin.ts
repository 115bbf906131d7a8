#!/usr/bin/env node
// The agent-skills executable: wires the real process to main() and sets the exit code.
import { createRequire } from "node:module";

// A reader that goes away early (agent-skills validate | head -1) closes the pipe. That ends the
// output, not the verdict: the exit code stays the command's, so a failing check never reads as a pass.
let closed = false;
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") {
    closed = true;
    return;
  }
  throw e;
});

// Only a watch runs long enough to want a clean stop; elsewhere Ctrl-C keeps its default, immediate effect.
const stop = new AbortController();
if (process.argv.includes("--watch")) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
}

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === "--version") {
  // The one invocation that needs nothing of the library: answered before the ~45 modules of the
  // command line are loaded, about a third of Node's own start-up (the answer is main's own).
  const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };
  process.stdout.write(`${version}\n`);
} else {
  // Loaded only here, so the branch above pays for none of it.
  const { main } = await import("./main.js");
  const code = main(argv, {
    stdout: (text) => {
      if (!closed) process.stdout.write(text);
    },
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    ...(process.stdout.columns === undefined ? {} : { columns: process.stdout.columns }),
    signal: stop.signal,
  });
  if (typeof code === "number") process.exitCode = code;
  else
    code.then((c) => {
      process.exitCode = c;
    });
}
