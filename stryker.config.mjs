// StrykerJS (`npm run mutate`, or `npm run mutate -- --mutate src/fastscalar.ts` for one file). See docs/mutation.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.ts" },
  // Only the tests that cover a mutant run against it: what makes a run finish on two cores.
  coverageAnalysis: "perTest",
  // The sandbox copy cannot copy the symlinked example skill (EISDIR), and the tests read examples/ in
  // place: mutate the working tree itself. Stryker restores each file, even after Ctrl-C, on its next run.
  inPlace: true,
  mutate: ["src/**/*.ts", "src/**/*.cts", "!src/types.ts", "!src/index.ts", "!src/cli/bin.ts"],
  // Static mutants (module-level tables such as the fast path's character classes) need the whole suite
  // per mutant; they are left out here and measured on their own: docs/mutation.md.
  ignoreStatic: true,
  // Vitest does not type-check, and in place the default would stamp `// @ts-nocheck` on every file.
  disableTypeChecks: false,
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
