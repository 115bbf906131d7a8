// Setup for every test file: the default warn sink writes to stderr, and a test run must not spew
// the warnings of the hostile trees it scans. Tests that check the default restore it themselves.
import { beforeEach } from "vitest";
import { setWarnSink } from "../../src/warnings.js";

beforeEach(() => {
  setWarnSink(() => {});
});
