// The long fuzz run (`npm run fuzz`): only the property files, fifty times the cases, fresh seeds.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/fuzz-*.test.ts"],
    setupFiles: ["test/helpers/silence.ts"],
    pool: "forks",
    provide: { fuzzScale: 50 },
    testTimeout: 3_600_000,
  },
});
