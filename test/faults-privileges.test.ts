// A real permission fault: discovery run as an unprivileged user against a chmod 000 root, and chmod 000
// skill files and dirs.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, test } from "vitest";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";

const REPO = path.resolve(import.meta.dirname, "..");

/**
 * The child gives up root's right to read anything itself, before it loads the package (nobody,
 * 65534, with no supplementary groups), so no external tool is needed; not root, it already has none.
 * Then discovery, and the two calls that touch the locked resources, as a JSON report.
 */
const SCRIPT = `
if (process.getuid() === 0) {
  process.setgroups([]);
  process.setgid(65534);
  process.setuid(65534);
}
const { createAgentSkills, SkillError } = await import(process.argv[1]);
const roots = [{ path: process.argv[2] }];
const out = {};
const lenient = createAgentSkills({ roots, onWarning: () => {} });
out.uid = process.getuid();
out.gid = process.getgid();
out.groups = process.getgroups();
out.names = lenient.listSkills().map((s) => s.name);
out.warnings = lenient.warnings.map((w) => [w.code, w.message]);
const content = lenient.loadSkill("open");
out.resources = content.resources;
out.resourceWarnings = content.warnings.map((w) => [w.code, w.message]);
try { lenient.resourcePath("open", "private/key.txt"); } catch (e) { out.refusal = [e.code, e.message]; }
try { createAgentSkills({ roots, strict: true, onWarning: () => {} }); } catch (e) { out.strict = [e instanceof SkillError, e.code, e.message]; }
const shut = createAgentSkills({ roots: [{ path: process.argv[3] }], onWarning: () => {} });
out.lockedRoot = { names: shut.listSkills().map((s) => s.name), warnings: shut.warnings.map((w) => [w.code, w.message]) };
process.stdout.write(JSON.stringify(out));
`;

/**
 * A copy of the built package (and its two dependencies) that the unprivileged user can read: the
 * checkout itself may sit below a folder private to root, as a `mktemp -d` clone does.
 */
function readablePackage(): string {
  const dir = tempDir();
  fs.chmodSync(dir, 0o755);
  fs.cpSync(path.join(REPO, "package.json"), path.join(dir, "package.json"));
  fs.cpSync(path.join(REPO, "dist"), path.join(dir, "dist"), { recursive: true });
  for (const dep of ["yaml", "zod"]) {
    fs.cpSync(path.join(REPO, "node_modules", dep), path.join(dir, "node_modules", dep), { recursive: true });
  }
  return path.join(dir, "dist", "index.js");
}

const locked: string[] = [];
afterEach(() => {
  // Give the fixture back to its owner's rights, so that the temp dir can be removed.
  for (const p of locked.splice(0)) fs.chmodSync(p, 0o755);
});

test("a chmod 000 root, dirs and manifest, read by an unprivileged user: warnings with EACCES, the rest loads", () => {
  expect(
    fs.existsSync(path.join(REPO, "dist")),
    "dist/ is missing: run `npm run build` (npm test does)",
  ).toBe(true);
  const entry = readablePackage();
  const root = writeTree({
    "open/SKILL.md": skill("open"),
    "open/readme.md": "readme",
    "open/private/key.txt": "key",
    "sealed/SKILL.md": skill("sealed"),
    "unread/SKILL.md": skill("unread"),
    "zeta/SKILL.md": skill("zeta"),
  });
  // A root of its own that cannot be listed at all, in a folder the unprivileged user can reach.
  const base = writeTree({ "shut/a/SKILL.md": skill("a") });
  const shut = path.join(base, "shut");
  // The temp dirs are private to their owner; the unprivileged user must be able to reach the roots.
  fs.chmodSync(root, 0o755);
  fs.chmodSync(base, 0o755);
  for (const p of [
    shut,
    ...["sealed", "open/private", "unread/SKILL.md"].map((rel) => path.join(root, rel)),
  ]) {
    fs.chmodSync(p, 0o000);
    locked.push(p);
  }
  const argv = ["--input-type=module", "-e", SCRIPT, entry, root, shut];
  const out = JSON.parse(execFileSync(process.execPath, argv, { encoding: "utf8" }));
  // Root reads anything: the child must have given that up, or nothing below is tested.
  expect(out.uid).not.toBe(0);
  expect(out.gid).not.toBe(0);
  expect(out.groups).not.toContain(0);
  const sealed = path.join(root, "sealed");
  const unread = path.join(root, "unread", "SKILL.md");
  const priv = path.join(root, "open", "private");
  expect(out.names).toEqual(["open", "zeta"]);
  expect(out.warnings).toEqual([
    ["unreadable", `skill directory ${sealed} cannot be read (EACCES); skipped`],
    ["invalid_skill", `${unread}: cannot be read (EACCES); skipped`],
  ]);
  expect(out.resources).toEqual(["readme.md"]);
  expect(out.resourceWarnings).toEqual([["resource_skipped", `${priv} cannot be read (EACCES)`]]);
  expect(out.refusal).toEqual([
    "not_found",
    `resource "private/key.txt" of skill "open" cannot be read: ${path.join(priv, "key.txt")} (EACCES)`,
  ]);
  // Under strict the unreadable manifest is an invalid skill; the unreadable dir stays a warning.
  expect(out.strict).toEqual([true, "invalid_skill", `${unread}: cannot be read (EACCES)`]);
  expect(out.lockedRoot).toEqual({
    names: [],
    warnings: [["root_unreadable", `root ${shut} cannot be read (EACCES)`]],
  });
});
