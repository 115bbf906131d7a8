// Files that change during a scan, at the exact moment between two fs calls: the scan completes, the next refresh is right.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import {
  type AgentSkills,
  createAgentSkills,
  createAgentSkillsAsync,
  type RefreshResult,
} from "../src/index.js";
import { actAt } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

interface View {
  skills: [string, string][];
  warnings: [string, string][];
}

/** What a caller sees: names with descriptions, and warnings with paths made relative to the root. */
function view(skills: AgentSkills, root: string): View {
  return {
    skills: skills.listSkills().map((s) => [s.name, s.description]),
    warnings: skills.warnings.map((w) => [w.code, w.message.replaceAll(root + path.sep, "")]),
  };
}

const modes = {
  sync: {
    create: async (root: string) => createAgentSkills({ roots: [{ path: root }] }),
    refresh: async (skills: AgentSkills) => skills.refresh(),
  },
  async: {
    create: (root: string) => createAgentSkillsAsync({ roots: [{ path: root }] }),
    refresh: (skills: AgentSkills) => skills.refreshAsync(),
  },
};

/**
 * Discover `a`, `b`, `c` while `act` runs just before the fs call `op` on `rel`; then refresh twice
 * (the second after `settle`, a further change) and compare each with a fresh discovery.
 */
async function scenario(
  mode: keyof typeof modes,
  op: string,
  rel: string,
  act: (root: string) => void,
  settle: (root: string) => void = () => {},
): Promise<{
  during: View;
  after: View;
  result: RefreshResult;
  settled: View;
  settledResult: RefreshResult;
}> {
  const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), "c/SKILL.md": skill("c") });
  const { create, refresh } = modes[mode];
  actAt(op, path.join(root, rel), () => act(root));
  const skills = await create(root);
  setFaultHook(null);
  const during = view(skills, root);
  const result = await refresh(skills);
  const after = view(skills, root);
  expect(after, "the refresh after the change equals a fresh discovery").toEqual(
    view(await create(root), root),
  );
  settle(root);
  const settledResult = await refresh(skills);
  const settled = view(skills, root);
  expect(settled, "a later refresh equals a fresh discovery").toEqual(view(await create(root), root));
  return { during, after, result, settled, settledResult };
}

const NONE = { added: [], removed: [], changed: [] };
const ALL = [
  ["a", "The a skill."],
  ["b", "The b skill."],
  ["c", "The c skill."],
];
const WITHOUT_B = [ALL[0], ALL[2]];

/** Replace `file` the way editors and package managers do: write beside it, rename over it. */
function replace(file: string, content: string): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

describe.each(Object.keys(modes) as (keyof typeof modes)[])("%s scan", (mode) => {
  test("a skill dir removed after the root was listed: a warning, the rest loads", async () => {
    const r = await scenario(mode, "readdir", "b", (root) =>
      fs.rmSync(path.join(root, "b"), { recursive: true }),
    );
    expect(r.during).toEqual({
      skills: WITHOUT_B,
      warnings: [["unreadable", "skill directory b cannot be read (ENOENT); skipped"]],
    });
    expect(r.after).toEqual({ skills: WITHOUT_B, warnings: [] });
    expect(r.result).toEqual(NONE);
  });

  test("a skill dir replaced by a file after the root was listed", async () => {
    const r = await scenario(mode, "readdir", "b", (root) => {
      fs.rmSync(path.join(root, "b"), { recursive: true });
      fs.writeFileSync(path.join(root, "b"), "now a file");
    });
    expect(r.during.warnings).toEqual([
      ["unreadable", "skill directory b cannot be read (ENOTDIR); skipped"],
    ]);
    expect(r.after).toEqual({ skills: WITHOUT_B, warnings: [] });
  });

  test("the root removed in the middle of the scan", async () => {
    const r = await scenario(mode, "readdir", "b", (root) => fs.rmSync(root, { recursive: true }));
    // a's manifest may have been read before: never in the sync scan, which lists every directory of a
    // root before it reads a manifest; by timing, in the async one.
    const seen = r.during.skills.map(([name]) => name);
    expect(seen).toEqual(mode === "sync" ? [] : expect.toBeOneOf([[], ["a"]]));
    if (mode === "sync")
      expect(r.during.warnings).toContainEqual([
        "unreadable",
        "manifest a/SKILL.md vanished during the scan (ENOENT); skipped",
      ]);
    expect(r.during.warnings).toContainEqual([
      "unreadable",
      "skill directory b cannot be read (ENOENT); skipped",
    ]);
    expect(r.after).toEqual({ skills: [], warnings: [] });
    expect(r.result).toEqual({ added: [], removed: seen, changed: [] });
  });

  test("a manifest removed between readdir and read", async () => {
    const r = await scenario(mode, "readManifest", "b/SKILL.md", (root) =>
      fs.rmSync(path.join(root, "b/SKILL.md")),
    );
    expect(r.during).toEqual({
      skills: WITHOUT_B,
      warnings: [["unreadable", "manifest b/SKILL.md vanished during the scan (ENOENT); skipped"]],
    });
    // Without a manifest, b is no skill at all: no warning.
    expect(r.after).toEqual({ skills: WITHOUT_B, warnings: [] });
  });

  test("a manifest truncated between readdir and read, then written whole again", async () => {
    const r = await scenario(
      mode,
      "readManifest",
      "b/SKILL.md",
      (root) => fs.truncateSync(path.join(root, "b/SKILL.md"), 10),
      (root) => fs.writeFileSync(path.join(root, "b/SKILL.md"), skill("b", "Whole again.")),
    );
    const broken = ["invalid_skill", "b/SKILL.md:1: has no closing --- fence for its frontmatter; skipped"];
    expect(r.during).toEqual({ skills: WITHOUT_B, warnings: [broken] });
    expect(r.after).toEqual({ skills: WITHOUT_B, warnings: [broken] });
    expect(r.settled.skills).toEqual([ALL[0], ["b", "Whole again."], ALL[2]]);
    expect(r.settledResult).toEqual({ added: ["b"], removed: [], changed: [] });
  });

  test("a manifest replaced by a broken one between readdir and read, then by a good one", async () => {
    const r = await scenario(
      mode,
      "readManifest",
      "b/SKILL.md",
      (root) => replace(path.join(root, "b/SKILL.md"), "# just markdown\n"),
      (root) => replace(path.join(root, "b/SKILL.md"), skill("b", "Replaced.")),
    );
    const broken = ["invalid_skill", "b/SKILL.md:1: does not start with a --- frontmatter fence; skipped"];
    expect(r.during).toEqual({ skills: WITHOUT_B, warnings: [broken] });
    expect(r.after).toEqual({ skills: WITHOUT_B, warnings: [broken] });
    expect(r.settled.skills).toEqual([ALL[0], ["b", "Replaced."], ALL[2]]);
  });

  test("a manifest replaced by another skill's between readdir and read: the new one is served", async () => {
    const r = await scenario(mode, "readManifest", "b/SKILL.md", (root) =>
      replace(path.join(root, "b/SKILL.md"), skill("b2")),
    );
    const mismatch = [
      "name_mismatch",
      'b/SKILL.md: name "b2" differs from its directory "b"; loaded as "b2"',
    ];
    expect(r.during).toEqual({ skills: [ALL[0], ["b2", "The b2 skill."], ALL[2]], warnings: [mismatch] });
    expect(r.result).toEqual(NONE);
  });
});

test("a manifest changed after refresh checked it: that refresh serves the snapshot it saw, the next one the change", async () => {
  const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), "c/SKILL.md": skill("c") });
  const skills = createAgentSkills({ roots: [{ path: root }] });
  // The sync scan is sequential: b's manifest is stat'ed (and found unchanged) before c's dir is read.
  actAt("readdir", path.join(root, "c"), () =>
    replace(path.join(root, "b/SKILL.md"), skill("b", "Changed.")),
  );
  expect(skills.refresh()).toEqual(NONE);
  expect(skills.getSkill("b")?.description).toBe("The b skill.");
  setFaultHook(null);
  expect(skills.refresh()).toEqual({ added: [], removed: [], changed: ["b"] });
  expect(skills.getSkill("b")?.description).toBe("Changed.");
  expect(skills.loadSkill("b")?.body).toBe("Body.");
});
