// A warning's shape: `path` and `skill` are keys only when given (a consumer's JSON or `in` check sees that).
import { expect, test } from "vitest";
import { warning } from "../src/warnings.js";

test("a warning without a path or skill has no such keys", () => {
  const w = warning("unreadable", "cannot read");
  expect(Object.keys(w)).toEqual(["code", "message"]);
  expect(JSON.stringify(w)).toBe('{"code":"unreadable","message":"cannot read"}');
});

test("path and skill are kept exactly when given", () => {
  expect(warning("unreadable", "m", "/r/s/SKILL.md", "s")).toStrictEqual({
    code: "unreadable",
    message: "m",
    path: "/r/s/SKILL.md",
    skill: "s",
  });
  expect(Object.keys(warning("unreadable", "m", undefined, "s"))).toEqual(["code", "message", "skill"]);
  expect(Object.keys(warning("unreadable", "m", "/p"))).toEqual(["code", "message", "path"]);
});
