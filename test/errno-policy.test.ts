// The errno policy, decided once in fsx.ts: an fs error is known by its errno code and reported; an
// error without one (a bug, not the file system) propagates instead of reading as an unreadable file.
import * as path from "node:path";
import { afterEach, expect, test } from "vitest";
import { fsCode, setFaultHook } from "../src/fsx.js";
import { createAgentSkills, validateSkills } from "../src/index.js";
import { errnoError } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

test("fsCode gives errno codes and rethrows everything else", () => {
  expect(fsCode(errnoError("EACCES", "open", "/x"))).toBe("EACCES");
  const bug = new TypeError("x is not a function");
  expect(() => fsCode(bug)).toThrow(bug);
  const argError = Object.assign(new TypeError("bad path"), { code: "ERR_INVALID_ARG_TYPE" });
  expect(() => fsCode(argError)).toThrow(argError);
  expect(() => fsCode("string")).toThrow();
});

test.each(["readManifest", "readdir", "stat", "realpath"])(
  "a TypeError at %s propagates from discovery and loadSkill, an errno error is a warning",
  (op) => {
    const root = writeTree({
      "s/SKILL.md": skill("s"),
      "s/sub/f.txt": "f",
      "s/link": { symlink: "sub/f.txt" },
    });
    const skills = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
    const bug = new TypeError(`bug at ${op}`);
    setFaultHook((o) => {
      if (o === op) throw bug;
    });
    const run = () => {
      const s = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
      s.refresh();
      return s.loadSkill("s");
    };
    if (op === "readManifest" || op === "realpath") expect(run).toThrow(bug);
    else expect(() => skills.loadSkill("s")).toThrow(bug);
    setFaultHook((o, p) => {
      if (o === op && p.startsWith(path.join(root, "s"))) throw errnoError("EIO", o, p);
    });
    const content = createAgentSkills({ roots: [{ path: root }], onWarning: () => {} });
    const codes = [...content.warnings, ...(content.loadSkill("s")?.warnings ?? [])].map((w) => w.message);
    expect(codes.some((m) => m.includes("EIO"))).toBe(true);
  },
);

test("validateSkills lets a bug propagate too", () => {
  const root = writeTree({ "s/SKILL.md": skill("s") });
  const bug = new TypeError("bug");
  setFaultHook(() => {
    throw bug;
  });
  expect(() => validateSkills([root], { onWarning: () => {} })).toThrow(bug);
});
