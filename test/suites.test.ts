// The other vitest configs (`npm run fuzz`) must load the sources as `npm test` does: the `.cts` loaders
// are TypeScript, and the suite runs with a silent warn sink. The fuzz run once failed to load at all.
import { expect, test } from "vitest";
import base from "../vitest.config.js";
import fuzz from "../vitest.fuzz.config.js";

test("the fuzz run transforms the .cts sources and silences the sink as the main run does", () => {
  expect(fuzz.oxc).toEqual(base.oxc);
  expect(fuzz.test?.setupFiles).toEqual(base.test?.setupFiles);
  expect(fuzz.test?.include).toEqual(["test/fuzz-*.test.ts"]);
});
