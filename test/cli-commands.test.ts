import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { EXAMPLE, REPO, run } from "./helpers/cli.js";
import { skill, writeTree } from "./helpers/fixture.js";

const CLARVIS = path.join(REPO, "examples/workspace/.clarvis/skills");
const AGENTS = path.join(REPO, "examples/workspace/.agents/skills");

describe("show", () => {
  test("prints the winning skill's body", () => {
    expect(run(["show", "pdf", ...EXAMPLE])).toEqual({
      code: 0,
      out: "# PDF\n\n1. Run `scripts/extract.py FILE` to get the text.\n2. Summarise the tables it prints.\n",
      err: "",
    });
  });

  test("--json prints the whole SkillContent, resources included", () => {
    const { code, out, err } = run(["show", "pdf", "--json", ...EXAMPLE]);
    expect([code, err]).toEqual([0, ""]);
    expect(JSON.parse(out)).toEqual({
      name: "pdf",
      description: "Extract text and tables from PDF files; use when the user hands you a PDF.",
      metadata: {
        name: "pdf",
        description: "Extract text and tables from PDF files; use when the user hands you a PDF.",
        "allowed-tools": "Read Bash(python3 scripts/extract.py:*)",
        license: "MIT",
      },
      allowedTools: ["Read", "Bash(python3 scripts/extract.py:*)"],
      userInvocable: true,
      scope: "workspace",
      source: "clarvis",
      root: CLARVIS,
      dir: path.join(CLARVIS, "pdf"),
      path: path.join(CLARVIS, "pdf/SKILL.md"),
      body: "# PDF\n\n1. Run `scripts/extract.py FILE` to get the text.\n2. Summarise the tables it prints.",
      resources: ["scripts/extract.py"],
      warnings: [],
    });
  });

  test("an unknown name exits 1 with one line naming it", () => {
    expect(run(["show", "nope", ...EXAMPLE])).toEqual({
      code: 1,
      out: "",
      err: 'error: not_found: no skill named "nope" is loaded\n',
    });
  });

  test("the malformed skill is not shown: it was skipped", () => {
    expect(run(["show", "broken", ...EXAMPLE]).code).toBe(1);
  });

  test("warnings about the shown skill's resources go to stderr", () => {
    const root = writeTree({ "x/SKILL.md": skill("x"), "x/gone.txt": { symlink: "nowhere.txt" } });
    expect(run(["show", "x", "--root", root])).toEqual({
      code: 0,
      out: "Body.\n",
      err: `warning: resource_skipped: symlink ${root}/x/gone.txt points to nothing usable (ENOENT); not listed\n`,
    });
  });
});

describe("resource", () => {
  test("prints the confined absolute path, through the symlinked skill's real directory", () => {
    expect(run(["resource", "pdf", "scripts/extract.py", ...EXAMPLE])).toEqual({
      code: 0,
      out: `${path.join(CLARVIS, "pdf/scripts/extract.py")}\n`,
      err: "",
    });
    const root = writeTree({
      "store/x/SKILL.md": skill("x"),
      "store/x/a.txt": "a",
      "root/x": { symlink: "../store/x" },
    });
    expect(run(["resource", "x", "a.txt", "--root", `${root}/root`]).out).toBe(`${root}/store/x/a.txt\n`);
  });

  test("--json prints the skill, the resource and the path", () => {
    const { out } = run(["resource", "pdf", "scripts/extract.py", "--json", ...EXAMPLE]);
    expect(JSON.parse(out)).toEqual({
      skill: "pdf",
      resource: "scripts/extract.py",
      path: path.join(CLARVIS, "pdf/scripts/extract.py"),
    });
  });

  test.each([
    [
      "pdf",
      "../../../../../../etc/passwd",
      'path_escape: resource "../../../../../../etc/passwd" of skill "pdf" leads outside the skill directory',
    ],
    [
      "pdf",
      "/etc/passwd",
      'invalid_input: resource "/etc/passwd" of skill "pdf" is absolute; give a path relative to the skill directory',
    ],
    ["pdf", "", 'invalid_input: resource "" of skill "pdf" is empty'],
    ["pdf", "scripts", 'not_a_file: resource "scripts" of skill "pdf" is not a regular file'],
    [
      "pdf",
      "missing.txt",
      'not_found: resource "missing.txt" of skill "pdf" does not exist: examples/workspace/.clarvis/skills/pdf/missing.txt (ENOENT)',
    ],
    ["nope", "x", 'not_found: no skill named "nope" is loaded'],
  ])("%s %j is refused: one line naming the code on stderr, exit 1, nothing on stdout", (name, rel, line) => {
    expect(run(["resource", name, rel, ...EXAMPLE])).toEqual({ code: 1, out: "", err: `error: ${line}\n` });
  });

  test("an out-of-tree symlink is path_escape, and --no-follow-symlinks refuses in-tree links as not_found", () => {
    const root = writeTree({
      "secret.txt": "s",
      "skills/x/SKILL.md": skill("x"),
      "skills/x/out": { symlink: "../../secret.txt" },
      "skills/x/real.txt": "r",
      "skills/x/in": { symlink: "real.txt" },
    });
    const args = ["--root", `${root}/skills`];
    expect(run(["resource", "x", "out", ...args]).err).toBe(
      `error: path_escape: resource "out" of skill "x" resolves outside the skill directory, to ${root}/secret.txt\n`,
    );
    expect(run(["resource", "x", "in", ...args]).out).toBe(`${root}/skills/x/real.txt\n`);
    expect(run(["resource", "x", "in", "--no-follow-symlinks", ...args])).toEqual({
      code: 1,
      out: "",
      err: 'error: not_found: resource "in" of skill "x" goes through a symlink, and symlinks are not followed\n',
    });
  });
});

describe("explain", () => {
  const roots = [
    "roots, lowest precedence first (the last root wins):",
    "  0  user       agents   examples/home/.agents/skills",
    "  1  workspace  agents   examples/workspace/.agents/skills",
    "  2  user       clarvis  examples/home/.clarvis/skills",
    "  3  workspace  clarvis  examples/workspace/.clarvis/skills",
    "",
  ];

  test("an overridden name: every candidate in precedence order, the winner and why the other lost", () => {
    expect(run(["explain", "pdf", ...EXAMPLE])).toEqual({
      code: 0,
      out: [
        ...roots,
        'candidates for "pdf":',
        "  root 1  overridden  examples/workspace/.agents/skills/pdf/SKILL.md",
        "          overridden by examples/workspace/.clarvis/skills/pdf/SKILL.md: root 3 comes later than root 1, and the last root wins",
        "  root 3  winner      examples/workspace/.clarvis/skills/pdf/SKILL.md",
        '          wins: no later root declares "pdf"',
        "",
      ].join("\n"),
      err: "",
    });
  });

  test("an invalid manifest: its error, located", () => {
    expect(run(["explain", "broken", ...EXAMPLE]).out).toBe(
      [
        ...roots,
        'candidates for "broken":',
        "  root 3  invalid     examples/workspace/.clarvis/skills/broken/SKILL.md",
        '          examples/workspace/.clarvis/skills/broken/SKILL.md:4:1: invalid YAML: Missing closing "quote',
        "",
      ].join("\n"),
    );
  });

  test("an in-root duplicate: the later directory loses to the first", () => {
    const root = writeTree({ "a/SKILL.md": skill("x"), "b/SKILL.md": skill("x") });
    const out = run(["explain", "x", "--root", root]).out.split("\n");
    expect(out.slice(3)).toEqual([
      'candidates for "x":',
      `  root 0  winner      ${root}/a/SKILL.md`,
      '          wins: no later root declares "x"',
      `  root 0  duplicate   ${root}/b/SKILL.md`,
      `          ${root}/b/SKILL.md: skill "x" is declared again in the same root; ${root}/a/SKILL.md comes first and is kept`,
      "",
    ]);
  });

  test("--json prints the candidates as the library's explain() gives them", () => {
    const { out } = run(["explain", "pdf", "--json", ...EXAMPLE]);
    expect(JSON.parse(out)).toEqual([
      {
        name: "pdf",
        rootIndex: 1,
        root: AGENTS,
        scope: "workspace",
        source: "agents",
        dir: path.join(AGENTS, "pdf"),
        path: path.join(AGENTS, "pdf/SKILL.md"),
        verdict: "overridden",
        reason: `overridden by ${CLARVIS}/pdf/SKILL.md: root 3 comes later than root 1, and the last root wins`,
      },
      {
        name: "pdf",
        rootIndex: 3,
        root: CLARVIS,
        scope: "workspace",
        source: "clarvis",
        dir: path.join(CLARVIS, "pdf"),
        path: path.join(CLARVIS, "pdf/SKILL.md"),
        verdict: "winner",
        reason: 'wins: no later root declares "pdf"',
      },
    ]);
  });

  test("a name no root offers exits 1", () => {
    expect(run(["explain", "nope", ...EXAMPLE])).toEqual({
      code: 1,
      out: "",
      err: 'error: not_found: no root offers a skill named "nope" (run agent-skills list to see the names)\n',
    });
  });

  test("the example keeps the overridden copy and the symlinked skill these outputs rely on", () => {
    expect(fs.existsSync(path.join(AGENTS, "pdf/SKILL.md"))).toBe(true);
    expect(fs.lstatSync(path.join(AGENTS, "changelog")).isSymbolicLink()).toBe(true);
  });
});
