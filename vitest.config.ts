import { defineConfig } from "vitest/config";

export default defineConfig({
  // `.cts` sources (src/loadyaml.cts) are TypeScript too; Vite's default transform skips them.
  oxc: { include: /\.[cm]?tsx?$/ },
  test: {
    include: ["test/**/*.test.ts"],
    // The packed-tarball test installs Node.js 22 from the registry: `npm run test:package`, run by .ci/run.
    exclude: ["test/package.test.ts", "test/fixtures/**", "**/node_modules/**"],
    globalSetup: ["test/helpers/corpus-notice.ts", "test/helpers/temp-root.ts"],
    setupFiles: ["test/helpers/setup.ts"],
    testTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where a bare clone's
    // `npm test` then took 62-79 s of vitest alone. The files wait on the file system more than they
    // compute, so three share two cores well: 31-35 s. (Stryker sets its own single worker.)
    maxWorkers: 3,
    // One module graph per worker, not one per file: re-importing vitest and the sources for each of
    // ~95 files cost a bare clone's `npm test` about 25 s of its 80 on a 2-core machine. Files must
    // therefore leave no state behind (restored spies and clocks, no `vi.resetModules`); a check that
    // needs a fresh module runs in a child process (test/schema-leftover.test.ts, test/schema-lazy.test.ts).
    isolate: false,
    coverage: {
      provider: "v8",
      include: ["src/**/*.ts", "src/**/*.cts"],
      // bin.ts is the two-line process entry, run only as a child process by the CLI smoke tests.
      exclude: ["src/cli/bin.ts"],
      reporter: ["text-summary", "text"],
      thresholds: { lines: 95, branches: 90 },
    },
  },
});
