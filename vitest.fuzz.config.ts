// The long fuzz run (`npm run fuzz`): only the property files, fifty times the cases, fresh seeds.
import { defineConfig } from "vitest/config";

export default defineConfig({
  // As in vitest.config.ts: the `.cts` sources (src/loadyaml.cts, src/loadzod.cts) are TypeScript too.
  oxc: { include: /\.[cm]?tsx?$/ },
  test: {
    include: ["test/fuzz-*.test.ts"],
    setupFiles: ["test/helpers/setup.ts"],
    pool: "forks",
    provide: { fuzzScale: 50 },
    testTimeout: 3_600_000,
  },
});
