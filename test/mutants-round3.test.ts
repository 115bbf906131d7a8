// Round 3's mutation survivors of the rewritten modules (fastreject.ts, fastflow.ts, fastyaml.ts, candidate.ts,
// merge.ts), each a case that fails under its mutation: docs/mutation.md lists them with the ones left as
// equivalent.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { chooseManifest } from "../src/candidate.js";
import { resolveConfig } from "../src/config.js";
import { fastParse, YAML_ERROR } from "../src/fastyaml.js";
import type { Stat } from "../src/fsx.js";
import { createAgentSkills, type SkillMatch } from "../src/index.js";
import { type CatalogEntry, entryKey, merge, sameEntry } from "../src/merge.js";
import { scanSync } from "../src/scan.js";
import { skill, writeTree } from "./helpers/fixture.js";

/** The fast path's verdict on `text`, checked against yaml's: its value, YAML_ERROR, or "decline". */
function fast(text: string): unknown {
  const value = fastParse(text);
  if (value === undefined) return "decline";
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
  if (value === YAML_ERROR) {
    expect(doc.errors.length, text).toBeGreaterThan(0);
    return value;
  }
  expect(doc.errors, text).toEqual([]);
  expect(value, text).toStrictEqual(doc.toJS());
  return value;
}

describe("fastreject: what yaml certainly rejects", () => {
  test.each([
    // A `z` is a plain scalar's character like any other letter (the range ends at 122, not before).
    ["a plain scalar holding a z, left open", "a: [xyz,\n"],
    // An unclosed string is told by the closing quote's search failing (-1), not by a position in the text.
    ["a string left open as a sequence's item", 'a: ["x #\n'],
  ])("%s: YAML_ERROR", (_, text) => {
    expect(fast(text)).toBe(YAML_ERROR);
  });
});

describe("fastflow: collections and quoted scalars", () => {
  test("a brace inside a plain item ends the item: yaml's error there is left to yaml", () => {
    expect(fast("a: [x{y]\n")).toBe("decline");
  });

  test("a collection over several lines followed by spaces that end the text is read whole", () => {
    expect(fast("a: [x,\n  y]\n   ")).toStrictEqual({ a: ["x", "y"] });
  });

  test("a double-quoted scalar with an escape, then a single quote: yaml's error, not a doubled quote", () => {
    expect(fast('a: "x\\ty"\'"\n')).toBe(YAML_ERROR);
  });
});

describe("fastyaml: the end of the text", () => {
  test("spaces that end the text, after the last line's break, are no content: the mapping is whole", () => {
    expect(fast("a: 1\n   ")).toStrictEqual({ a: 1 });
    expect(fast("a: 1\nb: x\n  ")).toStrictEqual({ a: 1, b: "x" });
  });
});

describe("candidate.ts", () => {
  test("chooseManifest takes the first case variant in code-unit order, whatever order it is given", () => {
    const listing = chooseManifest("/s/x", ["skill.md", "SkILL.md", "Skill.md"], true);
    expect(listing.chosen).toEqual({ name: "SkILL.md", symlink: undefined });
    expect(listing.warnings.map((w) => [w.code, w.message, w.path])).toEqual([
      [
        "multiple_manifests",
        "/s/x has several manifests (SkILL.md, Skill.md, skill.md); using SkILL.md",
        path.join("/s/x", "SkILL.md"),
      ],
    ]);
  });

  test("a manifest linked to one an earlier root's scan read keeps its signature: served, searched, refreshed", () => {
    const first = writeTree({ "x/SKILL.md": skill("x", "Read first."), "x/notes.txt": "first" });
    const second = writeTree({ "x/notes.txt": "second" });
    fs.symlinkSync(path.join(first, "x", "SKILL.md"), path.join(second, "x", "SKILL.md"));
    const s = createAgentSkills({ roots: [{ path: first }, { path: second }] });
    // The later root wins; its manifest is the file the first root's candidate read, so it is not read again.
    expect(s.getSkill("x")?.path).toBe(path.join(second, "x", "SKILL.md"));
    expect(s.loadSkill("x")?.resources).toEqual(["notes.txt"]);
    expect(s.resourcePath("x", "notes.txt")).toBe(path.join(second, "x", "notes.txt"));
    expect((s.search("read first") as readonly SkillMatch[]).map((m) => m.skill.name)).toEqual(["x"]);
    expect(s.refresh()).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe("merge.ts: what tells two entries apart", () => {
  /** The entry of skill a from a real scan, with its candidate's revision and signature's ctime set. */
  function entryOf() {
    const root = writeTree({ "a/SKILL.md": skill("a") });
    const config = resolveConfig({ roots: [{ path: root }] });
    const entry = merge(config, scanSync(config).roots).skills.get("a") as CatalogEntry;
    const at = (ctimeMs: number, revision: number): CatalogEntry => ({
      ...entry,
      candidate: { ...entry.candidate, stat: { ...(entry.candidate.stat as Stat), ctimeMs }, revision },
    });
    return { entry, at };
  }

  test("the same file under the same signature read again with other content is another entry", () => {
    const { entry, at } = entryOf();
    const ctime = (entry.candidate.stat as Stat).ctimeMs;
    expect(sameEntry(entry, at(ctime, entry.candidate.revision))).toBe(true);
    expect(sameEntry(entry, at(ctime, entry.candidate.revision + 1))).toBe(false);
  });

  test("entryKey keeps a signature's last digits apart from the revision", () => {
    const { at } = entryOf();
    expect(entryKey(at(1.5, 12))).not.toBe(entryKey(at(1.51, 2)));
    expect(entryKey(at(1.5, 12))).toBe(entryKey(at(1.5, 12)));
  });
});
