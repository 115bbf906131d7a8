// Options checking at its edges: the exact StartupError (message and cause) for each kind of wrong
// value, and `~\` on a system whose separator is `/`.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startsAtHome } from "../src/config.js";
import { setFaultHook } from "../src/fsx.js";
import { type AgentSkillsOptions, resolveAgainst, resolveConfig, StartupError } from "../src/index.js";
import { tempDir } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

/** The StartupError `run` throws. */
function startupError(run: () => unknown): StartupError {
  try {
    run();
  } catch (e) {
    if (e instanceof StartupError) return e;
    throw e;
  }
  throw new Error("no StartupError thrown");
}

const refusal = (options: unknown) =>
  startupError(() => resolveConfig(options as AgentSkillsOptions)).message;

describe("startsAtHome: ~ then a separator", () => {
  test.each([
    ["~/x", "/", true],
    ["~/x", "\\", true],
    ["~\\x", "\\", true], // Windows: either separator
    ["~\\x", "/", false], // elsewhere a backslash is an ordinary character
    ["x~\\", "\\", false],
    ["x~/", "/", false],
    ["~x", "\\", false],
    ["~user\\x", "\\", false],
    ["\\x", "\\", false],
  ])("%j with separator %j: %s", (p, sep, expected) => {
    expect(startsAtHome(p, sep)).toBe(expected);
  });
});

describe.skipIf(path.sep !== "/")("resolveAgainst where the separator is /", () => {
  test("~\\ is an ordinary relative path, as ~user/ is", () => {
    expect(resolveAgainst("~\\x", "/base", "/home/me")).toBe("/base/~\\x");
    expect(resolveAgainst("~/x", "/base", "/home/me")).toBe("/home/me/x");
  });
});

describe("resolveConfig: exact refusals", () => {
  test.each([
    [5, 'options must be an object with "roots", received number 5'],
    ["roots", 'options must be an object with "roots", received "roots"'],
    [null, 'options must be an object with "roots", received null'],
  ])("options %j", (options, message) => {
    expect(refusal(options)).toBe(message);
  });

  test.each([
    [null, 'roots[0] must be an object with a "path", received null'],
    [7, 'roots[0] must be an object with a "path", received number 7'],
    ["skills", 'roots[0] must be an object with a "path", received "skills"'],
  ])("a root %j", (root, message) => {
    expect(refusal({ roots: [root] })).toBe(message);
  });

  test.each([
    ["cwd", 5, 'option "cwd" must be a non-empty string, received number 5'],
    ["home", "", 'option "home" must be a non-empty string, received ""'],
    ["workspace", ["a"], 'option "workspace" must be a non-empty string, received an array'],
  ])("option %s %j", (key, value, message) => {
    expect(refusal({ roots: [{ path: "a" }], [key]: value })).toBe(message);
  });

  test("a workspace that cannot be stat'ed: the fs error is the cause", () => {
    const workspace = tempDir();
    const failure = Object.assign(new Error("I/O error"), { code: "EIO" });
    setFaultHook((op, p) => {
      if (op === "stat" && p === workspace) throw failure;
    });
    const e = startupError(() => resolveConfig({ roots: [{ path: "a" }], workspace }));
    expect(e.message).toBe(`option "workspace" ${JSON.stringify(workspace)} cannot be read (EIO)`);
    expect(e.cause).toBe(failure);
  });
});
