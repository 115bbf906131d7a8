import { defineConfig } from "vitest/config";

export default defineConfig({
  // `.cts` sources (src/loadyaml.cts) are TypeScript too; Vite's default transform skips them.
  oxc: { include: /\.[cm]?tsx?$/ },
  test: {
    include: ["test/**/*.test.ts"],
    // The packed-tarball test installs Node.js 22 from the registry: `npm run test:package`, run by .ci/run.
    exclude: ["test/package.test.ts", "test/fixtures/**", "**/node_modules/**"],
    globalSetup: ["test/helpers/corpus-notice.ts"],
    setupFiles: ["test/helpers/silence.ts"],
    testTimeout: 30_000,
    pool: "forks",
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
