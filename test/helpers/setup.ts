// Setup for every test file. The workers share one module graph (vitest.config.ts), so what a file
// leaves for the process is put back here, once per file, not by the modules it imports (they load once).
import { afterAll, beforeEach } from "vitest";
import { setWarnSink } from "../../src/warnings.js";
import { removeTempDirs, tempDirsLeft } from "./fixture.js";

// The default warn sink writes to stderr, and a test run must not spew the warnings of the hostile
// trees it scans. Tests that check the default restore it themselves.
beforeEach(() => {
  setWarnSink(() => {});
});

// The temp folders of the file's fixtures, removed when it ends. This file runs before each test
// file is loaded, which may make folders as it loads: a folder known now is an earlier file's.
const left = tempDirsLeft();
if (left.length > 0) throw new Error(`an earlier test file left its temp folders: ${left.join(", ")}`);
afterAll(removeTempDirs);
