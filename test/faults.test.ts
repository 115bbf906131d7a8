// Injected errno faults at every fs call site, a real unprivileged run, and files changing mid-scan.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { lstatSync, setFaultHook, statSync } from "../src/fsx.js";
import { createAgentSkills, SkillError, type SkillWarning, setWarnSink } from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

afterEach(() => {
  setFaultHook(null);
  setWarnSink(null);
});

function errnoError(code: string, op: string, p: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: injected fault, ${op} '${p}'`);
  e.code = code;
  e.syscall = op;
  e.path = p;
  return e;
}

/** Throw `code` from every fs call `op` on `p`. */
function failAt(op: string, p: string, code: string): void {
  setFaultHook((o, q) => {
    if (o === op && q === p) throw errnoError(code, o, q);
  });
}

describe("the fault seam", () => {
  test.each([
    ["stat", statSync],
    ["lstat", lstatSync],
  ] as const)("an injected fault at %s takes the same path as a real one", (op, call) => {
    const file = path.join(writeTree({ "f.txt": "x" }), "f.txt");
    failAt(op, file, "ENOTDIR");
    expect(call(file)).toBeUndefined();
    failAt(op, file, "EIO");
    expect(() => call(file)).toThrow(expect.objectContaining({ code: "EIO", path: file }));
  });
});

describe("resources when the file system fails", () => {
  const tree = () =>
    writeTree({ "s/SKILL.md": skill("s"), "s/a.txt": "a", "s/link.txt": { symlink: "a.txt" } });

  test.each([
    ["stat", true],
    ["lstat", false],
  ] as const)(
    "resourcePath: an error at %s of the target is not_found naming the path and errno",
    (op, follow) => {
      const root = tree();
      const skills = createAgentSkills({ roots: [{ path: root }], followSymlinks: follow });
      const file = path.join(root, "s", "a.txt");
      failAt(op, file, "EIO");
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(
        expect.objectContaining({
          name: "SkillError",
          code: "not_found",
          message: expect.stringContaining(file),
        }),
      );
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(/\(EIO\)/);
      failAt(op, file, "ENOTDIR");
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(SkillError);
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(`does not exist: ${file}`);
    },
  );

  test.each([
    ["EIO", "cannot be read (EIO)"],
    ["ENOTDIR", "does not exist"],
  ])("loadSkill: a symlink whose target fails at stat with %s is left out with a warning", (code, words) => {
    const root = tree();
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const warnings: SkillWarning[] = [];
    setWarnSink((w) => warnings.push(w));
    failAt("stat", path.join(root, "s", "a.txt"), code);
    expect(skills.loadSkill("s")?.resources).toEqual(["a.txt"]);
    const link = path.join(root, "s", "link.txt");
    expect(warnings).toEqual([
      {
        code: "resource_skipped",
        message: `symlink ${link}: its target ${path.join(root, "s", "a.txt")} ${words}; not listed`,
        path: link,
        skill: "s",
      },
    ]);
  });
});
