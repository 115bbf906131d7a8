import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type CatalogFormat,
  createAgentSkills,
  renderCatalog,
  SkillError,
  type SkillInfo,
} from "../src/index.js";
import { MIN_DESCRIPTION } from "../src/render.js";
import { skillInfo as info, skill, writeTree } from "./helpers/fixture.js";

const TWO = [
  info("pdf", "Fill PDF forms & extract <tables>."),
  info("git-commit", `Write "good" commit messages; it's quick.`),
];

function errorOf(run: () => unknown): SkillError {
  try {
    run();
  } catch (e) {
    if (e instanceof SkillError) return e;
    throw e;
  }
  throw new Error("expected a SkillError");
}

describe("bad input", () => {
  test.each([
    [
      "skills not an array",
      () => renderCatalog("pdf" as never),
      "skills must be an array of SkillInfo, got string",
    ],
    [
      "an entry without a string description",
      () => renderCatalog([TWO[0], { ...TWO[1], description: 3 }] as never),
      "skills[1].description must be a string",
    ],
    [
      "an unknown format",
      () => renderCatalog(TWO, { format: "html" as never }),
      'option "format" must be "xml", "markdown" or "json", got "html"',
    ],
    [
      "a negative budget",
      () => renderCatalog(TWO, { budget: -1 }),
      'option "budget" must be a non-negative integer, got -1',
    ],
    ["a fractional budget", () => renderCatalog(TWO, { budget: 1.5 }), "got 1.5"],
    ["a NaN budget", () => renderCatalog(TWO, { budget: Number.NaN }), "got NaN"],
    ["a filter that is not a function", () => renderCatalog(TWO, { filter: true as never }), "got boolean"],
  ])("%s is invalid_input naming the value", (_, run, message) => {
    const error = errorOf(run);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(message);
    expect(error.message.startsWith("renderCatalog: ")).toBe(true);
  });
});

describe("formats", () => {
  test("xml is the <available_skills> element with name, description and location, escaped", () => {
    expect(renderCatalog(TWO)).toEqual({
      text: [
        "<available_skills>",
        "  <skill>",
        "    <name>pdf</name>",
        "    <description>Fill PDF forms &amp; extract &lt;tables&gt;.</description>",
        "    <location>/skills/pdf/SKILL.md</location>",
        "  </skill>",
        "  <skill>",
        "    <name>git-commit</name>",
        "    <description>Write &quot;good&quot; commit messages; it&apos;s quick.</description>",
        "    <location>/skills/git-commit/SKILL.md</location>",
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
      omitted: 0,
    });
  });

  test("markdown is one '- name: description (location)' line per skill; the path verbatim in a code span", () => {
    expect(renderCatalog(TWO, { format: "markdown" }).text).toBe(
      [
        "- pdf: Fill PDF forms \\& extract \\<tables\\>. (`/skills/pdf/SKILL.md`)",
        `- git-commit: Write "good" commit messages; it's quick. (\`/skills/git-commit/SKILL.md\`)`,
      ].join("\n"),
    );
  });

  test("json is an array of {name, description, location}, one object per line", () => {
    const { text } = renderCatalog(TWO, { format: "json" });
    expect(text).toBe(
      [
        "[",
        '  {"name":"pdf","description":"Fill PDF forms & extract <tables>.","location":"/skills/pdf/SKILL.md"},',
        '  {"name":"git-commit","description":"Write \\"good\\" commit messages; it\'s quick.","location":"/skills/git-commit/SKILL.md"}',
        "]",
      ].join("\n"),
    );
    expect(JSON.parse(text)[1].description).toBe(`Write "good" commit messages; it's quick.`);
  });

  test.each(["xml", "markdown", "json"] as const)(
    "%s: an empty catalog is the empty string, no wrapper",
    (format) => {
      expect(renderCatalog([], { format })).toEqual({ text: "", omitted: 0 });
      expect(renderCatalog(TWO, { format, filter: () => false })).toEqual({ text: "", omitted: 0 });
    },
  );

  test("the order given is the order rendered, and the result is frozen", () => {
    const result = renderCatalog([TWO[1], TWO[0]] as SkillInfo[], { format: "markdown" });
    expect(result.text.split("\n").map((line) => line.split(":")[0])).toEqual(["- git-commit", "- pdf"]);
    expect(Object.isFrozen(result)).toBe(true);
  });
});

describe("cleaning and escaping", () => {
  const dirty = info("a b", "one\u0000\u001b[31m two\r\n\tthree\u007f\u009b  \ud800four", {
    path: "/my skills/xy/SKILL.md",
  });

  test("in a description, control characters are stripped, white space folds to one line, a lone surrogate becomes U+FFFD", () => {
    const entry = JSON.parse(renderCatalog([dirty], { format: "json" }).text)[0];
    expect(entry).toEqual({
      name: "a b",
      description: "one[31m two three \ufffdfour",
      location: "/my skills/xy/SKILL.md",
    });
  });

  // Audit D, finding 8: "pdf\t" beside "pdf" rendered as a second "pdf"; the model's call by that name
  // loaded the other skill. A name is what the model calls a skill by, so it is never rewritten either.
  test.each(["xml", "markdown", "json"] as const)(
    "%s: a skill whose name cleaning would change is left out and counted, so no name shown leads elsewhere",
    (format) => {
      const skills = [
        info("pdf", "The real one."),
        info("pdf\t", "Tab."),
        info(" pdf", "Leading space."),
        info("pdf\u0000", "NUL."),
        info("p\u009bdf", "C1."),
        info("a  b", "Two spaces."),
        info("x\ud800", "Lone surrogate."),
      ];
      const result = renderCatalog(skills, { format });
      expect(result).toEqual({
        text: renderCatalog([info("pdf", "The real one.")], { format }).text,
        omitted: 6,
      });
      expect(renderCatalog(skills, { format, budget: 10_000 }).omitted).toBe(6);
      expect(renderCatalog(skills, { format, filter: (s) => s.name !== "pdf\t" }).omitted).toBe(5);
    },
  );

  // Issue 10, finding 11: "x\u0001y" used to render as "xy", and "..\u0001" as "..": another file.
  test.each(["xml", "markdown", "json"] as const)(
    "%s: a location is never rewritten; a skill whose path holds a control character or a lone surrogate is left out and counted",
    (format) => {
      const skills = [
        info("a", "A."),
        info("b", "B.", { path: "/skills/..\u0001/../SKILL.md" }),
        info("c", "C.", { path: "/skills/x\u009by/SKILL.md" }),
        info("d", "D.", { path: "/skills/\ud800/SKILL.md" }),
      ];
      const result = renderCatalog(skills, { format });
      expect(result).toEqual({ text: renderCatalog([info("a", "A.")], { format }).text, omitted: 3 });
      expect(renderCatalog(skills, { format, budget: 10_000 }).omitted).toBe(3);
      expect(renderCatalog(skills, { format, filter: (s) => s.name !== "b" }).omitted).toBe(2);
    },
  );

  test("xml escapes all five special characters in every field", () => {
    const text = renderCatalog([info(`<a&"'>`, `<b&"'>`, { path: `/<c&"'>/SKILL.md` })]).text;
    expect(text).toContain("<name>&lt;a&amp;&quot;&apos;&gt;</name>");
    expect(text).toContain("<description>&lt;b&amp;&quot;&apos;&gt;</description>");
    expect(text).toContain("<location>/&lt;c&amp;&quot;&apos;&gt;/SKILL.md</location>");
  });

  test("markdown escapes inline markup, a name that would start a block, and fences a path with backticks", () => {
    const skills = [
      info("# heading", "Use *bold*, _it_, `code`, [link](x), ~~gone~~ & \\ <b>", {
        path: "/a`b``c/SKILL.md",
      }),
      info("1. first", "x", { path: "`start/SKILL.md" }),
      info("-dash", "y", { path: "/p q/SKILL.md" }),
    ];
    expect(renderCatalog(skills, { format: "markdown" }).text).toBe(
      [
        "- \\# heading: Use \\*bold\\*, \\_it\\_, \\`code\\`, \\[link\\](x), \\~\\~gone\\~\\~ \\& \\\\ \\<b\\> (```/a`b``c/SKILL.md```)",
        "- 1\\. first: x (`` `start/SKILL.md ``)",
        "- \\-dash: y (`/p q/SKILL.md`)",
      ].join("\n"),
    );
  });
});

describe("budget", () => {
  const LONG =
    "Finds the slow queries in a Postgres log, explains each plan, and proposes the index that fixes it.";
  const pair = [info("a", "Short one."), info("b", LONG)];
  const line = (name: string, description: string) =>
    description === ""
      ? `- ${name} (\`/skills/${name}/SKILL.md\`)`
      : `- ${name}: ${description} (\`/skills/${name}/SKILL.md\`)`;
  const md = (budget: number) => renderCatalog(pair, { format: "markdown", budget });
  const full = `${line("a", "Short one.")}\n${line("b", LONG)}`;
  const floor = `${line("a", "Short one.")}\n${line("b", `${LONG.slice(0, MIN_DESCRIPTION)}…`)}`;

  test("a budget the text fits changes nothing", () => {
    expect(MIN_DESCRIPTION).toBe(60);
    expect(md(full.length)).toEqual({ text: full, omitted: 0 });
  });

  test("the longest description is shortened first, ending in …", () => {
    expect(md(full.length - 1).text).toBe(
      `${line("a", "Short one.")}\n${line("b", `${LONG.slice(0, LONG.length - 2)}…`)}`,
    );
    expect(md(full.length - 20).text).toBe(
      `${line("a", "Short one.")}\n${line("b", `${LONG.slice(0, LONG.length - 21)}…`)}`,
    );
  });

  test("a description is never cut below 60 characters: one under the floor drops a skill instead", () => {
    expect(md(floor.length)).toEqual({ text: floor, omitted: 0 });
    expect(md(floor.length - 1)).toEqual({ text: line("a", "Short one."), omitted: 1 });
    // Issue 11: it used to shorten every description down to one letter ("X…") before leaving any out.
    for (let budget = 0; budget <= full.length; budget++) {
      for (const e of md(budget)
        .text.split("\n")
        .filter((l) => l !== "")) {
        const description = /^- [ab]: (.*) \(`/.exec(e)?.[1] ?? "";
        expect(description === "Short one." || [...description].length >= MIN_DESCRIPTION).toBe(true);
      }
    }
  });

  test("a description a cut would not shorten is kept whole", () => {
    const d61 = "y".repeat(MIN_DESCRIPTION + 1);
    const bare = renderCatalog([info("s", "")], { format: "markdown" }).text.length;
    expect(renderCatalog([info("s", d61)], { format: "markdown", budget: bare + 63 })).toEqual({
      text: line("s", d61),
      omitted: 0,
    });
    expect(renderCatalog([info("s", d61)], { format: "markdown", budget: bare + 62 })).toEqual({
      text: "",
      omitted: 1,
    });
  });

  test("a space before the … is dropped, even at the floor", () => {
    const spaced = `${"x".repeat(MIN_DESCRIPTION - 1)} and more words after the sixtieth character`;
    const bare = renderCatalog([info("s", "")], { format: "markdown" }).text.length;
    const { text } = renderCatalog([info("s", spaced)], { format: "markdown", budget: bare + 62 });
    expect(text).toBe(line("s", `${"x".repeat(MIN_DESCRIPTION - 1)}…`));
  });

  test("when not even the floors fit, the later skill of the same scope is dropped and counted", () => {
    const alone = line("a", "Short one.");
    expect(md(alone.length)).toEqual({ text: alone, omitted: 1 });
    expect(md(alone.length - 1)).toEqual({ text: "", omitted: 2 });
    expect(md(0)).toEqual({ text: "", omitted: 2 });
  });

  test("user-scope skills are dropped before workspace ones, whatever their position", () => {
    const mixed = [
      info("u1", "x", { scope: "user" }),
      info("w1", "x"),
      info("u2", "x", { scope: "user" }),
      info("w2", "x"),
    ];
    const names = (budget: number) =>
      JSON.parse(renderCatalog(mixed, { format: "json", budget }).text || "[]").map(
        (e: { name: string }) => e.name,
      );
    const bare = renderCatalog([mixed[1] as SkillInfo], { format: "json" }).text.length;
    expect(names(bare)).toEqual(["w1"]);
    expect(names(bare * 2)).toEqual(["w1", "w2"]);
    expect(names(bare * 3)).toEqual(["u1", "w1", "w2"]);
  });

  test("an escape is never split: a shortened xml description ends on a whole entity", () => {
    const bare = renderCatalog([info("a", "")]).text.length;
    // 62 `&amp;` and the ellipsis take 311 characters; a 63rd entity would need 316.
    const { text } = renderCatalog([info("a", "&".repeat(70))], { budget: bare + 314 });
    expect(text).toContain(`<description>${"&amp;".repeat(62)}…</description>`);
    expect(text.length).toBe(bare + 311);
  });

  // Issue 10, finding 5: Math.max(...130,000 entries) threw RangeError.
  test("130,000 skills under a budget that keeps them all render without a stack overflow", () => {
    const many = Array.from({ length: 130_000 }, (_, i) => info(`s${i}`, "d"));
    const result = renderCatalog(many, { format: "markdown", budget: Number.MAX_SAFE_INTEGER });
    expect(result.omitted).toBe(0);
    expect(result.text.split("\n").at(-1)).toBe("- s129999: d (`/skills/s129999/SKILL.md`)");
  });
});

describe("filter", () => {
  test("hides the skills whose frontmatter has disable-model-invocation: true, loaded from real files", () => {
    const root = writeTree({
      "deploy/SKILL.md": skill("deploy", "Ship it.", "disable-model-invocation: true"),
      "pdf/SKILL.md": skill("pdf", "Read PDFs."),
    });
    const skills = createAgentSkills({ roots: [{ path: root }] }).listSkills();
    const { text, omitted } = renderCatalog(skills, {
      format: "markdown",
      filter: (s) => s.metadata["disable-model-invocation"] !== true,
    });
    expect(text).toBe(`- pdf: Read PDFs. (\`${root}/pdf/SKILL.md\`)`);
    expect(omitted).toBe(0);
  });
});

describe("budget properties", () => {
  const unit = fc.constantFrom("a", "b", " ", "<", "&", '"', "\\", "`", "*", "é", "😀", "\n", "\u0000");
  // Names that cleaning leaves as they are: any other leaves the skill out (tested above).
  const name = fc.string({ unit: fc.constantFrom("a", "b", "<", "&", '"', "\\", "`", "*", "é", "😀") });
  const catalog = fc.array(
    fc
      .record({
        name,
        // Half of the descriptions are long enough to be cut (over 60 code points), or no cut is checked.
        description: fc.oneof(
          fc.string({ unit, maxLength: 90 }),
          fc.string({ unit, minLength: 61, maxLength: 400 }),
        ),
        user: fc.boolean(),
      })
      .map(({ name, description, user }) =>
        // The path is fixed: a control character in it leaves the skill out (tested above).
        info(name, description, { scope: user ? "user" : "workspace", path: "/skills/s/SKILL.md" }),
      ),
    { maxLength: 8 },
  );
  const format = fc.constantFrom<CatalogFormat>("xml", "markdown", "json");
  const budget = fc.nat({ max: 2400 });
  const runs = { seed: 20240611, numRuns: 400 };
  const points = (s: string) => [...s.replaceAll("\u0000", "").replace(/\s+/g, " ").trim()];
  /** Each description at its floor: its first 60 characters and …, a space before the … dropped. */
  const floorLength = (skills: readonly SkillInfo[], f: CatalogFormat) =>
    renderCatalog(
      skills.map((s) => {
        const p = points(s.description);
        if (p.length <= MIN_DESCRIPTION) return s;
        const keep = p[MIN_DESCRIPTION - 1] === " " ? MIN_DESCRIPTION - 1 : MIN_DESCRIPTION;
        const floor = { ...s, description: `${p.slice(0, keep).join("")}…` };
        // A cut that saves nothing is not made.
        const length = (x: SkillInfo) => renderCatalog([x], { format: f }).text.length;
        return length(s) <= length(floor) ? s : floor;
      }),
      { format: f },
    ).text.length;

  test("the text is never over budget, and when the floors fit nothing is omitted", () => {
    fc.assert(
      fc.property(catalog, format, budget, (skills, f, b) => {
        const result = renderCatalog(skills, { format: f, budget: b });
        expect(result.text.length).toBeLessThanOrEqual(b);
        if (floorLength(skills, f) <= b) expect(result.omitted).toBe(0);
        else expect(result.omitted).toBeGreaterThan(0);
      }),
      runs,
    );
  });

  test("every name is kept (in order), and a shortened description keeps at least 59 characters and ends in …", () => {
    let checked = 0;
    let cuts = 0;
    fc.assert(
      // Half of the budgets are drawn between the floors' length and the whole text's, where cuts are made.
      fc.property(catalog, budget, fc.option(fc.nat({ max: 1000 })), (skills, any, between) => {
        const text = renderCatalog(skills, { format: "json" }).text;
        const floor = floorLength(skills, "json");
        const b =
          between === null ? any : floor + Math.floor((between * Math.max(0, text.length - floor)) / 1000);
        const whole: { name: string; description: string }[] = JSON.parse(text || "[]");
        const result = renderCatalog(skills, { format: "json", budget: b });
        const shown: { name: string; description: string }[] = JSON.parse(result.text || "[]");
        if (floor > b) return;
        checked++;
        expect(shown.map((e) => e.name)).toEqual(whole.map((e) => e.name));
        const pairs = whole.map((e, i) => ({ full: e.description, out: shown[i]?.description ?? "" }));
        const escaped = (s: string) => JSON.stringify(s).length;
        const kept = pairs
          .filter((p) => p.out === p.full && [...p.full].length > MIN_DESCRIPTION)
          .map((p) => escaped(p.full));
        for (const { full, out } of pairs.filter((p) => p.out !== p.full)) {
          cuts++;
          expect(out.endsWith("…") && full.startsWith(out.slice(0, -1))).toBe(true);
          expect([...out].length).toBeGreaterThanOrEqual(MIN_DESCRIPTION);
          for (const k of kept) expect(k).toBeLessThan(escaped(full));
        }
      }),
      runs,
    );
    // The generator must reach the shortening often, or the property proves nothing about it.
    expect(checked).toBeGreaterThan(300);
    expect(cuts).toBeGreaterThan(200);
  });

  test("rendering is deterministic", () => {
    fc.assert(
      fc.property(catalog, format, budget, (skills, f, b) => {
        expect(renderCatalog(skills, { format: f, budget: b })).toEqual(
          renderCatalog(skills, { format: f, budget: b }),
        );
      }),
      runs,
    );
  });
});
