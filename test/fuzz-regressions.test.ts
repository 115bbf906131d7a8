// Inputs that fuzzing found to hang or break the library, kept as fixed cases; each runs in a time box.
import { expect, test } from "vitest";
import { repairYaml } from "../src/frontmatter.js";
import { timeBoxed } from "./helpers/timebox.js";

test("repair stays linear on a line with a long run of blanks (it backtracked quadratically: minutes on 1 MiB)", () => {
  const blanks = " \t".repeat(500_000);
  const text = `description: use: it\nz: q${blanks}w\n`;
  expect(timeBoxed("repairYaml, 1 MiB of blanks", () => repairYaml(text))).toBe(
    `description: "use: it"\nz: q${blanks}w\n`,
  );
});
