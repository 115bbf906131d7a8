// validateSkills at its edges: exact findings made from warnings, the second read that locates a finding
// (and what happens when the file changes under it), the key-line map, and the race paths of a skill path.
import * as fs from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { type ValidateOptions, type ValidationFinding, validateSkills } from "../src/index.js";
import { errnoError } from "./helpers/faults.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

/** Validate without writing the discovery warnings to stderr. */
const check = (paths: string[], options: ValidateOptions = {}) =>
  validateSkills(paths, { onWarning: () => {}, ...options });

/** A finding reduced to its rule, line, column and message. */
const row = (f: ValidationFinding) => [f.rule, f.line ?? null, f.column ?? null, f.message] as const;

/** How often each manifest is opened, counted by the fault seam. */
function countReads(): Map<string, number> {
  const reads = new Map<string, number>();
  setFaultHook((op, p) => {
    if (op === "readManifest") reads.set(p, (reads.get(p) ?? 0) + 1);
  });
  return reads;
}

/** Run `act` just before the `n`th open of `file` (1 is the scan's, 2 the read that locates findings). */
function onRead(file: string, n: number, act: () => void): void {
  let count = 0;
  setFaultHook((op, p) => {
    if (op === "readManifest" && p === file && ++count === n) act();
  });
}

describe("findings made from discovery warnings", () => {
  test("each keeps its skill, and its message loses only a leading `<file>: `", () => {
    const base = writeTree({
      "r/a/SKILL.md": skill("a"),
      "r/b/SKILL.md": skill("a"),
      "r/gone": { symlink: "../nowhere" },
      "r/t/SKILL.md": skill("t", "d", "tools:\n  - name: x"),
    });
    expect(check([`${base}/r`]).findings).toEqual([
      {
        severity: "error",
        rule: "name-matches-dir",
        file: `${base}/r/b/SKILL.md`,
        line: 2,
        skill: "a",
        message: 'name "a" differs from its directory name "b"',
        hint: "give the directory and the name the same value",
      },
      {
        severity: "warning",
        rule: "dangling_symlink",
        file: `${base}/r/gone`,
        message: `symlink ${base}/r/gone points to nothing usable (ENOENT); skipped`,
        hint: "point the symlink at an existing skill directory, or remove it",
      },
      {
        severity: "warning",
        rule: "tools_ignored",
        file: `${base}/r/t/SKILL.md`,
        skill: "t",
        message:
          '"tools" is not a string or a list of strings, so it does not set allowedTools; kept in metadata',
        hint: "use allowed-tools for tool permissions; keep other tool data under another key",
      },
      {
        severity: "error",
        rule: "duplicate_skill",
        file: `${base}/r/b/SKILL.md`,
        line: 2,
        skill: "a",
        message: `skill "a" is declared again in the same root; ${base}/r/a/SKILL.md comes first and is kept`,
        hint: "rename one of the two skills, or remove the copy",
      },
    ]);
  });

  test("an empty root beside one with a skill is a no-skills warning", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a"), "empty/.keep": "" });
    expect(check([`${base}/r`, `${base}/empty`]).findings).toEqual([
      {
        severity: "warning",
        rule: "no-skills",
        file: `${base}/empty`,
        message: "holds no skill directory (<name>/SKILL.md)",
        hint: "put each skill in its own folder: <root>/<name>/SKILL.md",
      },
    ]);
  });

  test("a repaired manifest's other warnings keep their own message", () => {
    const base = writeTree({
      "q/SKILL.md": manifest("name: q\ndescription: Use when: asked\ntools:\n  - name: x"),
    });
    expect(check([`${base}/q`]).findings.map(row)).toEqual([
      [
        "yaml_repaired",
        3,
        14,
        "frontmatter is not valid YAML (invalid YAML: Nested mappings are not allowed in compact mappings); it loads only after quoting the plain value on line 3",
      ],
      [
        "tools_ignored",
        null,
        null,
        '"tools" is not a string or a list of strings, so it does not set allowedTools; kept in metadata',
      ],
    ]);
  });
});

describe("the second read, which locates a finding", () => {
  const LONG = `compatibility: ${"x".repeat(501)}`;
  const broken = () => writeTree({ "s/SKILL.md": manifest(`name: s\ndescription: d\n${LONG}`) });
  const message = "compatibility is 501 characters, over the limit of 500";

  test("happens only when a finding needs a line: a clean manifest, or one with a warning only, is read once", () => {
    const base = writeTree({
      "r/ok/SKILL.md": skill("ok"),
      "r/t/SKILL.md": skill("t", "d", "tools:\n  - name: x"),
      "r/s/SKILL.md": manifest(`name: s\ndescription: d\n${LONG}`),
    });
    const reads = countReads();
    check([`${base}/r`]);
    expect(Object.fromEntries(reads)).toEqual({
      [`${base}/r/ok/SKILL.md`]: 1,
      [`${base}/r/s/SKILL.md`]: 2,
      [`${base}/r/t/SKILL.md`]: 1,
    });
  });

  test("follows a symlinked manifest when symlinks are followed", () => {
    const base = writeTree({
      "store/s.md": manifest(`name: s\ndescription: d\n${LONG}`),
      "s/SKILL.md": { symlink: "../store/s.md" },
    });
    expect(check([`${base}/s`]).findings.map(row)).toEqual([["compatibility-length", 4, null, message]]);
  });

  // The file changed between the scan and the second read: the finding stays, without a line.
  test.each([
    ["grown over 1 MiB", (f: string) => fs.writeFileSync(f, `${skill("s")}${"x".repeat(1024 * 1024)}`)],
    ["no longer UTF-8", (f: string) => fs.writeFileSync(f, Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff]))],
    ["without its fences", (f: string) => fs.writeFileSync(f, "# just markdown\n")],
    [
      "unreadable",
      () => {
        throw errnoError("EACCES");
      },
    ],
  ])("a manifest %s by then gives findings without a line", (_, change) => {
    const base = broken();
    const file = `${base}/s/SKILL.md`;
    onRead(file, 2, () => change(file));
    expect(check([`${base}/s`]).findings.map(row)).toEqual([["compatibility-length", null, null, message]]);
  });

  test("an error that is not the file system's surfaces", () => {
    const base = broken();
    onRead(`${base}/s/SKILL.md`, 2, () => {
      throw new TypeError("a bug of ours");
    });
    expect(() => check([`${base}/s`])).toThrow(new TypeError("a bug of ours"));
  });

  test("a YAML error keeps its line and column but has no excerpt when the second read fails", () => {
    const base = writeTree({ "y/SKILL.md": manifest("name: y\nname: z\ndescription: d") });
    onRead(`${base}/y/SKILL.md`, 2, () => {
      throw errnoError("EACCES");
    });
    const [finding] = check([`${base}/y`]).findings;
    expect(finding).toMatchObject({ rule: "yaml-syntax", line: 3, column: 1 });
    expect(finding && "excerpt" in finding).toBe(false);
  });

  test("a duplicate unreadable by then is reported without its name's line", () => {
    const base = writeTree({ "r/a/SKILL.md": skill("a"), "r/b/SKILL.md": skill("a") });
    // Read 2 locates name-matches-dir (b declares "a"); read 3, the duplicate's name.
    onRead(`${base}/r/b/SKILL.md`, 3, () => {
      throw errnoError("EACCES");
    });
    const dup = check([`${base}/r`]).findings.find((f) => f.rule === "duplicate_skill");
    expect(dup && [dup.file, dup.line]).toEqual([`${base}/r/b/SKILL.md`, undefined]);
  });

  test.each([
    ["valid YAML", "name: q\ndescription: fine"],
    ["YAML no repair helps", 'name: q\ndescription: "unclosed'],
  ])("a repaired manifest rewritten to %s by then keeps the warning's own message", (_, fields) => {
    const file = writeTree({ "q/SKILL.md": manifest("name: q\ndescription: Use when: asked") });
    onRead(`${file}/q/SKILL.md`, 2, () => fs.writeFileSync(`${file}/q/SKILL.md`, manifest(fields)));
    expect(check([`${file}/q`]).findings.map(row)).toEqual([
      [
        "yaml_repaired",
        null,
        null,
        'frontmatter is not valid YAML; loaded after quoting plain values that contain ": " or start with a character YAML reserves',
      ],
    ]);
  });

  test("a repaired manifest unreadable by then keeps the warning's own message", () => {
    const base = writeTree({ "q/SKILL.md": manifest("name: q\ndescription: Use when: asked") });
    onRead(`${base}/q/SKILL.md`, 2, () => {
      throw errnoError("EACCES");
    });
    expect(check([`${base}/q`]).findings.map(row)).toEqual([
      [
        "yaml_repaired",
        null,
        null,
        'frontmatter is not valid YAML; loaded after quoting plain values that contain ": " or start with a character YAML reserves',
      ],
    ]);
  });
});

describe("excerpts", () => {
  test("a YAML error in a CRLF file shows its line without the line end's CR (a CR inside stays)", () => {
    const base = writeTree({
      "y/SKILL.md": '---\r\nname: y\r\nname: "z\rz"\r\ndescription: d\r\n---\r\nBody.\r\n',
    });
    expect(check([`${base}/y`]).findings).toEqual([
      {
        severity: "error",
        rule: "yaml-syntax",
        file: `${base}/y/SKILL.md`,
        line: 3,
        column: 1,
        message: "invalid YAML: Map keys must be unique",
        hint: 'fix the YAML here; put values that contain ": " or start with [ { ` @ in double quotes',
        excerpt: 'name: "z\rz"',
      },
    ]);
  });

  test("a schema failure is located but shows no excerpt", () => {
    const base = writeTree({ "s/SKILL.md": manifest("name: s\ndescription: d\nuser-invocable: sometimes") });
    expect(check([`${base}/s`]).findings).toEqual([
      {
        severity: "error",
        rule: "frontmatter-schema",
        file: `${base}/s/SKILL.md`,
        line: 4,
        message: 'frontmatter "user-invocable" must be a boolean, received a string',
        hint: "write true or false",
      },
    ]);
  });
});

describe("the line of a key", () => {
  /** The line of each finding of the skill `k` with this frontmatter after its name and description. */
  const lines = (extra: string, options: ValidateOptions = {}, file = "SKILL.md") => {
    const base = writeTree({ [`k/${file}`]: manifest(`name: k\ndescription: d\n${extra}`) });
    return check([`${base}/k`], options).findings.map((f) => [f.rule, f.line ?? null, f.message]);
  };
  const unknown = (key: string) =>
    `top-level key ${JSON.stringify(key)} is not a field of the specification or of a major client`;

  test.each(['"name": Bad_Name', "'name': Bad_Name"])("a quoted key: %s", (line) => {
    const base = writeTree({ "Bad_Name/SKILL.md": manifest(`${line}\ndescription: d`) });
    expect(check([`${base}/Bad_Name`]).findings.map((f) => [f.rule, f.line])).toEqual([["name-format", 2]]);
  });

  test("quotes count only around the whole key", () => {
    expect(lines(`x"a": 1\n"a\\"b:c": 2\n'a\\"': 3`)).toEqual([
      // In line order, the key not found written as such last.
      ["unknown-field", 4, unknown('x"a"')],
      ["unknown-field", 6, unknown('a\\"')],
      ["unknown-field", null, unknown('a"b:c')],
    ]);
  });

  test("an indented line, even one that reads as the key, is not the key's line", () => {
    expect(lines(`metadata:\n  foo: "1"\n"  foo": 2`)).toEqual([["unknown-field", 6, unknown("  foo")]]);
  });

  test("nor is a comment, indented by a tab or not", () => {
    expect(lines(`\t#x: 1\n"\t#x": 2\n#y: 3\n"#y": 4`)).toEqual([
      ["unknown-field", 5, unknown("\t#x")],
      ["unknown-field", 7, unknown("#y")],
    ]);
  });

  test('nor is an explicit key\'s line (? a: b), for a key written "? a"', () => {
    expect(lines(`"? a": 1\n? a: b\n: c`)).toEqual([
      ["unknown-field", 4, unknown("? a")],
      ["unknown-field", null, unknown("{ a: b }")],
    ]);
  });

  // A finding about the file's name has the key "": no line, even when the frontmatter has a key "".
  test.each([": x", '"": x'])("the empty key (%s) is never located", (line) => {
    expect(lines(line, { target: "codex" }, "skill.md")).toEqual([
      ["unknown-field", null, unknown("")],
      [
        "codex-manifest-name",
        null,
        'the manifest is named "skill.md"; Codex reads only a file named exactly SKILL.md',
      ],
    ]);
  });
});

describe("a skill path that changes under the check", () => {
  test("a SKILL.md gone before its directory is listed: not-a-skill, then nothing checked", () => {
    const base = writeTree({ "s/SKILL.md": skill("s") });
    setFaultHook((op, p) => {
      if (op === "readdir" && p === `${base}/s`) fs.rmSync(`${base}/s/SKILL.md`);
    });
    expect(check([`${base}/s/SKILL.md`]).findings).toEqual([
      {
        severity: "warning",
        rule: "not-a-skill",
        file: `${base}/s`,
        message: "holds no SKILL.md; skipped",
        hint: "give a skill directory, its SKILL.md, or a folder of skill directories",
      },
      {
        severity: "error",
        rule: "no-manifest",
        file: `${base}/s/SKILL.md`,
        message: "does not exist, so nothing was checked",
        hint: "check --root, --workspace and --home: agent-skills roots shows where it looks",
      },
    ]);
  });

  test("a SKILL.md whose directory cannot be listed: the scan's unreadable warning first", () => {
    const base = writeTree({ "s/SKILL.md": skill("s") });
    setFaultHook((op, p) => {
      if (op === "readdir" && p === `${base}/s`) throw errnoError("EACCES");
    });
    // (A no-manifest error follows: walk.ts's nothingChecked looks for errors under the path given.)
    expect(check([`${base}/s/SKILL.md`]).findings.map(row)[0]).toEqual([
      "unreadable",
      null,
      null,
      `skill directory ${base}/s cannot be read (EACCES); skipped`,
    ]);
  });

  test("recursive: a skill directory is checked as a skill, not walked", () => {
    const base = writeTree({ "s/SKILL.md": skill("s") });
    setFaultHook((op, p) => {
      if (op === "realpath" && p === `${base}/s`) throw errnoError("EACCES");
    });
    expect(check([`${base}/s`], { recursive: true }).findings.map(row)).toEqual([
      ["manifest-file", null, null, "SKILL.md cannot be read (EACCES)"],
    ]);
  });
});

describe("the hint of a YAML finding", () => {
  // Audit D, finding 9: every yaml-syntax finding said to quote values, also where no quote helps.
  const hintOf = (frontmatter: string) => {
    const root = writeTree({ "s/SKILL.md": `---\n${frontmatter}\n---\nbody\n` });
    const [finding] = validateSkills([`${root}/s`]).findings;
    return [finding?.rule, finding?.line, finding?.hint];
  };
  const SHAPE =
    "keep the frontmatter a mapping of plain keys and values (name, description, …), shallow and without YAML aliases; long text goes in the body";

  test("a located error: fix it there, with the quoting that most often does", () => {
    // yaml places an unclosed quote at the end of the frontmatter: the closing fence's line.
    expect(hintOf('name: s\ndescription: "unclosed')).toEqual([
      "yaml-syntax",
      4,
      'fix the YAML here; put values that contain ": " or start with [ { ` @ in double quotes',
    ]);
  });

  test.each([
    ["a list", "- a\n- b"],
    ["too deep", `name: s\ndescription: d\nx: ${"[".repeat(70)}${"]".repeat(70)}`],
    ["too long", `name: s\ndescription: d\nx: "${"y".repeat(17_000)}"`],
  ])("an unlocated one (%s): the shape the frontmatter must have", (_, frontmatter) => {
    expect(hintOf(frontmatter)).toEqual(["yaml-syntax", undefined, SHAPE]);
  });
});
