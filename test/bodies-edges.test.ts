// Dropped bodies read again (src/bodies.ts refill) when the scan reuses the candidate: each tree is
// settled first, so the refresh trusts the unchanged files and only the refill reads the winner's
// manifest. What it reads (through a link, with the YAML repair), and what it does when the file is
// no longer a manifest, or when the read fails with something other than an fs error.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { setFaultHook } from "../src/fsx.js";
import { type AgentSkills, createAgentSkills, createAgentSkillsAsync } from "../src/index.js";
import { manifest, type Tree, writeTree } from "./helpers/fixture.js";
import { pastTrustWindow } from "./helpers/wait.js";

afterEach(() => setFaultHook(null));

/** A user root whose `a` loses to the workspace root's `a` until that one is removed. */
function overridden(user: Tree): string {
  return writeTree({
    ...user,
    "r2/a/SKILL.md": manifest("name: a\ndescription: d", "workspace body"),
    "real.md": manifest("name: a\ndescription: d", "linked body"),
  });
}

// Written now and settled once, before all the tests: past the trust window, so a refresh reuses what
// the first scan read (and dropped).
const trees = {
  plain: overridden({ "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body") }),
  plainAsync: overridden({ "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body") }),
  linked: overridden({ "r1/a/SKILL.md": { symlink: "../../real.md" } }),
  repaired: overridden({
    "r1/a/SKILL.md": manifest("name: a\ndescription: Use when: asked", "repaired body"),
  }),
  replaced: overridden({ "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body") }),
  broken: overridden({ "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body") }),
  bug: overridden({ "r1/a/SKILL.md": manifest("name: a\ndescription: d", "user body") }),
};

beforeAll(() => pastTrustWindow(trees.bug));

/** The registry over `base`'s two roots, its `a` served from r2. */
async function open(base: string, async = false): Promise<AgentSkills> {
  const options = {
    roots: [{ path: path.join(base, "r1") }, { path: path.join(base, "r2") }],
    onWarning: () => {},
  };
  const skills = async ? await createAgentSkillsAsync(options) : createAgentSkills(options);
  expect(skills.loadSkill("a")?.body).toBe("workspace body");
  fs.rmSync(path.join(base, "r2", "a"), { recursive: true });
  return skills;
}

/** Record every manifest read; `act` runs on each, before the read. */
function reads(act: (file: string) => void = () => {}): string[] {
  const seen: string[] = [];
  setFaultHook((op, p) => {
    if (op !== "readManifest") return;
    seen.push(p);
    act(p);
  });
  return seen;
}

describe("a dropped body is read again when its candidate wins", () => {
  test("by refresh: only the dropped body is read, once", async () => {
    const skills = await open(trees.plain);
    const seen = reads();
    expect(skills.refresh().changed).toEqual(["a"]);
    expect(seen).toEqual([path.join(trees.plain, "r1", "a", "SKILL.md")]);
    expect(skills.loadSkill("a")?.body).toBe("user body");
  });

  test("by refreshAsync: only the dropped body is read, once", async () => {
    const skills = await open(trees.plainAsync, true);
    const seen = reads();
    expect((await skills.refreshAsync()).changed).toEqual(["a"]);
    expect(seen).toEqual([path.join(trees.plainAsync, "r1", "a", "SKILL.md")]);
    expect(skills.loadSkill("a")?.body).toBe("user body");
  });

  test("through a symlinked SKILL.md, as followSymlinks (the default) allows", async () => {
    const skills = await open(trees.linked);
    const seen = reads();
    expect(skills.refresh().changed).toEqual(["a"]);
    expect(seen).toEqual([path.join(trees.linked, "r1", "a", "SKILL.md")]);
    expect(skills.loadSkill("a")?.body).toBe("linked body");
  });

  test("with the YAML repair, as a lenient (non-strict) registry parses it", async () => {
    const skills = await open(trees.repaired);
    const seen = reads();
    expect(skills.refresh().changed).toEqual(["a"]);
    expect(seen).toEqual([path.join(trees.repaired, "r1", "a", "SKILL.md")]);
    expect(skills.loadSkill("a")?.body).toBe("repaired body");
  });
});

describe("a winner whose file changed under the refill serves an empty body until the next scan", () => {
  test("replaced by a directory: not a regular file, no body", async () => {
    const skills = await open(trees.replaced);
    const seen = reads((file) => {
      fs.rmSync(file);
      fs.mkdirSync(file);
    });
    expect(skills.refresh().changed).toEqual(["a"]);
    setFaultHook(null);
    expect(seen).toEqual([path.join(trees.replaced, "r1", "a", "SKILL.md")]);
    expect(skills.loadSkill("a")?.body).toBe("");
  });

  test("rewritten without its fences: not a manifest, no body", async () => {
    const skills = await open(trees.broken);
    reads((file) => fs.writeFileSync(file, "no fences\n"));
    expect(skills.refresh().changed).toEqual(["a"]);
    setFaultHook(null);
    expect(skills.loadSkill("a")?.body).toBe("");
  });
});

test("an error that is not an fs error is not taken for a missing file: it propagates", async () => {
  const skills = await open(trees.bug);
  reads(() => {
    throw new TypeError("a bug, not an errno");
  });
  expect(() => skills.refresh()).toThrow(new TypeError("a bug, not an errno"));
});
