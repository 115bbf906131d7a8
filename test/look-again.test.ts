// The look again at a skill directory the last scan read a manifest in (scan.ts `look`, both drivers):
// its stat, then its manifest's, and what each failure or change hands to the generator. Every fs call
// of a refresh is recorded through the fault seam, so a stat taken twice, or an op out of order, shows.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { type AgentSkills, createAgentSkills, createAgentSkillsAsync } from "../src/index.js";
import { errnoError } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

const modes = {
  sync: {
    create: async (root: string) => createAgentSkills({ roots: [{ path: root }], onWarning: () => {} }),
    refresh: async (s: AgentSkills) => s.refresh(),
  },
  async: {
    create: (root: string) => createAgentSkillsAsync({ roots: [{ path: root }], onWarning: () => {} }),
    refresh: (s: AgentSkills) => s.refreshAsync(),
  },
};

/**
 * A root with skills `a` and `b`, settled and discovered, then refreshed once (so every directory's
 * own signature is known): the state a look again starts from.
 */
async function settled(mode: keyof typeof modes) {
  const root = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") });
  await pastTrustWindow(root);
  const s = await modes[mode].create(root);
  await modes[mode].refresh(s);
  return { root, s, a: path.join(root, "a"), file: path.join(root, "a", "SKILL.md") };
}

/** Run `refresh` recording each fs call; `act` runs before each and may throw a fault there. */
async function traced(run: () => Promise<unknown>, act: (op: string, p: string) => void = () => {}) {
  const calls: [string, string][] = [];
  setFaultHook((op, p) => {
    calls.push([op, p]);
    act(op, p);
  });
  try {
    await run();
  } finally {
    setFaultHook(null);
  }
  return calls;
}

const shown = (s: AgentSkills, root: string) => ({
  skills: s.listSkills().map((k) => k.name),
  warnings: s.warnings.map((w) => [w.code, w.message.replaceAll(root + path.sep, "")]),
});

describe.each(Object.keys(modes) as (keyof typeof modes)[])("%s refresh", (mode) => {
  const { refresh } = modes[mode];

  test("a directory whose stat fails is skipped with a warning, its manifest not looked at", async () => {
    const { root, s, a, file } = await settled(mode);
    const calls = await traced(
      () => refresh(s),
      (op, p) => {
        if (op === "stat" && p === a) throw errnoError("EACCES", op, p);
      },
    );
    expect(calls.filter(([, p]) => p === a || p === file)).toEqual([["stat", a]]);
    expect(shown(s, root)).toEqual({
      skills: ["b"],
      warnings: [["unreadable", "skill directory a cannot be read (EACCES); skipped"]],
    });
  });

  test("a directory whose listing changed is listed again with the stat already taken", async () => {
    const { root, s, a, file } = await settled(mode);
    fs.writeFileSync(path.join(a, "skill.md"), skill("a", "Lower."));
    // Set its times an hour ahead of the first signature, so that the change shows at any granularity.
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(a, later, later);
    const calls = await traced(() => refresh(s));
    const lower = path.join(a, "skill.md");
    // The directory is stat'ed once: the generator takes that stat over, lists, and reads the manifest
    // it chose (SKILL.md, the same file, stat'ed to reuse what was read).
    expect(calls.filter(([, p]) => p === a || p === file || p === lower)).toEqual([
      ["stat", a],
      ["readdir", a],
      ["stat", file],
    ]);
    expect(shown(s, root)).toEqual({
      skills: ["a", "b"],
      warnings: [["multiple_manifests", "a has several manifests (SKILL.md, skill.md); using SKILL.md"]],
    });
  });

  test("a manifest whose stat fails is handed to the generator, which tells the failure", async () => {
    const { root, s, a, file } = await settled(mode);
    const calls = await traced(
      () => refresh(s),
      (op, p) => {
        if (op === "stat" && p === file) throw errnoError("EIO", op, p);
      },
    );
    // The look again stats the directory and the manifest; the generator, given the directory's stat,
    // stats the manifest again, meets the same failure, and makes it the candidate's outcome.
    expect(calls.filter(([, p]) => p === a || p === file)).toEqual([
      ["stat", a],
      ["stat", file],
      ["stat", file],
    ]);
    expect(shown(s, root)).toEqual({
      skills: ["b"],
      warnings: [["invalid_skill", "a/SKILL.md: cannot be read (EIO); skipped"]],
    });
  });

  test("a manifest edited in place (same directory signature) is read again, the directory not listed", async () => {
    const { root, s, a, file } = await settled(mode);
    fs.writeFileSync(file, skill("a", "Edited in place, a longer description."));
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(file, later, later);
    const calls = await traced(() => refresh(s));
    expect(calls.filter(([, p]) => p === a || p === file)).toEqual([
      ["stat", a],
      ["stat", file],
      ["readManifest", file],
    ]);
    expect(s.getSkill("a")?.description).toBe("Edited in place, a longer description.");
    expect(shown(s, root).warnings).toEqual([]);
  });
});
