// The suite as StrykerJS runs it (stryker.config.mjs): the main config less the tests that only run the
// built dist/ in a child process, which cannot see a mutant of src/ and would only cost time.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ["test/cli-smoke.test.ts", "test/faults-privileges.test.ts"],
      // Stryker gives no coverage run of its own to this config.
      coverage: { enabled: false },
      // One module graph for all the files a mutant runs, as in the main config: each mutant re-ran ~40
      // files' imports otherwise, and a run went from ~8 to ~25 mutants a minute on two cores. Stryker
      // switches mutants by a global, so this is sound for modules without module-level state. A module
      // that memoises (tokenize.ts's word memo) or builds lazily once (schema.ts's zod schema) keeps what
      // it computed under one mutant for the next: measure those with STRYKER_ISOLATE=1 (docs/mutation.md).
      isolate: process.env.STRYKER_ISOLATE === "1",
    },
  }),
);
