// patchMerge (merge.ts) called directly: when it patches, what it rebuilds, and every change that makes it
// decline (undefined: merge in full). Through the registry a decline is invisible (the full merge gives the
// same catalog), so these mutants (issue 9, round 2) are only caught here.
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { merge, patchMerge } from "../src/merge.js";
import { type ScanItem, scanSync } from "../src/scan.js";
import { skill, writeTree } from "./helpers/fixture.js";

type Roots = readonly (readonly ScanItem[])[];

/** Two roots (a and b in the first, a again in the second), scanned before and after `edit`. */
function twoScans(edit: (one: string, two: string) => void, extra: Record<string, string> = {}) {
  const one = writeTree({ "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), ...extra });
  const two = writeTree({ "a/SKILL.md": skill("a", "Second.") });
  const config = resolveConfig({ roots: [{ path: one }, { path: two }] });
  const before = scanSync(config).roots;
  edit(one, two);
  const after = scanSync(config).roots;
  const row = (roots: Roots, r: number) => roots[r] as readonly ScanItem[];
  return { config, before, after, previous: merge(config, before), row };
}

const description = (m: ReturnType<typeof merge> | undefined, name: string) =>
  m?.skills.get(name)?.info.description;

test("an edited winner is rebuilt; an edited overridden candidate changes nothing; the rest is kept", () => {
  const { config, before, after, previous, row } = twoScans((one, two) => {
    fs.writeFileSync(path.join(one, "a/SKILL.md"), skill("a", "First, edited."));
    fs.writeFileSync(path.join(one, "b/SKILL.md"), skill("b", "B, edited."));
    fs.writeFileSync(path.join(two, "a/SKILL.md"), skill("a", "Second, edited."));
  });
  // Only the overridden a changed: the served entry stays the very same object.
  const overriddenOnly = [[row(after, 0)[0], row(before, 0)[1]], row(before, 1)] as Roots;
  const p1 = patchMerge(config, previous, before, overriddenOnly);
  expect(p1?.skills.get("a")).toBe(previous.skills.get("a"));
  expect(p1?.skills.get("b")).toBe(previous.skills.get("b"));
  expect(p1?.candidates).toBe(previous.candidates);
  expect(p1?.warnings).toBe(previous.warnings);
  // Every manifest changed: both winners are rebuilt from the new candidates.
  const p2 = patchMerge(config, previous, before, after);
  expect([description(p2, "a"), description(p2, "b")]).toEqual(["Second, edited.", "B, edited."]);
  expect(p2?.skills.get("a")?.rootIndex).toBe(1);
  expect(p2?.skills.get("a")?.candidate).toBe(row(after, 1)[0]);
  expect(previous.skills.get("a")?.info.description).toBe("Second."); // the previous merge is not touched
});

test("declines when the number of roots or of a root's items differs", () => {
  const { config, before, after, previous, row } = twoScans(() => {});
  expect(patchMerge(config, previous, before, [row(after, 0)])).toBeUndefined();
  expect(patchMerge(config, previous, before, [[row(after, 0)[0]], row(after, 1)] as Roots)).toBeUndefined();
  expect(patchMerge(config, previous, before, before)).toBeDefined();
});

test("declines when a replaced candidate changed name, became invalid, or is replaced by a warning", () => {
  const renamed = twoScans((one) => fs.writeFileSync(path.join(one, "b/SKILL.md"), skill("c")));
  expect(patchMerge(renamed.config, renamed.previous, renamed.before, renamed.after)).toBeUndefined();
  const invalid = twoScans((one) => fs.writeFileSync(path.join(one, "b/SKILL.md"), "no frontmatter\n"));
  expect(invalid.row(invalid.after, 0)[1]).toMatchObject({ kind: "candidate", outcome: { ok: false } });
  expect(patchMerge(invalid.config, invalid.previous, invalid.before, invalid.after)).toBeUndefined();
  // …and back: an invalid candidate replaced by a valid one declines too.
  expect(
    patchMerge(invalid.config, merge(invalid.config, invalid.after), invalid.after, invalid.before),
  ).toBeUndefined();
});

test("patches at most 64 replaced candidates, each rebuilt from its new manifest; 65 decline", () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 65; i++) tree[`s${i}/SKILL.md`] = skill(`s${i}`, `Old words ${i}.`);
  const root = writeTree(tree);
  const config = resolveConfig({ roots: [{ path: root }] });
  const before = scanSync(config).roots;
  // Every manifest gets a description of its own, so an edit dropped or applied twice shows.
  for (let i = 0; i < 65; i++) {
    fs.writeFileSync(path.join(root, `s${i}/SKILL.md`), skill(`s${i}`, `New words ${i}.`));
  }
  const after = scanSync(config).roots;
  const old = before[0] as readonly ScanItem[];
  const now = after[0] as readonly ScanItem[];
  expect(now.every((item, i) => item !== old[i])).toBe(true); // a fresh scan: new item objects
  const previous = merge(config, before);
  const mixed = [[...now.slice(0, 64), ...old.slice(64)]] as Roots;
  const patched = patchMerge(config, previous, before, mixed);
  // Items come in sorted order (s0, s1, s10, …): the first 64 are new, the last one (s9) kept.
  const names = now.map((item) =>
    item.kind === "candidate" && item.outcome.ok ? item.outcome.fields.name : "",
  );
  expect(names.slice(63)).toEqual(["s8", "s9"]);
  const expected = names.map((name, i) => `${i < 64 ? "New" : "Old"} words ${name.slice(1)}.`);
  expect(names.map((name) => description(patched, name))).toEqual(expected);
  expect(patched?.skills.size).toBe(65);
  expect(patched?.skills).toEqual(merge(config, mixed).skills);
  expect(patchMerge(config, previous, before, after)).toBeUndefined();
});

test("declines when the manifest path changed, or the replaced candidate carried a warning", () => {
  const moved = twoScans((one) => {
    fs.renameSync(path.join(one, "b/SKILL.md"), path.join(one, "b/skill.md"));
  });
  const b = moved.row(moved.after, 0)[1];
  expect(b).toMatchObject({ kind: "candidate", outcome: { ok: true }, warnings: [] });
  expect(b?.kind === "candidate" && path.basename(b.path)).toBe("skill.md");
  expect(patchMerge(moved.config, moved.previous, moved.before, moved.after)).toBeUndefined();
  // Two manifests (a warning) before, one after: same name, directory and path, but the warning goes.
  const warned = twoScans((one) => fs.rmSync(path.join(one, "b/skill.md")), { "b/skill.md": skill("b") });
  const was = warned.row(warned.before, 0)[1] as { path: string; warnings: readonly unknown[] };
  expect(was).toMatchObject({ kind: "candidate", outcome: { ok: true } });
  expect(was.warnings).toHaveLength(1);
  const now = warned.row(warned.after, 0)[1];
  expect(now).toMatchObject({ kind: "candidate", outcome: { ok: true }, warnings: [], path: was.path });
  expect(patchMerge(warned.config, warned.previous, warned.before, warned.after)).toBeUndefined();
});

test("an edited in-root duplicate changes nothing served, though it sits in the winner's root", () => {
  // "0a" (named a: a name-mismatch warning) comes first in sorted order and wins; the later "a" is a
  // duplicate without warnings, so its edit is patched rather than declined.
  const root = writeTree({ "0a/SKILL.md": skill("a"), "a/SKILL.md": skill("a", "Duplicate.") });
  const config = resolveConfig({ roots: [{ path: root }] });
  const before = scanSync(config).roots;
  fs.writeFileSync(path.join(root, "a/SKILL.md"), skill("a", "Duplicate, edited."));
  const after = scanSync(config).roots;
  const previous = merge(config, before);
  expect(previous.candidates.get("a")?.map((c) => c.verdict)).toEqual(["winner", "duplicate"]);
  const mixed = [[(before[0] as readonly ScanItem[])[0], (after[0] as readonly ScanItem[])[1]]] as Roots;
  const patched = patchMerge(config, previous, before, mixed);
  expect(patched?.skills.get("a")).toBe(previous.skills.get("a"));
});
