import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { USAGE } from "../src/cli/help.js";
import { COMMANDS, helpText } from "../src/cli/table.js";
import { createAgentSkills } from "../src/index.js";
import { EXAMPLE, EXAMPLE_TABLE, REPO, run } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

const usageTail = `${USAGE}\n`;
const BROKEN = "examples/workspace/.clarvis/skills/broken/SKILL.md";
const brokenWarning = `warning: invalid_skill: ${BROKEN}:4:1: invalid YAML: Missing closing "quote; skipped\n`;

describe("usage errors exit 2 with the usage line on stderr and nothing on stdout", () => {
  test.each([
    [[], "no command given"],
    [["frob"], 'unknown command "frob"'],
    [["list", "--frob"], "Unknown option '--frob'"],
    [["list", "--root"], "Option '--root <value>' argument missing"],
    [["list", "--root="], "--root needs a non-empty path"],
    [["list", "extra"], "list takes 0 arguments, received 1"],
    [["show"], "show takes 1 argument, received 0"],
    [["show", "a", "b"], "show takes 1 argument, received 2"],
    [["resource", "pdf"], "resource takes 2 arguments, received 1"],
    [["explain"], "explain takes 1 argument, received 0"],
    [["list", "--preset", "vscode"], '--preset must be clarvis, agents or claude, received "vscode"'],
    [["list", "--preset", "toString"], '--preset must be clarvis, agents or claude, received "toString"'],
    [["list", "--workspace="], "--workspace needs a non-empty path"],
    [["list", "--home", ""], "--home needs a non-empty path"],
    [
      ["list", "--preset", "agents", "--root", "x"],
      "--preset chooses the roots when no --root or --user-root is given; give one or the other",
    ],
    [["validate", "x", "--root", "y"], "validate checks either the PATHs given or the roots, not both"],
    [
      ["validate", "x", "--preset", "claude"],
      "validate checks either the PATHs given or the roots, not both",
    ],
  ])("%j", (argv, problem) => {
    expect(run(argv)).toEqual({ code: 2, out: "", err: `error: ${problem}\n${usageTail}` });
  });
});

describe("--help and --version", () => {
  const HELP = helpText();
  test.each([
    [["--help"], HELP],
    [["-h"], HELP],
    [["help"], HELP],
    [["list", "--help"], helpText("list")],
    [["help", "list"], helpText("list")],
    [["show", "-h", "x"], helpText("show")],
    [["validate", "--help"], helpText("validate")],
  ])("%j prints the help and exits 0", (argv, page) => {
    expect(run(argv)).toEqual({ code: 0, out: page, err: "" });
  });

  test("help takes at most one command", () => {
    expect(run(["help", "list", "show"]).err.split("\n")[0]).toBe(
      "error: help takes at most 1 argument, received 2",
    );
  });

  test("help of an unknown command is a usage error", () => {
    for (const argv of [
      ["--help", "frob"],
      ["help", "frob"],
    ]) {
      expect(run(argv)).toEqual({ code: 2, out: "", err: `error: unknown command "frob"\n${usageTail}` });
    }
  });

  test("each command's help has its usage, its own options and one or two examples that run", () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const page = helpText(name);
      expect(page.startsWith(`usage: agent-skills ${`${name} ${entry.args}`.trim()} [options]\n`)).toBe(true);
      for (const [flag] of entry.options) expect(page).toContain(flag);
      expect(entry.examples.length).toBeGreaterThanOrEqual(1);
      expect(entry.examples.length).toBeLessThanOrEqual(2);
      for (const [args] of entry.examples) expect(page).toContain(`  agent-skills ${args}\n`);
    }
    expect(helpText("catalog")).toContain("--budget N");
    expect(helpText("validate")).toContain("--target CLIENT");
    expect(helpText("list")).not.toContain("--target");
  });

  test("an unknown option is refused even next to --help", () => {
    expect(run(["list", "--frob", "--help"])).toEqual({
      code: 2,
      out: "",
      err: `error: Unknown option '--frob'\n${usageTail}`,
    });
  });

  test("the help names every command and option", () => {
    const HELP = helpText();
    for (const word of [
      "list",
      "show NAME",
      "resource NAME REL",
      "explain NAME",
      "validate [PATH...]",
      "catalog",
      "roots",
      "help [COMMAND]",
    ]) {
      expect(HELP).toContain(word);
    }
    for (const flag of ["--root", "--user-root", "--preset", "--workspace", "--home", "--strict"]) {
      expect(HELP).toContain(flag);
    }
    for (const flag of ["--wide", "--format", "--budget N", "--recursive", "--target CLIENT", "COLUMNS"]) {
      expect(HELP).toContain(flag);
    }
    for (const flag of ["--no-follow-symlinks", "--json", "--help", "--version", "NO_COLOR"]) {
      expect(HELP).toContain(flag);
    }
  });

  test("--version prints package.json's version", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
    expect(run(["--version"])).toEqual({ code: 0, out: `${version}\n`, err: "" });
  });
});

describe("list", () => {
  test("the example workspace: a table cut to 80 columns, a count line, the malformed skill warned on stderr", () => {
    expect(run(["list", ...EXAMPLE])).toEqual({
      code: 0,
      out: EXAMPLE_TABLE,
      err: brokenWarning,
    });
  });

  test("--json prints exactly the SkillInfo[] of the library and nothing else on stdout", () => {
    const { code, out, err } = run(["list", "--json", ...EXAMPLE]);
    expect(code).toBe(0);
    expect(err).toBe(brokenWarning);
    const direct = createAgentSkills({
      roots: [
        { path: "examples/home/.agents/skills", scope: "user", source: "agents" },
        { path: "examples/workspace/.agents/skills", scope: "workspace", source: "agents" },
        { path: "examples/home/.clarvis/skills", scope: "user", source: "clarvis" },
        { path: "examples/workspace/.clarvis/skills", scope: "workspace", source: "clarvis" },
      ],
      cwd: REPO,
    });
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(direct.listSkills())));
    const pdf = JSON.parse(out)[2];
    expect(Object.keys(pdf)).toEqual([
      "name",
      "description",
      "metadata",
      "allowedTools",
      "userInvocable",
      "scope",
      "source",
      "root",
      "dir",
      "path",
    ]);
    expect(pdf.allowedTools).toEqual(["Read", "Bash(python3 scripts/extract.py:*)"]);
  });

  test("the description is cut to the terminal's columns on a TTY, and to 80 off one", () => {
    const narrow = run(["list", ...EXAMPLE], { stdoutIsTTY: true, columns: 60, env: { NO_COLOR: "1" } });
    const lines = narrow.out.trimEnd().split("\n");
    expect(lines[1]).toBe("changelog   workspace  agents   Draft a CHANGELOG entry fro…");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    const piped = run(["list", ...EXAMPLE], { columns: 60 });
    expect(piped.out.split("\n")[1]).toHaveLength(80);
  });

  test("a very narrow terminal still gets 20 columns of description", () => {
    const { out } = run(["list", ...EXAMPLE], { stdoutIsTTY: true, columns: 40, env: { NO_COLOR: "1" } });
    expect(out.split("\n")[1]).toBe("changelog   workspace  agents   Draft a CHANGELOG e…");
  });

  test("colour only on a TTY, and never with NO_COLOR", () => {
    expect(run(["list", ...EXAMPLE], { stdoutIsTTY: true, stderrIsTTY: true }).out).toContain("\x1b[1mNAME ");
    expect(run(["list", ...EXAMPLE], { stdoutIsTTY: true, stderrIsTTY: true }).err).toBe(
      brokenWarning.replace("warning", "\x1b[33mwarning\x1b[39m"),
    );
    const noColor = run(["list", ...EXAMPLE], {
      stdoutIsTTY: true,
      stderrIsTTY: true,
      env: { NO_COLOR: "1" },
    });
    expect(noColor.out + noColor.err).not.toContain("\x1b");
    const piped = run(["list", ...EXAMPLE]);
    expect(piped.out + piped.err).not.toContain("\x1b");
  });

  test("an empty NO_COLOR does not turn colour off", () => {
    expect(run(["list", ...EXAMPLE], { stdoutIsTTY: true, env: { NO_COLOR: "" } }).out).toContain("\x1b[1m");
  });

  test("--preset agents and claude choose other roots", () => {
    const agents = run(["list", "--preset", "agents", "--json", ...EXAMPLE]);
    expect(
      JSON.parse(agents.out).map((s: { name: string; source: string }) => `${s.name}:${s.source}`),
    ).toEqual(["changelog:agents", "git-commit:agents", "pdf:agents"]);
    expect(agents.err).toBe("");
    expect(run(["list", "--preset", "claude", ...EXAMPLE])).toEqual({
      code: 0,
      out: "0 skills\n",
      err: [
        "note: none of these roots exists (agent-skills roots shows them; --root PATH adds one):",
        "  0  user       claude  missing  examples/home/.claude/skills",
        "  1  workspace  claude  missing  examples/workspace/.claude/skills",
        "",
      ].join("\n"),
    });
  });

  test("--root and --user-root keep the order given: the last one wins, and scopes follow the flag", () => {
    const a = writeTree({ "x/SKILL.md": skill("x", "From A.") });
    const b = writeTree({ "x/SKILL.md": skill("x", "From B.") });
    const aLast = JSON.parse(run(["list", "--json", "--root", b, "--user-root", a]).out);
    expect(aLast.map((s: { description: string; scope: string }) => [s.description, s.scope])).toEqual([
      ["From A.", "user"],
    ]);
    const bLast = JSON.parse(run(["list", "--json", "--user-root", a, "--root", b]).out);
    expect(bLast.map((s: { description: string; scope: string }) => [s.description, s.scope])).toEqual([
      ["From B.", "workspace"],
    ]);
  });

  test("relative --root paths resolve against the current directory, not --workspace", () => {
    const base = writeTree({ "here/x/SKILL.md": skill("x"), "ws/.keep": "" });
    const { out } = run(["list", "--root", "here", "--workspace", "ws"], { cwd: base });
    expect(out).toBe(
      "NAME  SCOPE      SOURCE  DESCRIPTION\nx     workspace  -       The x skill.\n1 skill\n",
    );
  });

  test("--strict turns the malformed skill into an error: exit 1, one line on stderr, nothing on stdout", () => {
    expect(run(["list", "--strict", ...EXAMPLE])).toEqual({
      code: 1,
      out: "",
      err: `error: invalid_skill: ${BROKEN}:4:1: invalid YAML: Missing closing "quote\n`,
    });
  });

  test("--no-follow-symlinks drops the symlinked changelog skill", () => {
    const names = JSON.parse(run(["list", "--json", "--no-follow-symlinks", ...EXAMPLE]).out).map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(["git-commit", "pdf", "review"]);
  });

  test("a --workspace that does not exist fails with exit 1 and names it", () => {
    expect(run(["list", "--workspace", "no/such/dir"])).toEqual({
      code: 1,
      out: "",
      err: 'error: invalid_option: option "workspace" "no/such/dir" does not exist\n',
    });
  });
});

describe("text from skills is stripped of terminal control characters", () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting control characters is the point
  const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

  test("in the list table, stderr warnings, the body and explain", () => {
    // YAML escapes: \e ESC, \a BEL, \x9b 8-bit CSI, \r, \0, \x7f DEL.
    const description = String.raw`"Safe \e]0;owned\atitle \e[2Jclear \x9b31mred\r\ec reset\0\x7f end"`;
    const root = writeTree({
      "evil/SKILL.md": `---\nname: evil\ndescription: ${description}\n---\nBody\x1b[31m red\ttab\r\nnext\x07 line\n`,
      "bad\x1b[2Jdir/SKILL.md": "no fence",
    });
    const list = run(["list", "--root", root]);
    expect(list.out).toContain("evil  workspace  -       Safe title clear 31mred reset end\n");
    expect(list.err).toBe(
      // The message escapes the control visibly instead of dropping it: the path printed is not another path.
      `warning: invalid_skill: ${root}/bad\\x1b[2Jdir/SKILL.md:1: does not start with a --- frontmatter fence; skipped\n`,
    );
    const show = run(["show", "evil", "--root", root]);
    expect(show.out).toBe("Body red\ttab\nnext line\n");
    const explain = run(["explain", "evil", "--root", root]);
    expect(explain.out).toContain("  root 0  winner ");
    for (const r of [list, show, explain]) expect(r.out + r.err).not.toMatch(CONTROL);
  });

  test("bidirectional embedding, override and isolate controls too (audit C, finding 6)", () => {
    // U+202E (right-to-left override) and U+2066-U+2069 make text display in another order than it
    // reads ("Trojan Source"); the library's messages already escape them.
    const root = writeTree({
      "evil/SKILL.md": `---\nname: evil\ndescription: "a\\u202Eb\\u2066c\\u2069d\\u202Ae"\n---\nx\u202Ey\u2067z\n`,
    });
    expect(run(["list", "--root", root]).out).toContain("evil  workspace  -       abcde\n");
    expect(run(["show", "evil", "--root", root]).out).toBe("xyz\n");
    const { out } = run(["list", "--json", "--root", root]);
    expect(out).toContain('"a\\u202eb\\u2066c\\u2069d\\u202ae"');
    expect(JSON.parse(out)[0].description).toBe("a\u202Eb\u2066c\u2069d\u202Ae");
  });

  test("--json keeps the text exact but escapes every control character", () => {
    const root = writeTree({
      "evil/SKILL.md": `---\nname: evil\ndescription: "a\\e[2Jb\\x9bc\\x7fd"\n---\nx\n`,
    });
    const { out } = run(["list", "--json", "--root", root]);
    expect(out).not.toMatch(CONTROL);
    expect(out).toContain('"a\\u001b[2Jb\\u009bc\\u007fd"');
    expect(JSON.parse(out)[0].description).toBe("a\x1b[2Jb\x9bc\x7fd");
  });
});
