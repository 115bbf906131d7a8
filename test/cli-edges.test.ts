// Edge cases of the command line's modules, run in-process through main() or on their exported helpers.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { table } from "../src/cli/commands.js";
import { commandHelp } from "../src/cli/help.js";
import { main } from "../src/cli/main.js";
import { helpText } from "../src/cli/table.js";
import { cut, oneLine, outputWidth, showMessage, showPath } from "../src/cli/text.js";
import { setFaultHook } from "../src/fsx.js";
import { run } from "./helpers/cli.js";
import { manifest, skill, tempDir, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

describe("text helpers", () => {
  test("oneLine trims the ends and folds each run of white space to one space", () => {
    expect(oneLine("  a \n\t b  ")).toBe("a b");
  });

  test("cut to one column is the ellipsis alone, even after a zero-width character", () => {
    expect(cut("\u200Babc", 1)).toBe("…");
  });

  test("outputWidth takes the terminal's columns only from a terminal, and only when positive", () => {
    expect(outputWidth({ stdoutIsTTY: false, columns: 50, env: {} }, false)).toBe(80);
    expect(outputWidth({ stdoutIsTTY: true, columns: 0, env: {} }, false)).toBe(80);
    expect(outputWidth({ stdoutIsTTY: true, columns: 50, env: {} }, false)).toBe(50);
  });

  test("outputWidth takes COLUMNS only when it is all digits", () => {
    expect(outputWidth({ env: { COLUMNS: "x100" } }, false)).toBe(80);
    expect(outputWidth({ env: { COLUMNS: "100x" } }, false)).toBe(80);
    expect(outputWidth({ env: { COLUMNS: "100" } }, false)).toBe(100);
  });

  test("showPath leaves a path alone that only shares a prefix with cwd", () => {
    expect(showPath(`${path.sep}xy${path.sep}z`, `${path.sep}x`)).toBe(`${path.sep}xy${path.sep}z`);
  });

  test("from the root directory, paths show relative to it and messages keep their separators", () => {
    const root = writeTree({ "s/SKILL.md": skill("s") });
    const rel = path.relative("/", root);
    const missing = run(["validate", path.join(root, "nope")], { cwd: "/" });
    expect(missing.out.split("\n")[0]).toBe(`${rel}/nope: error path-missing: does not exist`);
    // Every "/" is under the root: stripping it as the cwd's prefix garbled the message (bug).
    expect(run(["resource", "s", "../../etc/passwd", "--root", root], { cwd: "/" })).toEqual({
      code: 1,
      out: "",
      err: 'error: path_escape: resource "../../etc/passwd" of skill "s" leads outside the skill directory\n',
    });
  });

  test("run from the root directory, a message keeps its absolute paths whole", () => {
    const message = `cannot read ${path.sep}etc${path.sep}x (EACCES); "${path.sep}srv" (${path.sep}y)`;
    expect(showMessage(message, path.sep)).toBe(message);
  });

  test("a path that holds the cwd's path further in is not cut there", () => {
    const cwd = `${path.sep}work`;
    const inside = `${cwd}${path.sep}a${path.sep}SKILL.md`;
    const elsewhere = `${path.sep}x${cwd}${path.sep}a`;
    expect(showMessage(`${inside}: bad; see ${elsewhere} and "${elsewhere}"`, cwd)).toBe(
      `a${path.sep}SKILL.md: bad; see ${elsewhere} and "${elsewhere}"`,
    );
    // A cwd is matched as written, whatever characters it holds.
    const odd = `${path.sep}w.k+(1)$`;
    expect(showMessage(`${odd}${path.sep}a ${path.sep}wxk+(1)$${path.sep}a`, odd)).toBe(
      `a ${path.sep}wxk+(1)$${path.sep}a`,
    );
    // The cwd itself, written with its separator, is shown as "." (audit G), as showPath shows it.
    expect(showMessage(`x ${cwd}${path.sep} and "${cwd}${path.sep}"`, cwd)).toBe(`x . and "."`);
    expect(showMessage(`in ${cwd}${path.sep}`, cwd)).toBe("in .");
    // Cut after what may open a path in a message: a space, a quote, a parenthesis.
    expect(showMessage(`(${inside}) "${inside}" '${inside}'`, cwd)).toBe(
      `(a${path.sep}SKILL.md) "a${path.sep}SKILL.md" 'a${path.sep}SKILL.md'`,
    );
  });

  test("a cwd given with a trailing separator still makes the paths in messages relative", () => {
    const base = writeTree({ "r/s/SKILL.md": skill("s"), "r/b/SKILL.md": "---\nname: b\n---\n" });
    const { err } = run(["list", "--root", "r"], { cwd: `${base}${path.sep}` });
    expect(err).toBe('warning: invalid_skill: r/b/SKILL.md: frontmatter "description" is missing; skipped\n');
  });

  test("table trims the end of a line whose last cell is empty", () => {
    expect(table(["A", "B"], [["x", ""]], 80)).toEqual(["A  B", "x"]);
  });
});

describe("help", () => {
  test("helpText of an unknown command is the full help", () => {
    expect(helpText("nope")).toBe(helpText());
  });

  test("a command without details has one blank line between its summary and its examples", () => {
    const text = commandHelp("x", {
      args: "",
      summary: "Do x.",
      details: [],
      options: [],
      examples: [["x", "does x"]],
    });
    expect(
      text.startsWith(
        "usage: agent-skills x [options]\n\nDo x.\n\nExamples\n  agent-skills x\n      does x\n\n",
      ),
    ).toBe(true);
  });

  test("help with two arguments says it takes at most 1", () => {
    const { code, err } = run(["help", "list", "show"]);
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe("error: help takes at most 1 argument, received 2");
  });
});

describe("colour on a terminal", () => {
  test("roots prints its header bold", () => {
    const root = tempDir();
    const { out } = run(["roots", "--root", root], { stdoutIsTTY: true });
    expect(out.split("\n")[0]).toBe("\x1b[1mroots, lowest precedence first (the last root wins):\x1b[22m");
  });

  test("search prints its header bold", () => {
    const root = writeTree({ "pdf/SKILL.md": skill("pdf", "Read PDF files.") });
    const { out } = run(["search", "pdf", "--root", root], { stdoutIsTTY: true });
    expect(out.split("\n")[0]).toBe("\x1b[1mSCORE  NAME  DESCRIPTION\x1b[22m");
  });

  test("explain prints its headers bold", () => {
    const root = writeTree({ "pdf/SKILL.md": skill("pdf") });
    const { out } = run(["explain", "pdf", "--root", root], { stdoutIsTTY: true });
    expect(out.split("\n")[0]).toBe("\x1b[1mroots, lowest precedence first (the last root wins):\x1b[22m");
  });

  test("a usage error says error in red on a terminal stderr", () => {
    const { err } = run(["nope"], { stderrIsTTY: true });
    expect(err.split("\n")[0]).toBe('\x1b[31merror\x1b[39m: unknown command "nope"');
  });
});

describe("roots and the note on nothing found", () => {
  test("an existing empty root and a missing one: no skill found, not none exists", () => {
    const empty = tempDir();
    const missing = path.join(empty, "missing");
    const { err } = run(["list", "--root", empty, "--root", missing]);
    expect(err.split("\n")[0]).toBe(
      "note: no skill found in these roots (agent-skills roots shows them; --root PATH adds one):",
    );
  });

  test("without --workspace the preset's workspace is the current directory", () => {
    const base = writeTree({ "ws/.clarvis/skills/x/SKILL.md": skill("x"), "home/.keep": "" });
    const { out } = run(["roots", "--json", "--home", path.join(base, "home")], {
      cwd: path.join(base, "ws"),
    });
    expect(JSON.parse(out).map((r: { path: string; skills: number }) => [r.path, r.skills])).toEqual([
      [path.join(base, "home", ".agents", "skills"), 0],
      [path.join(base, "ws", ".agents", "skills"), 0],
      [path.join(base, "home", ".clarvis", "skills"), 0],
      [path.join(base, "ws", ".clarvis", "skills"), 1],
    ]);
  });

  test("roots counts the valid skills only: an invalid manifest under a served name is not one", () => {
    const a = writeTree({ "x/SKILL.md": skill("x") });
    const b = writeTree({ "x/SKILL.md": manifest("name: x") });
    const { out } = run(["roots", "--json", "--root", a, "--root", b]);
    expect(JSON.parse(out).map((r: { skills: number }) => r.skills)).toEqual([1, 0]);
  });

  test("a warning of another code about a root leaves its state alone", () => {
    const root = writeTree({ "x/SKILL.md": skill("x") });
    setFaultHook((op, p) => {
      if (op === "realpath" && p === root) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    });
    const { out } = run(["roots", "--json", "--root", root]);
    expect(JSON.parse(out)).toEqual([{ path: root, scope: "workspace", source: "", state: "ok", skills: 1 }]);
  });

  test("a root whose stat is refused after the scan is unreadable, and counts no skill", () => {
    const root = writeTree({ "x/SKILL.md": skill("x") });
    let stats = 0;
    setFaultHook((op, p) => {
      if (op === "stat" && p === root && ++stats > 1) {
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      }
    });
    const { out } = run(["roots", "--json", "--root", root]);
    expect(JSON.parse(out)).toEqual([
      { path: root, scope: "workspace", source: "", state: "unreadable", skills: 0 },
    ]);
  });
});

describe("main", () => {
  test("an error that is not the CLI's or the library's is thrown on", () => {
    expect(() =>
      main(["--version"], {
        stdout: () => {
          throw new Error("stdout closed");
        },
        stderr: () => {},
        cwd: tempDir(),
        env: {},
      }),
    ).toThrow("stdout closed");
  });
});
