// registry.ts at its edges: the refresh result's arrays, not_found's fields, when an unchanged refresh
// repeats its warnings (refreshAsync does, a watcher's refresh does not), and the edit-only patch path.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills, SkillError, type SkillWarning } from "../src/index.js";
import { skill, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

const age = pastTrustWindow;

const BAD = "---\nname: [\n---\n";

describe("refresh results", () => {
  test("added, removed and changed are frozen and sorted, whatever the roots' order", () => {
    // The catalog is folded root by root: c (root 0) comes before a and d (root 1).
    const low = writeTree({ "keep/SKILL.md": skill("keep") });
    const high = writeTree({});
    const s = createAgentSkills({ roots: [{ path: low }, { path: high }] });
    writeTree({ "c/SKILL.md": skill("c") }, low);
    writeTree({ "a/SKILL.md": skill("a"), "d/SKILL.md": skill("d") }, high);
    const added = s.refresh();
    expect(added).toEqual({ added: ["a", "c", "d"], removed: [], changed: [] });
    for (const list of [added, added.added, added.removed, added.changed])
      expect(Object.isFrozen(list)).toBe(true);

    // A new directory for each: not a mere edit, so the full merge runs and diff() sorts.
    fs.renameSync(path.join(low, "c"), path.join(low, "c2"));
    fs.renameSync(path.join(high, "a"), path.join(high, "a2"));
    fs.renameSync(path.join(high, "d"), path.join(high, "d2"));
    writeTree({ "x/SKILL.md": skill("x") }, low);
    const changed = s.refresh();
    expect(changed).toEqual({ added: ["x"], removed: [], changed: ["a", "c", "d"] });
    expect(Object.isFrozen(changed.changed)).toBe(true);

    for (const dir of ["c2", "x"]) fs.rmSync(path.join(low, dir), { recursive: true });
    for (const dir of ["a2", "d2"]) fs.rmSync(path.join(high, dir), { recursive: true });
    const removed = s.refresh();
    expect(removed).toEqual({ added: [], removed: ["a", "c", "d", "x"], changed: [] });
    expect(Object.isFrozen(removed.removed)).toBe(true);
    expect(s.listSkills().map((x) => x.name)).toEqual(["keep"]);
  });

  test("one skill replaced by another of a new name: as many names as before, not the same ones", () => {
    const root = writeTree({ "x/SKILL.md": skill("x") });
    const s = createAgentSkills({ roots: [{ path: root }] });
    fs.rmSync(path.join(root, "x"), { recursive: true });
    writeTree({ "y/SKILL.md": skill("y") }, root);
    expect(s.refresh()).toEqual({ added: ["y"], removed: ["x"], changed: [] });
    expect(s.listSkills().map((x) => x.name)).toEqual(["y"]);
    // One more than before: the new name is listed too.
    writeTree({ "b/SKILL.md": skill("b") }, root);
    expect(s.refresh()).toEqual({ added: ["b"], removed: [], changed: [] });
    expect(s.listSkills().map((x) => x.name)).toEqual(["b", "y"]);
  });

  test("resourcePath of an unknown name: not_found, naming the skill in message and field", () => {
    const s = createAgentSkills({ roots: [{ path: writeTree({ "a/SKILL.md": skill("a") }) }] });
    let error: unknown;
    try {
      s.resourcePath("nope", "x.md");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillError);
    const e = error as SkillError;
    expect([e.code, e.message, e.skill, "path" in e]).toEqual([
      "not_found",
      'no skill named "nope" is loaded',
      "nope",
      false,
    ]);
  });
});

describe("an unchanged refresh and its warnings", () => {
  test("refreshAsync() repeats them, as refresh() does; a watcher's refresh does not", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a"), "bad/SKILL.md": BAD });
    await age(path.join(root, "bad", "SKILL.md"));
    const seen: SkillWarning[] = [];
    const s = createAgentSkills({ roots: [{ path: root }], onWarning: (w) => seen.push(w) });
    expect(seen.map((w) => w.code)).toEqual(["invalid_skill"]);

    // Nothing changed since: the watcher's first refresh finds the same scan and stays quiet.
    const watcher = s.watch({ usePolling: true, pollMs: 2 ** 31 - 1 });
    await watcher.ready;
    await watcher.close();
    expect(seen.map((w) => w.code)).toEqual(["invalid_skill"]);

    expect(await s.refreshAsync()).toEqual({ added: [], removed: [], changed: [] });
    expect(seen.map((w) => w.code)).toEqual(["invalid_skill", "invalid_skill"]);
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe("an edit-only refresh patches the last merge", () => {
  test("names, verdicts and candidates stay the very same objects; only the edited entry is new", async () => {
    const root = writeTree({ "a/SKILL.md": skill("a", "one"), "b/SKILL.md": skill("b") });
    await age(path.join(root, "b", "SKILL.md"));
    const s = createAgentSkills({ roots: [{ path: root }] });
    const [explainA, explainB, b] = [s.explain("a"), s.explain("b"), s.getSkill("b")];
    fs.writeFileSync(path.join(root, "a", "SKILL.md"), skill("a", "two"));
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: ["a"] });
    expect(s.getSkill("a")?.description).toBe("two");
    expect(s.getSkill("b")).toBe(b);
    // A full merge would build the candidates again; the patch keeps them, since an edit that keeps the
    // name and the manifest path cannot change a verdict or a reason.
    expect(s.explain("a")).toBe(explainA);
    expect(s.explain("b")).toBe(explainB);
  });
});

describe("a sink that loads a skill, then refreshes", () => {
  test("refresh() is still refused after a nested loadSkill's warnings were handed to the same sink", () => {
    // loadSkill("ok") warns (resource_skipped: the link out of the skill), through the same sink, while
    // the sink is handling the scan's invalid_skill: the nested hand-over must not clear the guard.
    const root = writeTree({ "x/SKILL.md": "nope", "ok/SKILL.md": skill("ok"), "ok/out": { symlink: "/" } });
    const seen: string[] = [];
    const refusals: unknown[] = [];
    const holder: { s?: ReturnType<typeof createAgentSkills> } = {};
    const s = createAgentSkills({
      roots: [{ path: root }],
      onWarning: (w) => {
        seen.push(w.code);
        // Bounded, so that a recursing library fails the assertions below instead of running for ever.
        if (w.code !== "invalid_skill" || holder.s === undefined || seen.length > 20) return;
        holder.s.loadSkill("ok");
        try {
          holder.s.refresh();
        } catch (e) {
          refusals.push(e);
        }
      },
    });
    holder.s = s;
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: [] });
    expect(seen).toEqual(["invalid_skill", "invalid_skill", "resource_skipped"]);
    expect(refusals).toHaveLength(1);
    expect((refusals[0] as SkillError).code).toBe("invalid_input");
    expect((refusals[0] as SkillError).message).toMatch(/^refresh\(\) was called from inside a warn sink/);
  });
});
