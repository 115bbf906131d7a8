// Builds dist/ (ESM, the package's own format) and dist/cjs/ (CommonJS, for `require`) side by side.
import { execFile } from "node:child_process";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { build } from "esbuild";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = promisify(execFile);

// A stale file from an earlier build would be packed and published, so start from nothing.
await rm("dist", { recursive: true, force: true });
// Two independent compiles: running them together halves the wait on a two-core machine. Emit only
// (`--noCheck`, the same files byte for byte): `npm run typecheck` checks both configurations, and the
// build that `npm test` starts with took 11.5 s of a fresh clone's run with the checks, 7 without.
await Promise.all(
  ["tsconfig.build.json", "tsconfig.cjs.json"].map((config) =>
    run(process.execPath, [tsc, "-p", config, "--noCheck"]).catch((e) => {
      process.stderr.write(`${e.stdout ?? ""}${e.stderr ?? ""}`);
      throw new Error(`tsc -p ${config} failed`);
    }),
  ),
);
// The package says "type": "module"; this marker makes Node (and TypeScript) read dist/cjs as CommonJS.
await mkdir("dist/cjs", { recursive: true });
await writeFile("dist/cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`);

// The command line as one module. Node 20 spends ~30 ms loading the ~45 modules of the CLI and the
// library one by one, and ~35 ms more on `yaml`'s ~70 CommonJS files when a manifest needs it (a broken
// one does); one file with `yaml` inside loads in a fraction of that. bin.js stays apart and small, so
// `--version` reads nothing else. `zod` stays outside, required on first need as in the library: inlined
// it would add its 1 MB to every start. The library's own modules (dist/*.js, dist/cjs) are not bundled.
await build({
  entryPoints: ["dist/cli/main.js"],
  outfile: "dist/cli/main.js",
  allowOverwrite: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["zod"],
  // An ES module has no `require`; esbuild's shim for the external `zod` calls this one.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
  },
  // Smaller to read and to ship; names stay, so a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
for (const file of await readdir("dist/cli")) {
  if (file !== "bin.js" && file !== "main.js") await rm(`dist/cli/${file}`);
}
