// The catalog renderer at its edges: a null entry, empty descriptions under a budget, and a description
// one code point over the floor whose last character is cheap but whose first is dear to escape.
import { describe, expect, test } from "vitest";
import { renderCatalog, SkillError, searchSkills } from "../src/index.js";
import { MIN_DESCRIPTION } from "../src/render.js";
import { skillInfo as info } from "./helpers/fixture.js";

describe("bad input", () => {
  test("a null entry is invalid_input naming its place, not a TypeError", () => {
    let error: unknown;
    try {
      renderCatalog([info("a", "A."), null] as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).code).toBe("invalid_input");
    expect((error as SkillError).message).toBe("renderCatalog: skills[1].name must be a string");
  });

  // Audit F, findings 7 and 8: a hole was counted as an omitted skill; null options threw a TypeError.
  const holey = () => {
    const skills = new Array(2);
    skills[1] = info("a", "A.");
    return skills;
  };
  test.each([
    [() => renderCatalog(holey()), "renderCatalog: skills[0].name must be a string"],
    [() => renderCatalog([info("a", "A.")], null as never), "renderCatalog: options must be an object"],
    [() => searchSkills(holey(), "a"), "search: skills[0].name must be a string"],
  ])("%#: invalid_input", (run, message) => {
    expect(run).toThrow(new SkillError("invalid_input", message));
  });
});

describe("budget", () => {
  test("entries with empty descriptions are counted at their bare length (markdown has no `: `)", () => {
    const skills = [info("a", ""), info("b", ""), info("c", "")];
    const full = renderCatalog(skills, { format: "markdown" });
    expect(full.text).toBe(
      ["- a (`/skills/a/SKILL.md`)", "- b (`/skills/b/SKILL.md`)", "- c (`/skills/c/SKILL.md`)"].join("\n"),
    );
    // Exactly the text's length fits all three; one less drops the last.
    expect(renderCatalog(skills, { format: "markdown", budget: full.text.length })).toEqual(full);
    expect(renderCatalog(skills, { format: "markdown", budget: full.text.length - 1 })).toEqual({
      text: "- a (`/skills/a/SKILL.md`)\n- b (`/skills/b/SKILL.md`)",
      omitted: 1,
    });
  });

  test("a 61-point description whose cut would save nothing stays whole when the cap is below its length", () => {
    // Escaped, `&` is five characters: the whole text is 65 long and its 60-point floor plus `…` as
    // long, so cutting would only lose the last `y`. The other skill holds the cap at 61.
    const dear = `&${"y".repeat(MIN_DESCRIPTION)}`;
    const long = "x".repeat(100);
    const atFloor = renderCatalog([info("s", dear), info("t", `${"x".repeat(MIN_DESCRIPTION)}…`)], {
      format: "xml",
    });
    const shown = renderCatalog([info("s", dear), info("t", long)], {
      format: "xml",
      budget: atFloor.text.length,
    });
    expect(shown).toEqual(atFloor);
    expect(shown.text).toContain(`<description>&amp;${"y".repeat(MIN_DESCRIPTION)}</description>`);
  });
});
