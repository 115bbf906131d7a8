import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type CatalogFormat,
  createAgentSkills,
  renderCatalog,
  SkillError,
  type SkillInfo,
} from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

/** A catalog entry as listSkills() would give it, under the fixed root `/skills`. */
function info(name: string, description: string, extra: Partial<SkillInfo> = {}): SkillInfo {
  const dir = `/skills/${name}`;
  return {
    name,
    description,
    metadata: { name, description },
    userInvocable: true,
    scope: "workspace",
    source: "",
    root: "/skills",
    dir,
    path: `${dir}/SKILL.md`,
    ...extra,
  };
}

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
  const dirty = info("a\u0007b", "one\u0000\u001b[31m two\r\n\tthree\u007f\u009b  \ud800four", {
    path: "/my skills/x\u0000y/SKILL.md",
  });

  test("control characters are stripped, white space folds to one line, a lone surrogate becomes U+FFFD", () => {
    const entry = JSON.parse(renderCatalog([dirty], { format: "json" }).text)[0];
    expect(entry).toEqual({
      name: "ab",
      description: "one[31m two three \ufffdfour",
      location: "/my skills/xy/SKILL.md",
    });
  });

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
  const pair = [info("a", "Short one."), info("b", "A much longer description than the other one.")];
  const line = (name: string, description: string) =>
    description === ""
      ? `- ${name} (\`/skills/${name}/SKILL.md\`)`
      : `- ${name}: ${description} (\`/skills/${name}/SKILL.md\`)`;
  const md = (budget: number) => renderCatalog(pair, { format: "markdown", budget });
  const full = `${line("a", "Short one.")}\n${line("b", "A much longer description than the other one.")}`;

  test("a budget the text fits changes nothing", () => {
    expect(md(full.length)).toEqual({ text: full, omitted: 0 });
  });

  test("the longest description is shortened first, ending in …", () => {
    expect(md(full.length - 1).text).toBe(
      `${line("a", "Short one.")}\n${line("b", "A much longer description than the other on…")}`,
    );
    expect(md(full.length - 20).text).toBe(
      `${line("a", "Short one.")}\n${line("b", "A much longer descriptio…")}`,
    );
  });

  test("once they meet, both are cut to the same length, and a trailing space is not kept before …", () => {
    expect(md(72).text).toBe(`${line("a", "Short o…")}\n${line("b", "A much…")}`);
    expect(md(59)).toEqual({ text: `${line("a", "…")}\n${line("b", "…")}`, omitted: 0 });
  });

  test("when even the names do not fit, the later skill of the same scope is dropped and counted", () => {
    expect(md(30)).toEqual({ text: line("a", "S…"), omitted: 1 });
    expect(md(26)).toEqual({ text: line("a", ""), omitted: 1 });
    expect(md(25)).toEqual({ text: "", omitted: 2 });
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
    // 13 characters hold two `&amp;` and the ellipsis; a third entity would need 16.
    const { text } = renderCatalog([info("a", "&&&&&&&&")], { budget: bare + 13 });
    expect(text).toContain("<description>&amp;&amp;…</description>");
    expect(text.length).toBe(bare + 11);
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
  const text = fc.string({
    unit: fc.constantFrom("a", "b", " ", "<", "&", '"', "\\", "`", "*", "é", "😀", "\n", "\u0000"),
  });
  const catalog = fc.array(
    fc
      .record({ name: text, description: text, user: fc.boolean() })
      .map(({ name, description, user }) => info(name, description, { scope: user ? "user" : "workspace" })),
    { maxLength: 8 },
  );
  const format = fc.constantFrom<CatalogFormat>("xml", "markdown", "json");
  const budget = fc.nat({ max: 1200 });
  const runs = { seed: 20240611, numRuns: 400 };
  const bareLength = (skills: readonly SkillInfo[], f: CatalogFormat) =>
    renderCatalog(
      skills.map((s) => ({ ...s, description: "" })),
      { format: f },
    ).text.length;

  test("the text is never over budget, and when the names fit nothing is omitted", () => {
    fc.assert(
      fc.property(catalog, format, budget, (skills, f, b) => {
        const result = renderCatalog(skills, { format: f, budget: b });
        expect(result.text.length).toBeLessThanOrEqual(b);
        if (bareLength(skills, f) <= b) expect(result.omitted).toBe(0);
        else expect(result.omitted).toBeGreaterThan(0);
      }),
      runs,
    );
  });

  test("every name is kept (in order), and a shortened description was longer than any kept whole", () => {
    fc.assert(
      fc.property(catalog, budget, (skills, b) => {
        const whole: { name: string; description: string }[] = JSON.parse(
          renderCatalog(skills, { format: "json" }).text || "[]",
        );
        const result = renderCatalog(skills, { format: "json", budget: b });
        const shown: { name: string; description: string }[] = JSON.parse(result.text || "[]");
        if (bareLength(skills, "json") > b) return;
        expect(shown.map((e) => e.name)).toEqual(whole.map((e) => e.name));
        const pairs = whole.map((e, i) => ({ full: e.description, out: shown[i]?.description ?? "" }));
        const escaped = (s: string) => JSON.stringify(s).length;
        const kept = pairs.filter((p) => p.out === p.full).map((p) => escaped(p.full));
        const cut = pairs.filter((p) => p.out !== p.full);
        for (const { full, out } of cut) {
          expect(out === "" || (out.endsWith("…") && full.startsWith(out.slice(0, -1)))).toBe(true);
          expect(Math.max(0, ...kept)).toBeLessThan(escaped(full));
        }
      }),
      runs,
    );
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
