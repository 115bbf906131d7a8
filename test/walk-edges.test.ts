// walk.ts at its edges (issue 9, mutation survivors): what classify makes of each kind of path, the
// recursive walk's containment and what it visits, the near-miss search's limits, and which errors
// stand in for "nothing was checked".
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { validateSkills } from "../src/index.js";
import { classify, findSkillDirs, isNearMiss, nothingChecked } from "../src/walk.js";
import { skill, writeTree } from "./helpers/fixture.js";

/** The findings of a plain (not recursive) validate of `dir`. */
const noManifest = (dir: string) => validateSkills([dir]).findings;

describe("classify", () => {
  test("a SKILL.md file is its folder's skill; a skill folder with other files is a skill", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "a/README.md": "x", "a/zz.txt": "x" });
    const a = path.join(base, "a");
    expect(classify(path.join(a, "SKILL.md"))).toEqual({ kind: "skill", dir: a });
    expect(classify(a)).toEqual({ kind: "skill", dir: a });
    expect(classify(base)).toEqual({ kind: "root", dir: base });
    // Through the public API: the file names its skill, which is checked.
    expect(validateSkills([path.join(a, "SKILL.md")])).toMatchObject({ ok: true, skills: 1, findings: [] });
    expect(validateSkills([a])).toMatchObject({ ok: true, skills: 1, findings: [] });
  });

  test("a folder without a SKILL.md, even an empty one, is a root", () => {
    const base = writeTree({ ".keep": "" });
    expect(classify(base)).toEqual({ kind: "root", dir: base });
    const empty = writeTree({});
    expect(classify(empty)).toEqual({ kind: "root", dir: empty });
  });

  test("a file other than SKILL.md, and a FIFO, are skipped with their own messages", () => {
    const base = writeTree({ "a/README.md": "x", pipe: { fifo: true }, "s/SKILL.md": skill("s") });
    const readme = path.join(base, "a", "README.md");
    const pipe = path.join(base, "pipe");
    expect(classify(readme)).toEqual({
      rule: "not-a-skill",
      file: readme,
      message: "is a file but not a SKILL.md; skipped",
    });
    expect(classify(pipe)).toEqual({
      rule: "not-a-skill",
      file: pipe,
      message: "is not a file or a directory; skipped",
    });
    // Beside a skill that was checked, such a path is a warning, and the run passes.
    const report = validateSkills([pipe, path.join(base, "s")]);
    expect(report.ok).toBe(true);
    expect(report.findings).toEqual([
      {
        severity: "warning",
        rule: "not-a-skill",
        file: pipe,
        message: "is not a file or a directory; skipped",
        hint: "give a skill directory, its SKILL.md, or a folder of skill directories",
      },
    ]);
  });

  // Audit D, finding 9: given alone, such a path also failed the run for "no skill directory was found
  // in it", as if it were a folder. Audit G, findings 3 and 4: as a root, a SKILL.md was told it is no
  // SKILL.md; and a SKILL.md that is a FIFO was "not a SKILL.md" given itself, "a FIFO" given its folder.
  test("a path given that is no folder fails the run for what it is, not for its contents", () => {
    const base = writeTree({
      "README.md": "x",
      pipe: { fifo: true },
      "s/SKILL.md": skill("s"),
      "f/SKILL.md": { fifo: true },
    });
    const hint = "give a skill directory, its SKILL.md, or a folder of skill directories";
    /** The no-manifest finding validate gives the path `name` of `base`: [message, hint]. */
    const nothing = (name: string, asRoots = false) => {
      const p = path.join(base, name);
      return validateSkills([p], { asRoots })
        .findings.filter((f) => f.rule === "no-manifest")
        .map((f) => [f.severity, f.file === p, f.message, f.hint]);
    };
    expect(nothing("README.md")).toEqual([
      ["error", true, "is a file but not a SKILL.md, so nothing was checked", hint],
    ]);
    expect(nothing("pipe")).toEqual([
      ["error", true, "is not a file or a directory, so nothing was checked", hint],
    ]);
    expect(nothing("s/SKILL.md", true)).toEqual([
      [
        "error",
        true,
        "is a file, not a folder of skill directories, so nothing was checked",
        "give a directory that holds skill directories",
      ],
    ]);
    // A SKILL.md that is a link, not followed: its folder's warning stays, and the error points to it.
    const linked = writeTree({ "real.md": skill("l"), "l/SKILL.md": { symlink: "../real.md" } });
    const link = path.join(linked, "l", "SKILL.md");
    const report = validateSkills([link], { followSymlinks: false });
    expect(report.findings.map((f) => [f.rule, f.file, f.message])).toEqual([
      ["not-a-skill", path.join(linked, "l"), "holds no SKILL.md; skipped"],
      [
        "no-manifest",
        link,
        "is a SKILL.md whose folder held no skill to check (see its finding), so nothing was checked",
      ],
    ]);
    // A FIFO named SKILL.md is its folder's skill, given either way: the same manifest-file finding.
    const fifo = path.join(base, "f", "SKILL.md");
    const verdict = (p: string) => {
      const r = validateSkills([p]);
      return [r.skills, r.findings.map((f) => [f.rule, f.file, f.message])];
    };
    expect(verdict(fifo)).toEqual(verdict(path.dirname(fifo)));
    expect(verdict(fifo)[1]).toEqual([["manifest-file", fifo, expect.stringContaining("FIFO")]]);
  });
});

describe("findSkillDirs", () => {
  test("files, links to files and dangling links are not folders to search", () => {
    const base = writeTree({
      "README.md": "x",
      "a/SKILL.md": skill("a"),
      "b/notes.txt": "x",
      f: { symlink: "README.md" },
      gone: { symlink: "nowhere" },
    });
    expect(findSkillDirs(base, true)).toEqual({ skills: [path.join(base, "a")], problems: [] });
    expect(findSkillDirs(base, false)).toEqual({ skills: [path.join(base, "a")], problems: [] });
  });

  test("a link to a sibling whose name extends the PATH's is outside it: read, never descended", () => {
    const base = writeTree({
      "repo/up": { symlink: "../repo-other" },
      "repo-other/deep/SKILL.md": skill("deep"),
      "repo/ext": { symlink: "../repo-skill" },
      "repo-skill/SKILL.md": skill("repo-skill"),
    });
    const repo = path.join(base, "repo");
    // The linked skill folder is checked where it is linked; the linked tree is not walked.
    expect(findSkillDirs(repo, true)).toEqual({ skills: [path.join(repo, "ext")], problems: [] });
    expect(findSkillDirs(repo, false)).toEqual({ skills: [], problems: [] });
  });

  test("a missing PATH holds nothing; a file is not a directory", () => {
    const base = writeTree({ "f.txt": "x" });
    expect(findSkillDirs(path.join(base, "none"), false)).toEqual({ skills: [], problems: [] });
    expect(findSkillDirs(path.join(base, "f.txt"), false)).toEqual({
      skills: [],
      problems: [{ path: path.join(base, "f.txt"), message: "is not a directory" }],
    });
  });
});

describe("findSkillDirs' bound on folders read", () => {
  // The bound is 100,000 folders; the parameter lets a test reach it with a handful.
  const tree = () =>
    writeTree({
      "a/.keep": "",
      "b/.keep": "",
      "c/.keep": "",
      "d/SKILL.md": skill("d"),
      "e/SKILL.md": skill("e"),
    });

  test("the folder past the bound is not read, and the walk says so once, naming PATH", () => {
    const base = tree();
    // top, a, b, c are read (4); d would be the fifth, e the sixth: one problem, not two.
    expect(findSkillDirs(base, false, 4)).toEqual({
      skills: [],
      problems: [{ path: base, message: "has over 4 folders; the rest were not searched" }],
    });
  });

  test("exactly at the bound every folder is read and nothing is reported", () => {
    const base = tree();
    expect(findSkillDirs(base, false, 6)).toEqual({
      skills: [path.join(base, "d"), path.join(base, "e")],
      problems: [],
    });
    expect(findSkillDirs(base, false, 5)).toEqual({
      skills: [path.join(base, "d")],
      problems: [{ path: base, message: "has over 5 folders; the rest were not searched" }],
    });
  });
});

describe("isNearMiss", () => {
  test("the name must end where the manifest's name does", () => {
    const no = ["skill.txt.bak", "skill.md.bak", "skills.yaml~", "skil.mdx", "skill.md", "SKILL.md"];
    expect(no.filter(isNearMiss)).toEqual([]);
  });

  test("no separator, and any number of l's, are still slips", () => {
    const yes = ["skillmd", "SKILLSYAML", "skilll.md", "SKILLLLS.md", "skills.md", "skil.md"];
    expect(yes.filter(isNearMiss)).toEqual(yes);
  });
});

describe("near misses: at most five, three folders down, files only", () => {
  const nearMissFinding = (dir: string, found: string) => ({
    severity: "error",
    rule: "no-manifest",
    file: dir,
    message: `no SKILL.md was found, so nothing was checked; found ${found}: a manifest must be named SKILL.md`,
    hint: "rename the file to SKILL.md",
  });

  test("the first five in sorted order are named, the sixth is not", () => {
    const base = writeTree({
      "a/SKILLS.md": "x",
      "b/SKILLS.md": "x",
      "c/SKILLS.md": "x",
      "d/SKILLS.md": "x",
      "e/SKILLS.md": "x",
      "f/SKILLS.md": "x",
    });
    const five = ["a", "b", "c", "d", "e"].map((d) => `"${d}/SKILLS.md"`).join(", ");
    expect(noManifest(base)).toEqual([nearMissFinding(base, five)]);
  });

  test("three folders down is searched, four is not", () => {
    const base = writeTree({ "a/b/c/skills.md": "x", "a/b/c/d/skills.md": "x" });
    expect(noManifest(base)).toEqual([nearMissFinding(base, '"a/b/c/skills.md"')]);
  });

  test("node_modules, .git, folders named like a manifest and symlinked folders give no near miss", () => {
    const base = writeTree({
      "node_modules/SKILLS.md": "x",
      ".git/SKILLS.md": "x",
      "x/skills.yaml/.keep": "",
      "elsewhere/SKILLS.md": "x",
      "top/link": { symlink: "../elsewhere" },
      "top/x": { symlink: "../x" },
    });
    const top = path.join(base, "top");
    const none = {
      severity: "error",
      rule: "no-manifest",
      message: "no skill directory (<name>/SKILL.md) was found in it, so nothing was checked",
      hint: "give the folder of skill directories, or a skill directory",
    };
    expect(noManifest(top)).toEqual([{ ...none, file: top }]);
    const modules = writeTree({
      "node_modules/SKILLS.md": "x",
      ".git/SKILLS.md": "x",
      "x/skills.yaml/.keep": "",
    });
    expect(noManifest(modules)).toEqual([{ ...none, file: modules }]);
  });

  test("a folder named SKILL.md is no deeper manifest either", () => {
    const base = writeTree({ "a/b/SKILL.md/.keep": "" });
    expect(noManifest(base)).toEqual([
      {
        severity: "error",
        rule: "no-manifest",
        file: base,
        message: "no skill directory (<name>/SKILL.md) was found in it, so nothing was checked",
        hint: "give the folder of skill directories, or a skill directory",
      },
    ]);
  });
});

describe("nothing checked: only an error under the same PATH stands in for it", () => {
  test("an error under a sibling PATH whose name extends this one does not", () => {
    const base = writeTree({ "a/.keep": "" });
    const a = path.join(base, "a");
    const ab = path.join(base, "ab");
    const report = validateSkills([a, ab]);
    expect(report.findings.map((f) => [path.relative(base, f.file), f.rule, f.severity])).toEqual([
      ["ab", "path-missing", "error"],
      ["a", "no-manifest", "error"],
    ]);
    const error = { rule: "unreadable", file: path.join(ab, "s", "SKILL.md"), message: "x" };
    expect(nothingChecked(ab, [error], false, false)).toBeUndefined();
    expect(nothingChecked(a, [error], false, false)?.rule).toBe("no-manifest");
    // A warning under the PATH does not stand in for the error.
    expect(nothingChecked(a, [{ rule: "no-skills", file: a, message: "x" }], false, false)?.rule).toBe(
      "no-manifest",
    );
  });

  test("every path lies under the root directory, which already ends with the separator", () => {
    const base = writeTree({ "a/.keep": "" });
    const error = { rule: "unreadable", file: path.join(base, "a", "s", "SKILL.md"), message: "x" };
    // Not read: the error stands in before the disk is looked at.
    expect(nothingChecked(path.sep, [error], true, false)).toBeUndefined();
  });
});

describe("a symlink the walk cannot follow is a walk-incomplete warning, never a throw (bug: ELOOP escaped)", () => {
  const cannot = (file: string, code: string) => ({
    severity: "warning",
    rule: "walk-incomplete",
    file,
    message: `cannot be read (${code})`,
    hint: "give a narrower PATH, or make the folder readable",
  });

  test("a self-referencing symlink below the PATH; the skills beside it are still checked", () => {
    const base = writeTree({
      "a/SKILL.md": skill("a"),
      "b/self": { symlink: "self" },
      loop: { symlink: "loop" },
    });
    const report = validateSkills([base], { recursive: true });
    expect([report.ok, report.skills, report.findings]).toEqual([
      true,
      1,
      [cannot(path.join(base, "b", "self"), "ELOOP"), cannot(path.join(base, "loop"), "ELOOP")],
    ]);
    // Not following symlinks, there is nothing to stat.
    expect(validateSkills([base], { recursive: true, followSymlinks: false }).findings).toEqual([]);
  });

  test("a symlink whose stat is refused", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "b/link": { symlink: "../a" } });
    setFaultHook((op, p) => {
      if (op === "stat" && p === path.join(base, "b", "link")) {
        throw Object.assign(new Error("denied"), { code: "EACCES" });
      }
    });
    try {
      expect(findSkillDirs(base, true)).toEqual({
        skills: [path.join(base, "a")],
        problems: [{ path: path.join(base, "b", "link"), message: "cannot be read (EACCES)" }],
      });
    } finally {
      setFaultHook(null);
    }
  });

  test("only symlinks are stat'ed: a plain file's stat is never asked", () => {
    const base = writeTree({ "a/SKILL.md": skill("a"), "b/notes.txt": "x", "b/link": { symlink: "../a" } });
    const asked: string[] = [];
    setFaultHook((op, p) => {
      if (op === "stat") asked.push(path.relative(base, p));
      if (op === "stat" && p === path.join(base, "b", "notes.txt")) {
        throw Object.assign(new Error("denied"), { code: "EACCES" });
      }
    });
    try {
      // The link leads to a, already read: each real folder is read once.
      expect(findSkillDirs(base, true)).toEqual({ skills: [path.join(base, "a")], problems: [] });
      expect(asked).toEqual(["", "b/link"]);
    } finally {
      setFaultHook(null);
    }
  });

  test("a PATH given as a root that is a symlink loop: the walk says so, and nothing was checked", () => {
    const base = writeTree({ self: { symlink: "self" } });
    const self = path.join(base, "self");
    expect(findSkillDirs(self, true)).toEqual({
      skills: [],
      problems: [{ path: self, message: "cannot be read (ELOOP)" }],
    });
    expect(validateSkills([self], { asRoots: true, recursive: true }).findings).toEqual([
      cannot(self, "ELOOP"),
      {
        severity: "error",
        rule: "no-manifest",
        file: self,
        message: "no SKILL.md was found at any depth below it, so nothing was checked",
        hint: "check the path: each skill is a folder holding a SKILL.md",
      },
    ]);
  });
});

describe("nothingChecked on a PATH it cannot stat", () => {
  test("a refusal means it is there: no 'does not exist'; a bug of ours is rethrown", () => {
    const base = writeTree({ "d/x.txt": "x" });
    const d = path.join(base, "d");
    const fail = (error: Error) =>
      setFaultHook((op, p) => {
        if (op === "stat" && p === d) throw error;
      });
    try {
      fail(Object.assign(new Error("denied"), { code: "EACCES" }));
      expect(nothingChecked(d, [], true, false)).toEqual({
        rule: "no-manifest",
        file: d,
        message: "no SKILL.md was found at any depth below it, so nothing was checked",
        hint: "check the path: each skill is a folder holding a SKILL.md",
      });
      fail(new TypeError("a bug"));
      expect(() => nothingChecked(d, [], true, false)).toThrow(TypeError);
    } finally {
      setFaultHook(null);
    }
    expect(nothingChecked(path.join(base, "none"), [], true, false)).toEqual({
      rule: "no-manifest",
      file: path.join(base, "none"),
      message: "does not exist, so nothing was checked",
      hint: "check --root, --workspace and --home: agent-skills roots shows where it looks",
    });
  });
});
