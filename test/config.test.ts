import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { type AgentSkillsOptions, resolveAgainst, resolveConfig, StartupError } from "../src/index.js";
import { tempDir, writeTree } from "./helpers/fixture.js";

describe("resolveAgainst", () => {
  test.each([
    ["~", "/base", "/home/me", "/home/me"],
    ["~/x", "/base", "/home/me", "/home/me/x"],
    ["~/x/../y", "/base", "/home/me", "/home/me/y"],
    ["~user/x", "/base", "/home/me", "/base/~user/x"],
    ["rel/dir", "/base", "/home/me", "/base/rel/dir"],
    ["./a/../b", "/base", "/home/me", "/base/b"],
    ["/abs//x/./y/..", "/base", "/home/me", "/abs/x"],
    ["x~", "/base", "/home/me", "/base/x~"],
  ])("%s against %s (home %s) is %s", (p, base, home, expected) => {
    expect(resolveAgainst(p, base, home)).toBe(expected);
  });

  test("home defaults to os.homedir()", () => {
    expect(resolveAgainst("~/skills", "/base")).toBe(path.join(os.homedir(), "skills"));
  });
});

describe("resolveConfig: StartupError for unusable options", () => {
  const file = () => writeTree({ "f.txt": "x" });
  const cases: [string, () => unknown, RegExp][] = [
    ["options not an object", () => null, /options must be an object/],
    ["roots missing", () => ({}), /option "roots" must be an array, received undefined/],
    ["roots not an array", () => ({ roots: "skills" }), /option "roots" must be an array, received "skills"/],
    ["roots empty", () => ({ roots: [] }), /option "roots" is empty/],
    ["root not an object", () => ({ roots: ["skills"] }), /roots\[0\] must be an object/],
    [
      "path missing",
      () => ({ roots: [{}] }),
      /roots\[0\]\.path must be a non-empty string, received undefined/,
    ],
    [
      "path empty",
      () => ({ roots: [{ path: "a" }, { path: "" }] }),
      /roots\[1\]\.path must be a non-empty string, received ""/,
    ],
    [
      "path a number",
      () => ({ roots: [{ path: 7 }] }),
      /roots\[0\]\.path must be a non-empty string, received number 7/,
    ],
    [
      "scope unknown",
      () => ({ roots: [{ path: "a", scope: "global" }] }),
      /roots\[0\]\.scope must be "user" or "workspace", received "global"/,
    ],
    [
      "source not a string",
      () => ({ roots: [{ path: "a", source: 1 }] }),
      /roots\[0\]\.source must be a string/,
    ],
    [
      "workspace missing",
      () => ({ roots: [{ path: "a" }], workspace: path.join(tempDir(), "nope") }),
      /option "workspace" ".*nope" does not exist/,
    ],
    [
      "workspace a file",
      () => ({ roots: [{ path: "a" }], workspace: path.join(file(), "f.txt") }),
      /option "workspace" ".*f\.txt" is not a directory/,
    ],
    [
      "workspace empty",
      () => ({ roots: [{ path: "a" }], workspace: "" }),
      /option "workspace" must be a non-empty string/,
    ],
    [
      "strict not boolean",
      () => ({ roots: [{ path: "a" }], strict: "yes" }),
      /option "strict" must be a boolean, received "yes"/,
    ],
    [
      "followSymlinks not boolean",
      () => ({ roots: [{ path: "a" }], followSymlinks: 0 }),
      /option "followSymlinks" must be a boolean/,
    ],
  ];
  test.each(cases)("%s", (_, make, message) => {
    const run = () => resolveConfig(make() as AgentSkillsOptions);
    expect(run).toThrow(StartupError);
    expect(run).toThrow(message);
  });

  test("StartupError is named and an Error", () => {
    try {
      resolveConfig({ roots: [] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(StartupError);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).name).toBe("StartupError");
    }
  });

  test("a missing root is not an error", () => {
    const config = resolveConfig({ roots: [{ path: path.join(tempDir(), "missing") }] });
    expect(config.roots).toHaveLength(1);
  });
});

describe("resolveConfig: resolution", () => {
  test("roots resolve against the workspace, ~ against home, order and labels kept", () => {
    const ws = tempDir();
    const config = resolveConfig({
      roots: [
        { path: "~/.agents/skills", scope: "user", source: "agents" },
        { path: "local" },
        { path: "/abs/./skills/" },
      ],
      workspace: ws,
      home: "/home/me",
    });
    expect(config.roots).toEqual([
      { path: "/home/me/.agents/skills", scope: "user", source: "agents" },
      { path: path.join(ws, "local"), scope: "workspace", source: "" },
      { path: "/abs/skills", scope: "workspace", source: "" },
    ]);
    expect(config.workspace).toBe(ws);
    expect(config.home).toBe("/home/me");
    expect(config.strict).toBe(false);
    expect(config.followSymlinks).toBe(true);
  });

  test("relative workspace and home resolve against cwd; workspace defaults to cwd", () => {
    const cwd = writeTree({ "ws/.keep": "" });
    const config = resolveConfig({ roots: [{ path: "r" }], cwd, workspace: "ws", home: "h" });
    expect(config.workspace).toBe(path.join(cwd, "ws"));
    expect(config.home).toBe(path.join(cwd, "h"));
    expect(config.roots[0]?.path).toBe(path.join(cwd, "ws", "r"));
    const noWs = resolveConfig({ roots: [{ path: "r" }], cwd });
    expect(noWs.workspace).toBe(cwd);
    expect(noWs.roots[0]?.path).toBe(path.join(cwd, "r"));
  });

  test("defaults: cwd is process.cwd(), home is os.homedir()", () => {
    const config = resolveConfig({ roots: [{ path: "r" }] });
    expect(config.cwd).toBe(process.cwd());
    expect(config.home).toBe(os.homedir());
  });

  test("the config is deeply frozen and the caller's options are untouched", () => {
    const roots = [{ path: "~/x" }];
    const options = { roots, home: "/h", strict: true };
    const config = resolveConfig(options);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.roots)).toBe(true);
    expect(Object.isFrozen(config.roots[0])).toBe(true);
    expect(options).toEqual({ roots: [{ path: "~/x" }], home: "/h", strict: true });
    expect(roots[0]).toEqual({ path: "~/x" });
  });
});
