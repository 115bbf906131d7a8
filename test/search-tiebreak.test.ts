// Issue 9, leftover survivor of src/search.ts: the name tie-break when the sort meets the later name first.
// A lexical ranking arrives in array order, where the sort only ever asks whether a later skill goes
// before an earlier one; the fused ranking arrives in the lexical list's order, which can be the reverse.
import { expect, test } from "vitest";
import { type EmbedFunction, searchSkills } from "../src/index.js";
import { skillInfo as info } from "./helpers/fixture.js";

test("fused: equal scores go by name even when the lists met the later name first", async () => {
  // Lexically "alpha" ranks first (a shorter description), by similarity "zeta": each gets 1/61 + 1/62,
  // and the fused list starts from the lexical one, so the sort compares "zeta" (index 0) to "alpha".
  const skills = [info("zeta", "A glacier among the mountains."), info("alpha", "Glacier.")];
  const table: Record<string, number[]> = {
    "zeta: A glacier among the mountains.": [1, 0],
    "alpha: Glacier.": [0.8, 0.6],
    glacier: [1, 0],
  };
  const embed = (async (texts: string[]) => texts.map((t) => table[t] ?? [0, 0])) as EmbedFunction;
  expect(searchSkills(skills, "glacier").map((m) => m.skill.name)).toEqual(["alpha", "zeta"]);
  const got = await searchSkills(skills, "glacier", { embed });
  expect(got.map((m) => [m.skill.name, m.score])).toEqual([
    ["alpha", 1 / 61 + 1 / 62],
    ["zeta", 1 / 61 + 1 / 62],
  ]);
});
