import { expect, test } from "vitest";
import { createAgentSkills } from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

test("a root with one skill lists it", () => {
  const root = writeTree({ "pdf/SKILL.md": skill("pdf") });
  expect(
    createAgentSkills({ roots: [{ path: root }] })
      .listSkills()
      .map((s) => s.name),
  ).toEqual(["pdf"]);
});
