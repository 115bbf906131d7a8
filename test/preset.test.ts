import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  agentsSkillRoots,
  clarvisSkillRoots,
  claudeSkillRoots,
  createAgentSkills,
  type PresetOptions,
  type SkillRootInput,
} from "../src/index.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";

type Preset = (opts?: PresetOptions) => SkillRootInput[];

/** Each preset's roots, ascending: [base, folder, scope, source]. */
const PRESETS: [string, Preset, ["home" | "ws", string, "user" | "workspace", string][]][] = [
  [
    "clarvis",
    clarvisSkillRoots,
    [
      ["home", ".agents", "user", "agents"],
      ["ws", ".agents", "workspace", "agents"],
      ["home", ".clarvis", "user", "clarvis"],
      ["ws", ".clarvis", "workspace", "clarvis"],
    ],
  ],
  [
    "agents",
    agentsSkillRoots,
    [
      ["home", ".agents", "user", "agents"],
      ["ws", ".agents", "workspace", "agents"],
    ],
  ],
  [
    "claude",
    claudeSkillRoots,
    [
      ["home", ".claude", "user", "claude"],
      ["ws", ".claude", "workspace", "claude"],
    ],
  ],
];

function expected(rows: (typeof PRESETS)[number][2], ws: string, home: string): SkillRootInput[] {
  return rows.map(([base, folder, scope, source]) => ({
    path: path.join(base === "home" ? home : ws, folder, "skills"),
    scope,
    source,
  }));
}

describe.each(PRESETS)("%sSkillRoots", (_, preset, rows) => {
  test("gives the roots in ascending precedence for an absolute workspace and home", () => {
    const ws = path.resolve("/srv/project");
    const home = path.resolve("/home/ada");
    expect(preset({ workspace: ws, home })).toEqual(expected(rows, ws, home));
  });

  test("resolves a relative workspace and home against cwd", () => {
    const cwd = path.resolve("/work/here");
    expect(preset({ cwd, workspace: "proj", home: "../me" })).toEqual(
      expected(rows, path.join(cwd, "proj"), path.resolve(cwd, "../me")),
    );
  });

  test("defaults the workspace to cwd, cwd to process.cwd() and home to os.homedir()", () => {
    const cwd = path.resolve("/work/here");
    expect(preset({ cwd })).toEqual(expected(rows, cwd, os.homedir()));
    expect(preset()).toEqual(expected(rows, process.cwd(), os.homedir()));
  });

  test("normalizes the paths it is given and returns a fresh array each call", () => {
    const first = preset({ workspace: "/a/./b/../ws/", home: "/h//me" });
    expect(first).toEqual(expected(rows, path.resolve("/a/ws"), path.resolve("/h/me")));
    first.pop();
    expect(preset({ workspace: "/a/ws", home: "/h/me" })).toHaveLength(rows.length);
  });
});

describe("precedence through createAgentSkills on real folders", () => {
  /** A home and a workspace whose every preset folder holds a `review` skill naming where it lives. */
  function layout(): { home: string; ws: string } {
    const home = tempDir();
    const ws = tempDir();
    for (const [base, label] of [
      [home, "user"],
      [ws, "workspace"],
    ] as const)
      for (const folder of [".agents", ".clarvis", ".claude"])
        writeTree({ [`${folder}/skills/review/SKILL.md`]: skill("review", `${label} ${folder}`) }, base);
    return { home, ws };
  }
  const winner = (roots: SkillRootInput[], ws: string) => {
    const found = createAgentSkills({ roots, workspace: ws }).getSkill("review");
    return found && { description: found.description, scope: found.scope, source: found.source };
  };

  test("clarvis: a user .clarvis skill beats a workspace .agents one", () => {
    const home = tempDir();
    const ws = tempDir();
    writeTree({ ".clarvis/skills/review/SKILL.md": skill("review", "user clarvis") }, home);
    writeTree({ ".agents/skills/review/SKILL.md": skill("review", "workspace agents") }, ws);
    expect(winner(clarvisSkillRoots({ workspace: ws, home }), ws)).toEqual({
      description: "user clarvis",
      scope: "user",
      source: "clarvis",
    });
  });

  test.each([
    ["clarvis", clarvisSkillRoots, "workspace .clarvis", "clarvis"],
    ["agents", agentsSkillRoots, "workspace .agents", "agents"],
    ["claude", claudeSkillRoots, "workspace .claude", "claude"],
  ] as const)(
    "%s: with every folder filled, the workspace copy of its own layout wins",
    (_, preset, description, source) => {
      const { home, ws } = layout();
      expect(winner(preset({ workspace: ws, home }), ws)).toEqual({
        description,
        scope: "workspace",
        source,
      });
    },
  );

  test("agents and claude: a user skill is served when the workspace has none", () => {
    const home = tempDir();
    const ws = tempDir();
    writeTree({ ".agents/skills/review/SKILL.md": skill("review", "user .agents") }, home);
    writeTree({ ".claude/skills/review/SKILL.md": skill("review", "user .claude") }, home);
    expect(winner(agentsSkillRoots({ workspace: ws, home }), ws)?.description).toBe("user .agents");
    expect(winner(claudeSkillRoots({ workspace: ws, home }), ws)?.description).toBe("user .claude");
  });

  test("missing preset folders are no error: an empty home and workspace give an empty catalog", () => {
    const home = tempDir();
    const ws = tempDir();
    for (const preset of [clarvisSkillRoots, agentsSkillRoots, claudeSkillRoots]) {
      const skills = createAgentSkills({ roots: preset({ workspace: ws, home }), workspace: ws });
      expect(skills.listSkills()).toEqual([]);
      expect(skills.warnings).toEqual([]);
    }
  });
});
