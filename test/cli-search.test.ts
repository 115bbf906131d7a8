// `agent-skills search QUERY [--limit N] [--json]`: usage errors first, then the table and the JSON.
import { describe, expect, test } from "vitest";
import { run } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

const root = () =>
  writeTree({
    "pdf/SKILL.md": skill("pdf", "Extract text and tables from PDF files."),
    "pdf-merge/SKILL.md": skill("pdf-merge", "Merge several PDF files into one."),
    "slides/SKILL.md": skill("slides", "Build a PowerPoint deck from an outline."),
  });

describe("usage errors exit 2", () => {
  test.each([
    [["search"], "error: search takes 1 argument, received 0"],
    [["search", "pdf", "--limit", "0"], 'error: --limit must be a positive integer, received "0"'],
    [["search", "pdf", "--limit", "two"], 'error: --limit must be a positive integer, received "two"'],
    // Decimal digits only, as for --budget (audit F, finding 9: these were taken as 2, 1 and 3).
    [["search", "pdf", "--limit", "0x2"], 'error: --limit must be a positive integer, received "0x2"'],
    [["search", "pdf", "--limit", "1e0"], 'error: --limit must be a positive integer, received "1e0"'],
    [["search", "pdf", "--limit", " 3"], 'error: --limit must be a positive integer, received " 3"'],
    [["list", "--limit", "3"], "error: --limit applies to search only"],
  ])("%o", (argv, message) => {
    const { code, out, err } = run([...argv, "--root", root()]);
    expect([code, out]).toEqual([2, ""]);
    expect(err.split("\n")[0]).toBe(message);
  });
});

describe("search", () => {
  test("prints score, name and description, best first, then a count", () => {
    const { code, out, err } = run(["search", "merge pdf files", "--root", root()]);
    expect([code, err]).toEqual([0, ""]);
    const lines = out.split("\n");
    expect(lines[0]).toBe("SCORE  NAME       DESCRIPTION");
    expect(lines.slice(1, -2).map((l) => l.split(/\s+/)[1])).toEqual(["pdf-merge", "pdf"]);
    expect(lines[1]).toMatch(/^0\.\d{3} {2}pdf-merge {2}Merge several PDF files into one\.$/);
    expect(lines.at(-2)).toBe("2 skills, best first");
  });

  test("--limit caps the list, best first; --json prints the matches", () => {
    const dir = root();
    writeTree(
      {
        "pdf-split/SKILL.md": skill("pdf-split", "Split PDF files into pages."),
        "pdf-fill/SKILL.md": skill("pdf-fill", "Fill in PDF forms."),
      },
      dir,
    );
    const names = (limit: string) => {
      const { code, out, err } = run(["search", "pdf files", "--limit", limit, "--json", "--root", dir]);
      expect([code, err]).toEqual([0, ""]);
      const matches = JSON.parse(out) as { skill: { name: string }; score: number }[];
      for (const m of matches) expect(m.score).toBeGreaterThan(0);
      return matches.map((m) => m.skill.name);
    };
    // More digits than one are a number too; 12 is more than the four matches, so all are printed.
    const all = names("12");
    expect(all).toEqual(["pdf-merge", "pdf-split", "pdf", "pdf-fill"]);
    expect(names("2")).toEqual(all.slice(0, 2));
    expect(names("1")).toEqual(all.slice(0, 1));
  });

  test("on a terminal the description is cut to its width; the scan's warnings go to stderr", () => {
    const dir = root();
    writeTree({ "broken/SKILL.md": "no frontmatter" }, dir);
    const { code, out, err } = run(["search", "merge pdf files", "--limit", "1", "--root", dir], {
      stdoutIsTTY: true,
      columns: 40,
      env: { NO_COLOR: "1" },
    });
    expect(code).toBe(0);
    expect(out.split("\n")).toEqual([
      "SCORE  NAME       DESCRIPTION",
      "0.556  pdf-merge  Merge several PDF fil…",
      "1 skill, best first",
      "",
    ]);
    expect(err).toMatch(/^warning: invalid_skill: /);
  });

  test("a request no skill serves says so and still exits 0", () => {
    expect(run(["search", "knit a winter scarf", "--root", root()])).toEqual({
      code: 0,
      out: "no skill fits this request\n",
      err: "",
    });
  });
});
