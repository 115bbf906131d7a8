// SPEC §10 and issue 10: the warn sink's stderr default, onWarning, SkillContent.warnings, re-entrant
// sinks, messages safe to print, and detached instance methods.
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { printable } from "../src/errors.js";
import {
  createAgentSkills,
  createAgentSkillsAsync,
  SkillError,
  type SkillWarning,
  StartupError,
  setWarnSink,
  validateSkills,
} from "../src/index.js";
import { emit } from "../src/warnings.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setWarnSink(() => {}));

// biome-ignore lint/suspicious/noControlCharactersInRegex: detecting control characters is the point.
const CONTROL = /[\x00-\x1f\x7f-\x9f\u202e]/;

const DIST = path.resolve(import.meta.dirname, "../dist/index.js");

/** Run `code` in a fresh Node process with the built package as `lib` and `root` set; gives its stdout. */
function child(code: string, root: string): string {
  const script = `const lib = await import(${JSON.stringify(DIST)}); const root = ${JSON.stringify(root)};\n${code}`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
}

describe("the default sink is stderr", () => {
  test("one line per warning, `agent-skills: warning: <code>: <message>`, controls escaped; null restores it", () => {
    const root = writeTree({ "bad\x1b[2Jdir/SKILL.md": "no fence", "ok/SKILL.md": skill("ok") });
    const run = (code: string) =>
      child(
        `const writes = []; process.stderr.write = (s) => { writes.push(String(s)); return true; };\n${code}\nprocess.stdout.write(JSON.stringify(writes));`,
        root,
      );
    const expected = `agent-skills: warning: invalid_skill: ${root}/bad\\x1b[2Jdir/SKILL.md:1: does not start with a --- frontmatter fence; skipped\n`;
    expect(JSON.parse(run("lib.createAgentSkills({ roots: [{ path: root }] });"))).toEqual([expected]);
    expect(
      JSON.parse(
        run(
          "lib.setWarnSink(() => {}); lib.createAgentSkills({ roots: [{ path: root }] }); lib.setWarnSink(null); lib.createAgentSkills({ roots: [{ path: root }] });",
        ),
      ),
    ).toEqual([expected]);
    expect(
      JSON.parse(run("lib.setWarnSink(() => {}); lib.createAgentSkills({ roots: [{ path: root }] });")),
    ).toEqual([]);
  });
});

test("the default sink escapes the controls of any message it is handed, not only the library's own", () => {
  setWarnSink(null);
  const writes: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown) => writes.push(String(chunk)) > 0) as typeof write;
  try {
    emit([{ code: "invalid_skill", message: "a\x1b[2Jb\nc" } as SkillWarning]);
  } finally {
    process.stderr.write = write;
  }
  expect(writes).toEqual(["agent-skills: warning: invalid_skill: a\\x1b[2Jb\\x0ac\n"]);
});

describe("onWarning", () => {
  const tree = () => writeTree({ "x/SKILL.md": "nope", "ok/SKILL.md": skill("ok") });

  test("receives the instance's scan and loadSkill warnings; the global sink sees none of them", async () => {
    const root = writeTree({
      "x/SKILL.md": "nope",
      "ok/SKILL.md": skill("ok"),
      "ok/out": { symlink: "/" },
    });
    const global: SkillWarning[] = [];
    setWarnSink((w) => global.push(w));
    const own: SkillWarning[] = [];
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: (w) => own.push(w) });
    expect(own.map((w) => w.code)).toEqual(["invalid_skill"]);
    const content = s.loadSkill("ok");
    expect(own.map((w) => w.code)).toEqual(["invalid_skill", "resource_skipped"]);
    expect(content?.warnings).toEqual([own[1]]);
    expect(Object.isFrozen(content?.warnings)).toBe(true);
    const a = await createAgentSkillsAsync({ roots: [{ path: root }], onWarning: (w) => own.push(w) });
    expect(a.warnings).toHaveLength(1);
    expect(own).toHaveLength(3);
    expect(global).toEqual([]);
  });

  test("without it, the global sink gets them, and a loadSkill without warnings carries none", () => {
    const root = tree();
    const global: SkillWarning[] = [];
    setWarnSink((w) => global.push(w));
    const s = createAgentSkills({ roots: [{ path: root }] });
    expect(global.map((w) => w.code)).toEqual(["invalid_skill"]);
    expect(s.loadSkill("ok")?.warnings).toEqual([]);
  });

  test("validateSkills sends its discovery warnings to onWarning, else to the global sink", () => {
    const root = tree();
    const global: SkillWarning[] = [];
    setWarnSink((w) => global.push(w));
    const own: SkillWarning[] = [];
    const report = validateSkills([root], { onWarning: (w) => own.push(w) });
    expect(report.findings.map((f) => f.rule)).toEqual(["frontmatter-fence"]);
    expect(own.map((w) => [w.code, w.path])).toEqual([["invalid_skill", path.join(root, "x", "SKILL.md")]]);
    expect(global).toEqual([]);
    validateSkills([path.join(root, "x")]);
    expect(global.map((w) => w.code)).toEqual(["invalid_skill"]);
  });

  test("a value that is not a function is a StartupError naming the option", async () => {
    const root = tree();
    const bad = { roots: [{ path: root }], onWarning: "stderr" as never };
    expect(() => createAgentSkills(bad)).toThrow(
      new StartupError('option "onWarning" must be a function, received "stderr"'),
    );
    await expect(createAgentSkillsAsync(bad)).rejects.toThrow(StartupError);
    expect(() => validateSkills([root], { onWarning: 1 as never })).toThrow(StartupError);
    expect(() => setWarnSink(1 as never)).toThrow(
      new StartupError("setWarnSink expects a function or null, received number 1"),
    );
    // Audit H, finding 5: the value is named, not only its type.
    expect(() => createAgentSkills({ roots: [{ path: root }], onWarning: null as never })).toThrow(
      new StartupError('option "onWarning" must be a function, received null'),
    );
  });

  // Audit H, finding 7: the scan finished, then the unhandled rejection ended the process.
  test("an async sink that rejects is dropped like one that throws: the scan and the process go on", async () => {
    const root = tree();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const skills = createAgentSkills({
        roots: [{ path: root }],
        onWarning: async () => {
          throw new Error("sink down");
        },
      });
      expect(skills.warnings.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("a sink that refreshes", () => {
  test("refresh() from inside the instance's sink is refused, never recursed into", () => {
    const root = writeTree({ "x/SKILL.md": "nope", "y/SKILL.md": "nope too" });
    let calls = 0;
    const refusals: unknown[] = [];
    const holder: { s?: ReturnType<typeof createAgentSkills> } = {};
    setWarnSink(() => {
      calls++;
      // Bounded here so that a recursing library fails the assertion below instead of running for ever.
      if (calls > 20 || holder.s === undefined) return;
      try {
        holder.s.refresh();
      } catch (e) {
        refusals.push(e);
      }
    });
    holder.s = createAgentSkills({ roots: [{ path: root }] });
    calls = 0;
    holder.s.refresh();
    expect(calls).toBe(2);
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toBeInstanceOf(SkillError);
    expect((refusals[0] as SkillError).code).toBe("invalid_input");
    expect((refusals[0] as SkillError).message).toContain("refresh() was called from inside a warn sink");
    // Outside the sink, refresh works again.
    expect(holder.s.refresh()).toEqual({ added: [], removed: [], changed: [] });
  });

  test("refreshAsync() from inside a sink is queued after the running scan, not nested in it", async () => {
    const root = writeTree({ "x/SKILL.md": "nope", "ok/SKILL.md": skill("ok") });
    const pending: Promise<unknown>[] = [];
    let calls = 0;
    const holder: { s?: Awaited<ReturnType<typeof createAgentSkillsAsync>> } = {};
    holder.s = await createAgentSkillsAsync({
      roots: [{ path: root }],
      onWarning: () => {
        calls++;
        if (calls === 2 && holder.s !== undefined) pending.push(holder.s.refreshAsync());
      },
    });
    await holder.s.refreshAsync();
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(calls).toBe(3);
  });
});

describe("messages are safe to print; path and skill stay exact", () => {
  test("printable escapes C0, DEL, C1, line separators, bidi controls and lone surrogates visibly, and is idempotent", () => {
    const raw = "a\x1b[31mb\x07c\rd\ne\x7ff\x9bg\u2028h\u202ei\u2066j\ud800k\\x1b";
    const safe = "a\\x1b[31mb\\x07c\\x0dd\\x0ae\\x7ff\\x9bg\\u2028h\\u202ei\\u2066j\\ud800k\\x1b";
    expect(printable(raw)).toBe(safe);
    expect(printable(safe)).toBe(safe);
    expect(printable("plain ünïcode 😀 text")).toBe("plain ünïcode 😀 text");
  });

  test("warnings and errors escape the controls of names and paths in their message only", () => {
    const dir = "e\x1b]0;owned\x07vil\u202e";
    const root = writeTree({ [`${dir}/SKILL.md`]: manifest("name: ok\ndescription: d"), "z/SKILL.md": "x" });
    const seen: SkillWarning[] = [];
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: (w) => seen.push(w) });
    const mismatch = seen.find((w) => w.code === "name_mismatch");
    expect(mismatch?.path).toBe(path.join(root, dir, "SKILL.md"));
    expect(mismatch?.message).toContain("e\\x1b]0;owned\\x07vil\\u202e");
    for (const w of seen) expect(w.message).not.toMatch(CONTROL);
    let error: unknown;
    try {
      s.resourcePath("ok", "a\x1b[2J\x9b");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).message).not.toMatch(CONTROL);
    expect((error as SkillError).message).toContain("\\x9b");
    expect((error as SkillError).path).toBe(path.join(root, dir, "a\x1b[2J\x9b"));
  });
});

describe("detached instance methods", () => {
  test("every method works when taken off the instance", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "a/r.txt": "x" });
    const s = createAgentSkills({ roots: [{ path: root }] });
    const { listSkills, getSkill, loadSkill, resourcePath, explain, refresh, refreshAsync } = s;
    expect(listSkills().map((x) => x.name)).toEqual(["a"]);
    expect(getSkill("a")?.name).toBe("a");
    expect(loadSkill("a")?.resources).toEqual(["r.txt"]);
    expect(resourcePath("a", "r.txt")).toBe(path.join(root, "a", "r.txt"));
    expect(explain("a").map((c) => c.verdict)).toEqual(["winner"]);
    expect(refresh().added).toEqual([]);
    expect((await refreshAsync()).added).toEqual([]);
  });
});

test("explain reasons are safe to print too; dir and path stay exact", () => {
  const dir = "a\x1b[2Jb";
  const root = writeTree({
    [`${dir}/SKILL.md`]: "no fence",
    [`${dir}2/SKILL.md`]: manifest("name: k\ndescription: d"),
  });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  const [invalid] = skills.explain(dir);
  expect(invalid?.path).toBe(path.join(root, dir, "SKILL.md"));
  expect(invalid?.reason).toBe(`${root}/a\\x1b[2Jb/SKILL.md:1: does not start with a --- frontmatter fence`);
});
