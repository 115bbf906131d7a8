// The root presets' option checks: the exact StartupError for each kind of wrong value, and the cause
// kept when reading an option throws.
import { describe, expect, test } from "vitest";
import {
  agentsSkillRoots,
  clarvisSkillRoots,
  claudeSkillRoots,
  type PresetOptions,
  StartupError,
} from "../src/index.js";

/** The StartupError `preset(opts)` throws. */
function startupError(preset: (o?: PresetOptions) => unknown, opts: unknown): StartupError {
  try {
    preset(opts as PresetOptions);
  } catch (e) {
    if (e instanceof StartupError) return e;
    throw e;
  }
  throw new Error("no StartupError thrown");
}

describe.each([
  ["clarvis", clarvisSkillRoots],
  ["agents", agentsSkillRoots],
  ["claude", claudeSkillRoots],
])("%sSkillRoots", (_, preset) => {
  test.each([
    [null, "preset options must be an object, received null"],
    [5, "preset options must be an object, received number 5"],
    ["/ws", 'preset options must be an object, received "/ws"'],
  ])("options %j", (opts, message) => {
    expect(startupError(preset, opts).message).toBe(message);
  });

  test.each([
    [
      { workspace: 5 },
      'preset option "workspace" must be a non-empty string without NUL bytes, received number 5',
    ],
    [{ cwd: "" }, 'preset option "cwd" must be a non-empty string without NUL bytes, received ""'],
    [{ home: "" }, 'preset option "home" must be a non-empty string without NUL bytes, received ""'],
    [{ home: null }, 'preset option "home" must be a non-empty string without NUL bytes, received null'],
    // Audit H, finding 3: a NUL byte got through to discovery, which threw Node's own TypeError.
    [
      { workspace: "/w\0" },
      'preset option "workspace" must be a non-empty string without NUL bytes, received "/w\\u0000"',
    ],
  ])("%j", (opts, message) => {
    expect(startupError(preset, opts).message).toBe(message);
  });

  // Audit H, finding 2 (an empty os.homedir() without the home option): test/config-edges.test.ts, in a child process.

  test("non-empty strings are accepted: user roots under home, workspace roots under the workspace", () => {
    for (const root of preset({ workspace: "ws", cwd: "/c", home: "/h" })) {
      expect(root.path.startsWith(root.scope === "user" ? "/h/." : "/c/ws/.")).toBe(true);
    }
  });

  test("an option whose read throws: named, with the thrown error as the cause", () => {
    const thrown = new Error("no reading");
    const opts = new Proxy(
      {},
      {
        get(_t, key) {
          if (key === "cwd") throw thrown;
          return undefined;
        },
      },
    );
    const e = startupError(preset, opts);
    expect(e.message).toBe('preset option "cwd" cannot be read: no reading');
    expect(e.cause).toBe(thrown);
  });
});
