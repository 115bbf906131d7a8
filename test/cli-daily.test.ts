// Issue 11 through the real bin on real folders: catalog, roots, where it looked, hints, --json errors,
// exit codes behind a closed pipe, widths; and issue 10's findings 3 and 5 in the CLI.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { table } from "../src/cli/commands.js";
import { cut, outputWidth, widthOf } from "../src/cli/text.js";
import { setFaultHook } from "../src/fsx.js";
import { createAgentSkills, renderCatalog } from "../src/index.js";
import { EXAMPLE, REPO, run } from "./helpers/cli.js";
import { manifest, skill, tempDir, writeTree } from "./helpers/fixture.js";

const BIN = path.join(REPO, "dist/cli/bin.js");
const BROKEN_WARNING =
  'warning: invalid_skill: examples/workspace/.clarvis/skills/broken/SKILL.md:4:1: invalid YAML: Missing closing "quote; skipped\n';

/** The built bin, as npm links it, from the repository root with a bare environment. */
function bin(argv: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...argv], {
    cwd: REPO,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A shell pipeline under pipefail, as a CI script runs it. */
function pipeline(command: string) {
  const r = spawnSync("bash", ["-o", "pipefail", "-c", command], { cwd: REPO, encoding: "utf8" });
  return { code: r.status, out: r.stdout };
}

const exampleSkills = () =>
  createAgentSkills({
    cwd: REPO,
    workspace: path.join(REPO, "examples/workspace"),
    home: path.join(REPO, "examples/home"),
    roots: [
      { path: path.join(REPO, "examples/home/.agents/skills"), scope: "user", source: "agents" },
      { path: path.join(REPO, "examples/workspace/.agents/skills"), scope: "workspace", source: "agents" },
      { path: path.join(REPO, "examples/home/.clarvis/skills"), scope: "user", source: "clarvis" },
      { path: path.join(REPO, "examples/workspace/.clarvis/skills"), scope: "workspace", source: "clarvis" },
    ],
  }).listSkills();

describe("catalog", () => {
  test("prints exactly renderCatalog(listSkills()).text and a newline, warnings on stderr", () => {
    expect(bin(["catalog", ...EXAMPLE])).toEqual({
      code: 0,
      out: `${renderCatalog(exampleSkills()).text}\n`,
      err: BROKEN_WARNING,
    });
  });

  /**
   * A budget that holds changelog's line and the longer of git-commit's and pdf's, but not a third:
   * locations count toward a budget, so a fixed number would depend on where the repository lies.
   */
  const twoLines = () => {
    const lines = renderCatalog(exampleSkills(), { format: "markdown" }).text.split("\n");
    const line = (name: string) => (lines.find((l) => l.startsWith(`- ${name}:`)) ?? "").length;
    return line("changelog") + 1 + Math.max(line("git-commit"), line("pdf"));
  };

  test("--format and --budget are renderCatalog's; what was left out is counted on stderr", () => {
    const budget = twoLines();
    const expected = renderCatalog(exampleSkills(), { format: "markdown", budget });
    expect(expected.omitted).toBe(2);
    expect(run(["catalog", "--format", "markdown", "--budget", String(budget), ...EXAMPLE])).toEqual({
      code: 0,
      out: `${expected.text}\n`,
      err: `${BROKEN_WARNING}note: 2 skills of 4 left out (over the budget, or a name or location that cannot be shown as it is)\n`,
    });
  });

  // Audit G, finding 5: without a budget the note blamed the budget, and did not say that a name counts.
  test("without --budget, the note names the one reason left: a name or location that cannot be shown", () => {
    const root = writeTree({
      "a/SKILL.md": skill("pdf"),
      "b/SKILL.md": manifest('name: "pdf\\t"\ndescription: Tab.'),
    });
    const { code, err } = run(["catalog", "--root", root]);
    expect([code, err.split("\n").at(-2)]).toEqual([
      0,
      "note: 1 skill of 2 left out (a name or location that cannot be shown as it is)",
    ]);
  });

  test("--query keeps the skills most relevant to it when the budget cannot hold all", () => {
    const query = "extract tables from pdf";
    const budget = twoLines();
    const ranked = renderCatalog(exampleSkills(), { format: "markdown", budget, query });
    // Without the query the budget keeps changelog and git-commit; with it, pdf takes git-commit's place.
    expect(renderCatalog(exampleSkills(), { format: "markdown", budget }).text).toContain("- git-commit:");
    expect(ranked.text).toContain("- pdf:");
    expect(ranked.text).not.toContain("- git-commit:");
    const args = ["catalog", "--format", "markdown", "--budget", String(budget), "--query", query];
    expect(run([...args, ...EXAMPLE])).toEqual({
      code: 0,
      out: `${ranked.text}\n`,
      err: `${BROKEN_WARNING}note: 2 skills of 4 left out (over the budget, or a name or location that cannot be shown as it is)\n`,
    });
    expect(run(["list", "--query", "x", ...EXAMPLE])).toEqual({
      code: 2,
      out: "",
      err: "error: --query is not an option of list\nusage: agent-skills <command> [args] [options]   (agent-skills help [command])\n",
    });
  });

  test("--json gives { text, omitted }; an empty catalog prints nothing and says where it looked", () => {
    const { code, out } = run(["catalog", "--json", "--format", "json", ...EXAMPLE]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      text: renderCatalog(exampleSkills(), { format: "json" }).text,
      omitted: 0,
    });
    const empty = tempDir();
    expect(run(["catalog", "--root", empty])).toEqual({
      code: 0,
      out: "",
      err: `note: no skill found in these roots (agent-skills roots shows them; --root PATH adds one):\n  0  workspace  -       ok, 0 skills  ${empty}\n`,
    });
  });

  test.each([
    [["catalog", "--format", "html"], '--format must be xml, markdown or json, received "html"'],
    [["catalog", "--budget=-1"], '--budget must be a non-negative integer, received "-1"'],
    [["catalog", "--budget", "1e3"], '--budget must be a non-negative integer, received "1e3"'],
    [["list", "--budget", "10"], "--budget is not an option of list"],
    [["list", "--target", "claude"], "--target is not an option of list"],
    [["validate", "--wide"], "--wide is not an option of validate"],
    [["validate", "--target", "cursor"], '--target must be agentskills, claude or codex, received "cursor"'],
  ])("%j is a usage error (exit 2)", (argv, problem) => {
    const r = run(argv);
    expect([r.code, r.out, r.err.split("\n")[0]]).toEqual([2, "", `error: ${problem}`]);
  });
});

describe("roots, and where list looked", () => {
  test("roots: precedence order, scope, source and state with the skill count", () => {
    expect(run(["roots", ...EXAMPLE])).toEqual({
      code: 0,
      out: [
        "roots, lowest precedence first (the last root wins):",
        "  0  user       agents   missing       examples/home/.agents/skills",
        "  1  workspace  agents   ok, 3 skills  examples/workspace/.agents/skills",
        "  2  user       clarvis  ok, 1 skill   examples/home/.clarvis/skills",
        "  3  workspace  clarvis  ok, 1 skill   examples/workspace/.clarvis/skills",
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("the bin writes the --json error object too", () => {
    expect(bin(["show", "nope", "--json", ...EXAMPLE])).toEqual({
      code: 1,
      out: `${JSON.stringify({ error: { code: "not_found", message: 'no skill named "nope" is loaded' } }, null, 2)}\n`,
      err: "",
    });
  });

  test("roots --json: { path, scope, source, state, skills } for ok, missing, not a directory and unreadable", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a"), file: "x", "locked/b/SKILL.md": skill("b") });
    const argv = [
      "roots",
      "--json",
      "--root",
      `${base}/r`,
      "--user-root",
      `${base}/nope`,
      "--root",
      `${base}/file`,
    ];
    setFaultHook((op, p) => {
      if (op === "readdir" && p === `${base}/locked`)
        throw Object.assign(new Error("denied"), { code: "EACCES" });
    });
    try {
      const { code, out } = run([...argv, "--root", `${base}/locked`]);
      expect(code).toBe(0);
      expect(JSON.parse(out)).toEqual([
        { path: `${base}/r`, scope: "workspace", source: "", state: "ok", skills: 1 },
        { path: `${base}/nope`, scope: "user", source: "", state: "missing", skills: 0 },
        { path: `${base}/file`, scope: "workspace", source: "", state: "not a directory", skills: 0 },
        { path: `${base}/locked`, scope: "workspace", source: "", state: "unreadable", skills: 0 },
      ]);
    } finally {
      setFaultHook(null);
    }
  });

  test("a root whose stat is refused is unreadable, not a crash", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a") });
    setFaultHook((op, p) => {
      if (op === "stat" && p === `${base}/shut`) throw Object.assign(new Error("denied"), { code: "EACCES" });
    });
    try {
      const { code, out } = run(["roots", "--json", "--root", `${base}/r`, "--root", `${base}/shut`]);
      expect(code).toBe(0);
      expect(JSON.parse(out).map((r: { state: string }) => r.state)).toEqual(["ok", "unreadable"]);
    } finally {
      setFaultHook(null);
    }
  });

  test("an overridden skill still counts for its root", () => {
    const a = writeTree({ "x/SKILL.md": skill("x") });
    const b = writeTree({ "x/SKILL.md": skill("x") });
    const { out } = run(["roots", "--json", "--root", a, "--root", b]);
    expect(JSON.parse(out).map((r: { skills: number }) => r.skills)).toEqual([1, 1]);
  });

  test("list with only missing roots (a typo in --root) prints 0 skills and, on stderr, where it looked", () => {
    expect(run(["list", "--root", "no/such/skills"])).toEqual({
      code: 0,
      out: "0 skills\n",
      err: "note: none of these roots exists (agent-skills roots shows them; --root PATH adds one):\n  0  workspace  -       missing  no/such/skills\n",
    });
  });

  test("list of a catalog that has skills says nothing more", () => {
    expect(run(["list", ...EXAMPLE]).err).toBe(BROKEN_WARNING);
  });
});

describe("not_found hints", () => {
  test("show DIR where the frontmatter name differs names the skill to ask for", () => {
    expect(run(["show", "pdf-tools", "--root", "examples/needs-fixes"])).toEqual({
      code: 1,
      out: "",
      err: 'error: not_found: no skill named "pdf-tools" is loaded; did you mean "PDF_Tools"? (its directory is "pdf-tools", its frontmatter name differs)\n',
    });
  });

  test("an invalid manifest in a directory of that name is the hint", () => {
    expect(run(["show", "broken", ...EXAMPLE]).err).toBe(
      'error: not_found: no skill named "broken" is loaded; a skill directory of that name holds an invalid manifest (agent-skills explain broken shows why)\n',
    );
  });

  test("a close spelling is suggested by show, explain and resource", () => {
    const hint = '; did you mean "pdf"?';
    expect(run(["show", "pfd", ...EXAMPLE]).err).toBe(
      `error: not_found: no skill named "pfd" is loaded${hint}\n`,
    );
    expect(run(["explain", "pdff", ...EXAMPLE]).err).toBe(
      `error: not_found: no root offers a skill named "pdff" (run agent-skills list to see the names)${hint}\n`,
    );
    expect(run(["resource", "PDF", "x", ...EXAMPLE]).err).toBe(
      `error: not_found: no skill named "PDF" is loaded${hint}\n`,
    );
    expect(run(["show", "zzzzzz", ...EXAMPLE]).err).toBe(
      'error: not_found: no skill named "zzzzzz" is loaded\n',
    );
  });

  test("under --json the error object is the whole output: no note", () => {
    expect(run(["show", "pdf", "--json", "--root", "nowhere"])).toEqual({
      code: 1,
      out: `${JSON.stringify({ error: { code: "not_found", message: 'no skill named "pdf" is loaded' } }, null, 2)}\n`,
      err: "",
    });
  });

  test("an unknown name in roots that do not exist says where it looked", () => {
    const r = run(["show", "pdf", "--root", "nowhere"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'note: none of these roots exists (agent-skills roots shows them; --root PATH adds one):\n  0  workspace  -       missing  nowhere\nerror: not_found: no skill named "pdf" is loaded\n',
    );
  });
});

describe("--json failures are one JSON object on stdout, nothing on stderr", () => {
  test.each([
    [["show", "nope", "--json", ...EXAMPLE], 1, "not_found", 'no skill named "nope" is loaded'],
    [["frob", "--json"], 2, "usage", 'unknown command "frob"'],
    [
      ["catalog", "--json", "--budget", "x"],
      2,
      "usage",
      '--budget must be a non-negative integer, received "x"',
    ],
    [
      ["list", "--json", "--workspace", "no/such/dir"],
      1,
      "invalid_option",
      `option "workspace" "${REPO}/no/such/dir" does not exist`,
    ],
    [
      ["resource", "pdf", "../../x", "--json", ...EXAMPLE],
      1,
      "path_escape",
      'resource "../../x" of skill "pdf" leads outside the skill directory',
    ],
  ])("%j", (argv, exit, code, message) => {
    expect(run(argv)).toEqual({
      code: exit,
      out: `${JSON.stringify({ error: { code, message } }, null, 2)}\n`,
      err: "",
    });
  });
});

describe("exit codes survive a closed stdout", () => {
  // Issue 11: a closed pipe was turned into process.exit(0), so a failing check read as a pass.
  test("validate | head -1 under pipefail exits 1 on failure, however much output the reader missed", () => {
    const root = tempDir();
    // ~125 KB of findings: far over a pipe's 64 KB buffer, so the writer meets the closed pipe (EPIPE).
    for (let i = 0; i < 200; i++) {
      fs.mkdirSync(path.join(root, `s${i}`));
      fs.writeFileSync(path.join(root, `s${i}`, "SKILL.md"), skill(`S_${i}`));
    }
    expect(pipeline(`node ${BIN} validate ${root} | head -1`)).toEqual({
      code: 1,
      out: `${root}/s0/SKILL.md:2: error name-format: name "S_0" must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen\n`,
    });
  });
});

describe("widths: --wide, COLUMNS, display columns", () => {
  const long = "word ".repeat(30).trim();
  const root = writeTree({
    "a/SKILL.md": skill("a", long),
    "wide/SKILL.md": skill(
      "日本語",
      "説明文です。これは長い説明です。これは長い説明です。これは長い説明です。",
    ),
  });

  test("off a terminal the table is cut to COLUMNS, else 80; --wide never cuts", () => {
    const widths = (out: string) => out.split("\n").slice(0, -2).map(widthOf);
    expect(Math.max(...widths(bin(["list", "--root", root], { COLUMNS: "50" }).out))).toBe(50);
    expect(Math.max(...widths(run(["list", "--root", root]).out))).toBe(80);
    expect(Math.max(...widths(run(["list", "--root", root], { env: { COLUMNS: "abc" } }).out))).toBe(80);
    const wide = run(["list", "--wide", "--root", root], { env: { COLUMNS: "50" } }).out;
    expect(wide).toContain(`a       workspace  -       ${long}\n`);
  });

  test("on a terminal its width wins over COLUMNS", () => {
    const r = run(["list", "--root", root], {
      stdoutIsTTY: true,
      columns: 60,
      env: { COLUMNS: "200", NO_COLOR: "1" },
    });
    expect(Math.max(...r.out.split("\n").map(widthOf))).toBe(60);
  });

  test("wide characters take two columns, so the columns after them line up", () => {
    const lines = run(["list", "--root", root], { env: { COLUMNS: "60" } }).out.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "NAME    SCOPE      SOURCE  DESCRIPTION",
      `a       workspace  -       ${long.slice(0, 32)}…`,
      "日本語  workspace  -       説明文です。これは長い説明です。…",
    ]);
  });

  test("widthOf, cut and outputWidth", () => {
    expect([widthOf("abc"), widthOf("日本"), widthOf("e\u0301"), widthOf("😀"), widthOf("ｱ")]).toEqual([
      3, 4, 1, 2, 1,
    ]);
    expect([cut("日本語", 5), cut("日本語", 6), cut("abc", 1), cut("abc", 0)]).toEqual([
      "日本…",
      "日本語",
      "…",
      "",
    ]);
    expect(outputWidth({ env: { COLUMNS: "0" } }, false)).toBe(80);
    expect(outputWidth({ env: { COLUMNS: "120" } }, false)).toBe(120);
    expect(outputWidth({ env: {} }, true)).toBe(Number.POSITIVE_INFINITY);
  });

  // Issue 10, finding 5: Math.max(...rows) threw RangeError for ~130,000 skills.
  test("a table of 130,000 rows is built without a stack overflow", () => {
    const rows = Array.from({ length: 130_000 }, (_, i) => [`s${i}`, "workspace", "-", "d"]);
    const lines = table(["NAME", "SCOPE", "SOURCE", "DESCRIPTION"], rows, 80);
    expect(lines.length).toBe(130_001);
    expect(lines[130_000]).toBe("s129999  workspace  -       d");
  });
});

describe("resource prints the approved path exactly, or refuses (issue 10, finding 3)", () => {
  test("a path with spaces and non-ASCII letters is printed as is", () => {
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/my files/résumé.txt": "x" });
    expect(run(["resource", "s", "my files/résumé.txt", "--root", root])).toEqual({
      code: 0,
      out: `${root}/s/my files/résumé.txt\n`,
      err: "",
    });
  });

  test("a path holding control characters is refused in text, naming the skill, and exact under --json", () => {
    const root = writeTree({ "s/SKILL.md": skill("s"), "s/..\u0001/x.txt": "x" });
    const rel = "..\u0001/x.txt";
    const text = run(["resource", "s", rel, "--root", root]);
    expect(text).toEqual({
      code: 1,
      out: "",
      err: 'error: unprintable_path: the path of resource "..\\u0001/x.txt" of skill "s" holds control characters; run with --json to get it exactly\n',
    });
    const json = run(["resource", "s", rel, "--json", "--root", root]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).path).toBe(`${root}/s/${rel}`);
    expect(fs.existsSync(JSON.parse(json.out).path)).toBe(true);
  });
});
