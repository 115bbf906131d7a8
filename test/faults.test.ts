// Errno faults injected through the fs module at every call site: reported with path and errno, the rest completes.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { lstatSync, setFaultHook, statSync } from "../src/fsx.js";
import {
  type AgentSkills,
  createAgentSkills,
  createAgentSkillsAsync,
  SkillError,
  type SkillInfo,
  type SkillWarning,
  StartupError,
  setWarnSink,
} from "../src/index.js";
import { callSites, failAt } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

const ERRNOS = ["EACCES", "EIO", "EMFILE", "ENOTDIR", "ELOOP"] as const;

afterEach(() => {
  setFaultHook(null);
  setWarnSink(null);
});

describe("the fault seam", () => {
  test.each([
    ["stat", statSync],
    ["lstat", lstatSync],
  ] as const)("an injected fault at %s takes the same path as a real one", (op, call) => {
    const file = path.join(writeTree({ "f.txt": "x" }), "f.txt");
    failAt(op, file, "ENOTDIR");
    expect(call(file)).toBeUndefined();
    failAt(op, file, "EIO");
    expect(() => call(file)).toThrow(expect.objectContaining({ code: "EIO", path: file }));
  });
});

describe("resources when the file system fails", () => {
  const tree = () =>
    writeTree({ "s/SKILL.md": skill("s"), "s/a.txt": "a", "s/link.txt": { symlink: "a.txt" } });

  test.each([
    ["stat", true],
    ["lstat", false],
  ] as const)(
    "resourcePath: an error at %s of the target is not_found naming the path and errno",
    (op, follow) => {
      const root = tree();
      const skills = createAgentSkills({ roots: [{ path: root }], followSymlinks: follow });
      const file = path.join(root, "s", "a.txt");
      failAt(op, file, "EIO");
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(
        expect.objectContaining({
          name: "SkillError",
          code: "not_found",
          message: expect.stringContaining(file),
        }),
      );
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(/\(EIO\)/);
      failAt(op, file, "ENOTDIR");
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(SkillError);
      expect(() => skills.resourcePath("s", "a.txt")).toThrow(`does not exist: ${file}`);
    },
  );

  test.each([
    ["EIO", "cannot be read (EIO)"],
    ["ENOTDIR", "does not exist"],
  ])("loadSkill: a symlink whose target fails at stat with %s is left out with a warning", (code, words) => {
    const root = tree();
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const warnings: SkillWarning[] = [];
    setWarnSink((w) => warnings.push(w));
    failAt("stat", path.join(root, "s", "a.txt"), code);
    expect(skills.loadSkill("s")?.resources).toEqual(["a.txt"]);
    const link = path.join(root, "s", "link.txt");
    expect(warnings).toEqual([
      {
        code: "resource_skipped",
        message: `symlink ${link}: its target ${path.join(root, "s", "a.txt")} ${words}; not listed`,
        path: link,
        skill: "s",
      },
    ]);
  });
});

test.each(["EACCES", "EIO"])(
  "a %s fault on the workspace is a StartupError naming it and the errno",
  (code) => {
    const ws = writeTree({ "r/s/SKILL.md": skill("s") });
    failAt("stat", ws, code);
    expect(() => createAgentSkills({ roots: [{ path: "r" }], workspace: ws })).toThrow(StartupError);
    expect(() => createAgentSkills({ roots: [{ path: "r" }], workspace: ws })).toThrow(
      new RegExp(`"${ws}".*${code}`),
    );
  },
);

/**
 * Two roots (and a missing one) with every shape discovery and resources handle: a plain skill with
 * files, a nested dir, an in-tree file symlink and dir symlink; a symlinked skill dir; a symlinked
 * manifest; a skill that a later root overrides.
 */
function fixture(): string[] {
  const ws = writeTree({
    "r1/alpha/SKILL.md": skill("alpha", "First alpha."),
    "r1/beta": { symlink: "../store/beta" },
    "r1/gamma/SKILL.md": { symlink: "../../store/gamma.md" },
    "r1/gamma/notes.txt": "notes",
    "r2/alpha/SKILL.md": skill("alpha", "Second alpha."),
    "r2/alpha/ref.md": "ref",
    "r2/alpha/docs/guide.md": "guide",
    "r2/alpha/link.md": { symlink: "ref.md" },
    "r2/alpha/linked-docs": { symlink: "docs" },
    "r2/delta/SKILL.md": skill("delta"),
    "store/beta/SKILL.md": skill("beta"),
    "store/beta/data/x.json": "{}",
    "store/gamma.md": skill("gamma"),
  });
  return ["r0", "r1", "r2"].map((r) => path.join(ws, r));
}

interface Outcome {
  catalog: Map<string, SkillInfo>;
  resources: Map<string, readonly string[]>;
  warnings: SkillWarning[];
  /** The SkillErrors resourcePath threw. */
  refusals: SkillError[];
  /** Anything else thrown: must stay empty. */
  crashes: unknown[];
}

/** Discover, refresh (so unchanged manifests take the cached path), load every skill, resolve every resource. */
function workload(roots: string[], followSymlinks: boolean): Outcome {
  const out: Outcome = { catalog: new Map(), resources: new Map(), warnings: [], refusals: [], crashes: [] };
  setWarnSink((w) => out.warnings.push(w));
  let skills: AgentSkills;
  try {
    skills = createAgentSkills({ roots: roots.map((p) => ({ path: p })), followSymlinks });
    skills.refresh();
  } catch (e) {
    out.crashes.push(e);
    return out;
  }
  for (const info of skills.listSkills()) {
    out.catalog.set(info.name, info);
    try {
      const resources = skills.loadSkill(info.name)?.resources ?? [];
      out.resources.set(info.name, resources);
      for (const rel of resources) {
        try {
          skills.resourcePath(info.name, rel);
        } catch (e) {
          if (e instanceof SkillError) out.refusals.push(e);
          else out.crashes.push(e);
        }
      }
    } catch (e) {
      out.crashes.push(e);
    }
  }
  return out;
}

/** A skill may be lost, or its resources change, only when the faulted path is its root, its dir or inside it. */
function affected(info: SkillInfo, p: string): boolean {
  const real = fs.realpathSync(info.dir);
  return p === info.root || [info.dir, real].some((d) => p === d || p.startsWith(d + path.sep));
}

/**
 * Whether a warning or a refusal names `p` and `code`. The fs module takes ENOTDIR for "nothing
 * there" (stat and lstat answer undefined; a root below a file does not exist): for it, words saying
 * the path is missing or not a directory do, and a root that truly does not exist stays silent (SPEC §4).
 */
function reported(out: Outcome, code: string, p: string): boolean {
  const why = code === "ENOTDIR" ? /ENOTDIR|does not exist|is not a directory/ : new RegExp(code);
  const names = (m: string, at?: string) => why.test(m) && (at === p || m.includes(p));
  return (
    out.warnings.some((w) => names(w.message, w.path)) ||
    out.refusals.some((e) => names(e.message, e.path)) ||
    (code === "ENOTDIR" && !fs.existsSync(p))
  );
}

describe.each([true, false])("an errno fault at every fs call site (followSymlinks %s)", (follow) => {
  test.each(ERRNOS)("%s is reported with its path, and the rest completes", (code) => {
    const roots = fixture();
    const baseline = workload(roots, follow);
    expect(baseline.crashes).toEqual([]);
    expect(baseline.refusals).toEqual([]);
    expect([...baseline.catalog.keys()]).toEqual(
      follow ? ["alpha", "beta", "delta", "gamma"] : ["alpha", "delta"],
    );
    const sites = callSites(() => workload(roots, follow));
    const ops = new Set(sites.map(([op]) => op));
    expect([...ops].sort()).toEqual(
      follow
        ? ["readManifest", "readdir", "realpath", "stat"]
        : ["lstat", "readManifest", "readdir", "realpath", "stat"],
    );
    const failures: string[] = [];
    for (const [op, p] of sites) {
      failAt(op, p, code);
      const out = workload(roots, follow);
      setFaultHook(null);
      const where = `${op} ${p}`;
      if (out.crashes.length > 0) failures.push(`${where}: threw ${String(out.crashes[0])}`);
      if (!reported(out, code, p)) failures.push(`${where}: no warning or error names the path and ${code}`);
      for (const [name, info] of baseline.catalog) {
        if (affected(info, p)) continue;
        if (out.catalog.get(name)?.dir !== info.dir) failures.push(`${where}: lost skill ${name}`);
        else if (String(out.resources.get(name)) !== String(baseline.resources.get(name)))
          failures.push(`${where}: resources of ${name} changed`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** The catalog as names and dirs, and the warnings, of a scan: what sync and async must agree on. */
function summary(skills: AgentSkills): unknown {
  return { skills: skills.listSkills().map((s) => [s.name, s.dir]), warnings: skills.warnings };
}

describe.each(ERRNOS)("a %s fault during discovery", (code) => {
  test("gives the same catalog and warnings through the async scan", async () => {
    const roots = fixture().map((p) => ({ path: p }));
    const sites = callSites(() => createAgentSkills({ roots }).refresh());
    expect(sites.length).toBeGreaterThan(10);
    for (const [op, p] of sites) {
      failAt(op, p, code);
      const sync = createAgentSkills({ roots });
      sync.refresh();
      const async = await createAgentSkillsAsync({ roots });
      await async.refreshAsync();
      expect(summary(async), `${op} ${p}`).toEqual(summary(sync));
    }
  });

  test("under strict, throws invalid_skill naming the manifest and errno, or completes; refresh keeps the snapshot", async () => {
    const roots = fixture().map((p) => ({ path: p }));
    // Past the trust window (100 ms; 2 s on whole-second timestamps), refresh stats unchanged manifests
    // instead of reading them again.
    await pastTrustWindow(roots[2]?.path ?? "");
    const sites = callSites(() => createAgentSkills({ roots, strict: true }).refresh());
    const rel = (p: string) => path.relative(path.dirname(roots[0]?.path ?? ""), p);
    const manifests = ["r1/alpha", "r1/beta", "r1/gamma", "r2/alpha", "r2/delta"];
    // Every site is faulted below, the manifests' stats among them: for ENOTDIR and ELOOP nothing is
    // thrown, which proves something only if these faults were made.
    expect(sites).toHaveLength(29);
    expect(sites.filter(([op, p]) => op === "stat" && p.endsWith("SKILL.md")).map(([, p]) => rel(p))).toEqual(
      manifests.map((d) => `${d}/SKILL.md`),
    );
    const thrown: string[] = [];
    for (const [op, p] of sites) {
      const good = createAgentSkills({ roots, strict: true });
      failAt(op, p, code);
      let error: unknown;
      try {
        good.refresh();
      } catch (e) {
        error = e;
      }
      setFaultHook(null);
      if (error === undefined) continue;
      expect(good.listSkills().map((s) => s.name)).toEqual(["alpha", "beta", "delta", "gamma"]);
      expect(error).toBeInstanceOf(SkillError);
      expect(error).toMatchObject({
        code: "invalid_skill",
        path: p,
        message: `${p}: cannot be read (${code})`,
      });
      thrown.push(`${op} ${rel(p)}`);
    }
    // Refresh re-reads no unchanged manifest, it only stats them. Only a manifest that is there and
    // cannot be read is a broken skill; ENOTDIR and ELOOP say it is not there (a warning, no throw).
    const expected = ["EACCES", "EIO", "EMFILE"].includes(code)
      ? manifests.map((d) => `stat ${d}/SKILL.md`)
      : [];
    expect(thrown).toEqual(expected);
  });
});
