#!/usr/bin/env node
// The agent-skills executable: wires the real process to main() and sets the exit code.
import { main } from "./main.js";

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

const code = main(process.argv.slice(2), {
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
