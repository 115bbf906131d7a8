// Options checking at its edges: the exact StartupError (message and cause) for each kind of wrong
// value, and `~\` on a system whose separator is `/`.
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { startsAtHome } from "../src/config.js";
import { setFaultHook } from "../src/fsx.js";
import {
  type AgentSkillsOptions,
  resolveAgainst,
  resolveConfig,
  StartupError,
  validateSkills,
} from "../src/index.js";
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

/** The built package, as a child process imports it (npm test builds first). */
const DIST = pathToFileURL(path.resolve(import.meta.dirname, "../dist/index.js")).href;

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

  // Audit H, finding 8: an empty path, base or (where `~` needs it) home silently meant process.cwd().
  test("resolveAgainst refuses an empty path, base, or home where ~ needs it", () => {
    expect(startupError(() => resolveAgainst("", "/b")).message).toBe(
      "resolveAgainst: path must not be empty",
    );
    expect(startupError(() => resolveAgainst("x", "")).message).toBe(
      "resolveAgainst: base must not be empty",
    );
    expect(startupError(() => resolveAgainst("~/x", "/b", "")).message).toBe(
      'resolveAgainst: "~/x" needs a home, and home is empty',
    );
    expect(resolveAgainst("x", "/b", "")).toBe("/b/x");
  });

  test("validateSkills: a hole in paths is refused like an undefined path", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    expect(startupError(() => validateSkills([, "/tmp"] as never)).message).toBe(
      "roots[0].path must be a non-empty string, received undefined",
    );
  });

  // Audit H, finding 1: roots.map skipped the hole, and discovery then threw a TypeError.
  test("a hole in roots is refused like an undefined root", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    expect(refusal({ roots: [, { path: "/tmp" }] })).toBe(
      'roots[0] must be an object with a "path", received undefined',
    );
  });

  // Audit H, finding 3: a NUL byte got through, and discovery threw Node's ERR_INVALID_ARG_VALUE.
  test.each([
    [{ roots: [{ path: "a\0b" }] }, 'roots[0].path must not hold a NUL byte, received "a\\u0000b"'],
    [{ roots: [{ path: "a" }], cwd: "/t\0" }, 'option "cwd" must not hold a NUL byte, received "/t\\u0000"'],
    [
      { roots: [{ path: "a" }], home: "/h\0" },
      'option "home" must not hold a NUL byte, received "/h\\u0000"',
    ],
    [
      { roots: [{ path: "a" }], workspace: "/w\0" },
      'option "workspace" must not hold a NUL byte, received "/w\\u0000"',
    ],
  ])("a NUL byte in a path option: %j", (options, message) => {
    expect(refusal(options)).toBe(message);
  });

  // Audit H, finding 2: the default home, unlike the option, was not resolved against cwd. os.homedir()
  // reads the process's real environment, which a test worker thread cannot set: a child process can.
  test("a relative home from os.homedir() resolves against cwd, as the option does; an empty one is refused where ~ needs it", () => {
    const script = `
      const { resolveConfig, clarvisSkillRoots } = await import(${JSON.stringify(DIST)});
      const out = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
      console.log(JSON.stringify([
        out(() => resolveConfig({ roots: [{ path: "~/r" }], cwd: "/c" }).roots[0].path),
        out(() => resolveConfig({ roots: [{ path: "r" }], cwd: "/c" }).roots[0].path),
        out(() => clarvisSkillRoots({ workspace: "/w", cwd: "/c" })[0].path),
        out(() => clarvisSkillRoots({ workspace: "/w", home: "/h" })[0].path),
      ]));`;
    const withHome = (home: string) =>
      JSON.parse(
        execFileSync(process.execPath, ["--input-type=module", "-e", script], {
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "", HOME: home },
        }),
      );
    expect(withHome("relhome")).toEqual([
      "/c/relhome/r",
      "/c/r",
      "/c/relhome/.agents/skills",
      "/h/.agents/skills",
    ]);
    expect(withHome("")).toEqual([
      'StartupError: roots[0].path "~/r" needs the home directory, which is unknown (os.homedir() is empty): pass the "home" option',
      "/c/r",
      'StartupError: the home directory is unknown (os.homedir() is empty): pass "home"',
      "/h/.agents/skills",
    ]);
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
