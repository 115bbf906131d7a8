// Setup for every test file. The workers share one module graph (vitest.config.ts), so what a file
// leaves for the process is put back here, once per file, not by the modules it imports (they load once).
import { afterAll, beforeEach } from "vitest";
import { setWarnSink } from "../../src/warnings.js";
import { removeTempDirs } from "./fixture.js";

// The default warn sink writes to stderr, and a test run must not spew the warnings of the hostile
// trees it scans. Tests that check the default restore it themselves.
beforeEach(() => {
  setWarnSink(() => {});
});

// The temp folders of the file's fixtures, removed when it ends; those an earlier file of this worker
// left because its run was stopped mid-way (Stryker stops a run at its first failing test) go first.
removeTempDirs();
afterAll(removeTempDirs);
