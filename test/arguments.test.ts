// Issue 10, finding 13: every exported function answers a bad argument with a documented library
// error (SkillError invalid_input or StartupError), never a raw TypeError from building its message.
import { describe, expect, test } from "vitest";
import {
  agentsSkillRoots,
  clarvisSkillRoots,
  claudeSkillRoots,
  createAgentSkills,
  createAgentSkillsAsync,
  resolveAgainst,
  resolveConfig,
  SkillError,
  StartupError,
  setWarnSink,
  validateSkills,
} from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";

const circular: Record<string, unknown> = {};
circular.self = circular;
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error("trap");
    },
    ownKeys() {
      throw new Error("trap");
    },
    getPrototypeOf() {
      throw new Error("trap");
    },
  },
);
// Array.isArray throws for a revoked Proxy (found by the README audit: it escaped as a TypeError).
const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();
const BAD: [string, unknown, string][] = [
  ["a BigInt", 10n, "bigint 10"],
  ["a circular object", circular, "an object"],
  ["a throwing Proxy", hostile, "an object"],
  ["a revoked Proxy", revoked, "an object"],
  ["a symbol", Symbol("s"), "a symbol"],
  ["a number", 1, "number 1"],
];

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe.each(BAD)("%s", (_, value, shown) => {
  test("as rel or name of resourcePath is invalid_input", () => {
    const root = writeTree({ s: { dir: true }, "s/SKILL.md": skill("s") });
    const skills = createAgentSkills({ roots: [{ path: root }] });
    const asRel = thrown(() => skills.resourcePath("s", value as string));
    expect(asRel).toBeInstanceOf(SkillError);
    expect([(asRel as SkillError).code, (asRel as SkillError).message]).toEqual([
      "invalid_input",
      `resource ${shown} of skill "s" must be a string, received ${typeof value}`,
    ]);
    const asName = thrown(() => skills.resourcePath(value as string, "x"));
    expect(asName).toBeInstanceOf(SkillError);
    expect([(asName as SkillError).code, (asName as SkillError).message]).toEqual([
      "invalid_input",
      `skill name must be a string, received ${shown}`,
    ]);
    expect(skills.getSkill(value as string)).toBeUndefined();
    expect(skills.loadSkill(value as string)).toBeUndefined();
    expect(skills.explain(value as string)).toEqual([]);
  });

  // Audit H, finding 4: a Proxy's trap, or a revoked Proxy, escaped these as the raw error.
  test("given to createAgentSkills, resolveConfig or validateSkills, as options, roots or a root, is a StartupError", async () => {
    const uses: [string, () => unknown][] = [
      ["options", () => createAgentSkills(value as never)],
      ["roots", () => createAgentSkills({ roots: value as never })],
      ["a root", () => createAgentSkills({ roots: [value as never] })],
      ["resolveConfig", () => resolveConfig({ roots: [{ path: "/" }], home: value as never })],
      ["paths", () => validateSkills(value as never)],
      ["validate options", () => validateSkills(["/nowhere"], value as never)],
    ];
    for (const [what, use] of uses) {
      const e = thrown(use);
      // A circular or a plain object is fine as options of validateSkills (no option read is wrong).
      if (e === undefined && what === "validate options") continue;
      expect([what, e instanceof StartupError]).toEqual([what, true]);
    }
    await expect(createAgentSkillsAsync(value as never)).rejects.toBeInstanceOf(StartupError);
  });

  test("given to the presets, resolveAgainst or setWarnSink is a StartupError", () => {
    for (const preset of [clarvisSkillRoots, agentsSkillRoots, claudeSkillRoots]) {
      const top = thrown(() => preset(value as never));
      if (value === circular) expect(top).toBeUndefined();
      else if (value === hostile)
        expect(top).toEqual(new StartupError('preset option "workspace" cannot be read: trap'));
      else if (value === revoked)
        expect(top).toEqual(
          new StartupError(
            "preset option \"workspace\" cannot be read: Cannot perform 'get' on a proxy that has been revoked",
          ),
        );
      else expect(top).toEqual(new StartupError(`preset options must be an object, received ${shown}`));
      expect(thrown(() => preset({ workspace: value as string }))).toEqual(
        new StartupError(
          `preset option "workspace" must be a non-empty string without NUL bytes, received ${shown}`,
        ),
      );
    }
    expect(thrown(() => resolveAgainst(value as string, "/"))).toEqual(
      new StartupError(`resolveAgainst: path must be a string, received ${shown}`),
    );
    expect(thrown(() => resolveAgainst("x", value as string))).toEqual(
      new StartupError(`resolveAgainst: base must be a string, received ${shown}`),
    );
    expect(thrown(() => resolveAgainst("~", "/", value as string))).toBeInstanceOf(StartupError);
    expect(thrown(() => setWarnSink(value as never))).toBeInstanceOf(StartupError);
  });
});

test("the presets still accept no options, and an empty object", () => {
  expect(agentsSkillRoots({ home: "/h", workspace: "/w" }).map((r) => r.path)).toEqual([
    "/h/.agents/skills",
    "/w/.agents/skills",
  ]);
  expect(claudeSkillRoots()).toHaveLength(2);
  expect(clarvisSkillRoots({})).toHaveLength(4);
});
