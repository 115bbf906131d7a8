// createAgentSkillsAsync and refreshAsync give exactly what the sync path gives: catalog, bodies, verdicts, warnings in order.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import {
  type AgentSkills,
  type AgentSkillsOptions,
  createAgentSkills,
  createAgentSkillsAsync,
  SkillError,
} from "../src/index.js";
import { poolRequests } from "./helpers/faults.js";
import { corpusRoots, corpusTest, fixtureRoots, manifest, skill, writeTree } from "./helpers/fixture.js";

afterEach(() => setFaultHook(null));

/** Everything an instance shows, in a form that compares deeply. */
function view(s: AgentSkills) {
  const names = s.listSkills().map((x) => x.name);
  return {
    list: s.listSkills(),
    warnings: s.warnings,
    loaded: names.map((n) => s.loadSkill(n)),
    explained: [...names, "bad", "dup"].map((n) => s.explain(n)),
  };
}

/** Three roots with every kind of finding a scan can make, 60 ordinary skills each, names shared across roots. */
function store(): AgentSkillsOptions {
  const roots = ["one", "two", "three"].map((label, r) => {
    const tree: Record<string, string | { symlink: string }> = {};
    for (let i = 0; i < 60; i++) {
      const name = i < 20 ? `shared-${i}` : `${label}-${i}`;
      tree[`${name}/SKILL.md`] = skill(
        name,
        `Skill ${i} of root ${label}.`,
        `allowed-tools: Read Bash(git:*)`,
      );
      tree[`${name}/notes/a.md`] = `notes ${i}`;
    }
    tree["bad/SKILL.md"] = manifest("name: [unclosed");
    tree["dup/SKILL.md"] = skill("shared-1");
    tree["mismatch/SKILL.md"] = skill("other-name");
    tree["repaired/SKILL.md"] = manifest(`name: repaired-${r}\ndescription: Use when: the user asks`);
    tree["tools/SKILL.md"] = skill(`tools-${r}`, "Tools.", "tools:\n  - name: x");
    tree["two-manifests/SKILL.md"] = skill(`two-${r}`);
    tree["two-manifests/skill.md"] = skill(`two-${r}`, "Lower.");
    tree.dangling = { symlink: "nowhere" };
    tree.linked = { symlink: "shared-2" };
    tree["README.md"] = "not a skill";
    return { path: writeTree(tree), source: label };
  });
  return { roots };
}

describe("createAgentSkillsAsync", () => {
  test("equals createAgentSkills on a store with every kind of finding, warnings order included", async () => {
    const options = store();
    const sync = createAgentSkills(options);
    const async_ = await createAgentSkillsAsync(options);
    expect(view(async_)).toEqual(view(sync));
    expect(sync.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(["dangling_symlink", "yaml_repaired"]),
    );
    expect(sync.listSkills().length).toBe(20 + 3 * 40 + 3 * 3 + 1);
  });

  /** The async scan gives what the sync one gives on `roots`: catalog, warnings, explain, bodies. */
  async function sameAsSync(roots: { path: string; source: string }[]): Promise<number> {
    const options = { roots };
    const sync = createAgentSkills(options);
    const async_ = await createAgentSkillsAsync(options);
    expect(async_.listSkills()).toEqual(sync.listSkills());
    expect(async_.warnings).toEqual(sync.warnings);
    for (const { name } of sync.listSkills()) {
      expect(async_.explain(name)).toEqual(sync.explain(name));
      expect(async_.loadSkill(name)?.body).toBe(sync.loadSkill(name)?.body);
    }
    return sync.listSkills().length;
  }

  test("equals createAgentSkills on the vendored real skills", async () => {
    expect(await sameAsSync(fixtureRoots())).toBe(36);
  });

  corpusTest("equals createAgentSkills on the real corpus", async () => {
    expect(await sameAsSync(corpusRoots())).toBe(2106);
  });

  test("rejects with the error that the sync path throws under strict", async () => {
    const options = { ...store(), strict: true };
    let thrown: unknown;
    try {
      createAgentSkills(options);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SkillError);
    await expect(createAgentSkillsAsync(options)).rejects.toEqual(thrown);
    await expect(createAgentSkillsAsync(options)).rejects.toMatchObject({ code: "invalid_skill" });
  });
});

describe("refreshAsync", () => {
  test("sees the same changes as refresh and leaves the same catalog", async () => {
    const options = store();
    const sync = createAgentSkills(options);
    const async_ = await createAgentSkillsAsync(options);
    const [one, two] = options.roots.map((r) => r.path) as [string, string];
    fs.rmSync(path.join(one, "one-30"), { recursive: true });
    writeTree(
      { "new-skill/SKILL.md": skill("new-skill"), "one-31/SKILL.md": skill("shared-3", "Moved.") },
      two,
    );
    fs.writeFileSync(path.join(two, "bad/SKILL.md"), skill("fixed"));
    const expected = sync.refresh();
    expect(expected.added).toEqual(["fixed", "new-skill"]);
    expect(await async_.refreshAsync()).toEqual(expected);
    expect(view(async_)).toEqual(view(sync));
  });

  test("queued calls each resolve, the last leaving what a sync refresh leaves", async () => {
    const options = store();
    const sync = createAgentSkills(options);
    const async_ = await createAgentSkillsAsync(options);
    writeTree({ "late/SKILL.md": skill("late") }, options.roots[0]?.path);
    const results = await Promise.all([async_.refreshAsync(), async_.refreshAsync()]);
    expect(results.map((r) => r.added)).toEqual([["late"], []]);
    sync.refresh();
    expect(view(async_)).toEqual(view(sync));
  });

  test("a strict refreshAsync that rejects keeps the previous catalog", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const s = await createAgentSkillsAsync({ roots: [{ path: root }], strict: true });
    fs.writeFileSync(path.join(root, "a/SKILL.md"), "no fences\n");
    await expect(s.refreshAsync()).rejects.toMatchObject({ code: "invalid_skill" });
    expect(s.listSkills().map((x) => x.name)).toEqual(["a"]);
    expect(s.loadSkill("a")?.body).toBe("Body.");
  });

  test("discovers each skill in one thread-pool round trip (its listing; the manifest is then opened in place)", async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 30; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`, "d", `pad: ${"p".repeat(i * 100)}`);
    const root = writeTree(tree);
    let s: AgentSkills | undefined;
    // Every request Node hands the thread pool, counted as it is made.
    const requests = await poolRequests(async () => {
      s = await createAgentSkillsAsync({ roots: [{ path: root }] });
    });
    // The root: stat, listing, realpath. Each skill: its listing; the open, fstat, reads and close of
    // the manifest in the directory just listed are not round trips of their own.
    expect(requests).toBe(3 + 30);
    expect(s?.listSkills()).toHaveLength(30);
    expect(s?.loadSkill("s29")?.metadata.pad).toBe("p".repeat(2900));
  });
});
