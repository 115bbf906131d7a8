import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { createAgentSkills, type SkillWarning, setWarnSink } from "../src/index.js";
import { run } from "./helpers/cli.js";
import { actAt } from "./helpers/faults.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

describe("registry", () => {
  test("a refreshAsync whose scan started before a sync refresh does not install over it (generation guard)", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const s = createAgentSkills({ roots: [{ path: root }] });
    let sync: unknown;
    // The async scan has listed the root (only "a") when it reaches a's manifest: there, a new skill
    // appears and a sync refresh, newer, installs it.
    actAt("readManifest", path.join(root, "a", "SKILL.md"), () => {
      writeTree({ "b/SKILL.md": skill("b") }, root);
      sync = s.refresh();
    });
    const late = await s.refreshAsync();
    expect(sync).toEqual({ added: ["b"], removed: [], changed: [] });
    expect(late).toEqual({ added: [], removed: [], changed: [] });
    expect(s.listSkills().map((k) => k.name)).toEqual(["a", "b"]);
  });

  test("a refresh that finds nothing changed emits the snapshot's warnings again", async () => {
    const root = writeTree({ "x/SKILL.md": "nope", "ok/SKILL.md": skill("ok") });
    // Past the 100 ms window in which a signature is not trusted (ctime cannot be set back): the second
    // scan then reuses every item and skips the merge.
    await pastTrustWindow(root);
    const seen: string[] = [];
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: (w) => seen.push(w.code) });
    const list = s.listSkills();
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: [] });
    expect(s.listSkills()).toBe(list); // the unchanged path: the very same catalog
    expect(seen).toEqual(["invalid_skill", "invalid_skill"]);
  });
});

describe("CLI", () => {
  test("after main(['show', …]) the caller's global warn sink is still in place", () => {
    const seen: SkillWarning[] = [];
    setWarnSink((w) => seen.push(w));
    expect(run(["show", "--workspace", "examples/workspace", "--home", "examples/home", "pdf"]).code).toBe(0);
    const root = writeTree({ "x/SKILL.md": "nope" });
    createAgentSkills({ roots: [{ path: root }] });
    expect(seen.map((w) => w.code)).toEqual(["invalid_skill"]);
  });
});
