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
    },
  }),
);
