import { defineConfig } from "vitest/config";

export default defineConfig({
  // `.cts` sources (src/loadyaml.cts) are TypeScript too; Vite's default transform skips them.
  oxc: { include: /\.[cm]?tsx?$/ },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/helpers/silence.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
