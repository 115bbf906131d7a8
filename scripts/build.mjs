// Builds dist/ (ESM, the package's own format) and dist/cjs/ (CommonJS, for `require`) side by side.
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = promisify(execFile);

// A stale file from an earlier build would be packed and published, so start from nothing.
await rm("dist", { recursive: true, force: true });
// Two independent compiles: running them together halves the wait on a two-core machine.
await Promise.all(
  ["tsconfig.build.json", "tsconfig.cjs.json"].map((config) =>
    run(process.execPath, [tsc, "-p", config]).catch((e) => {
      process.stderr.write(`${e.stdout ?? ""}${e.stderr ?? ""}`);
      throw new Error(`tsc -p ${config} failed`);
    }),
  ),
);
// The package says "type": "module"; this marker makes Node (and TypeScript) read dist/cjs as CommonJS.
await mkdir("dist/cjs", { recursive: true });
await writeFile("dist/cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`);
