// A real permission fault: discovery run as an unprivileged user against chmod 000 skill files and dirs.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, test } from "vitest";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";

const REPO = path.resolve(import.meta.dirname, "..");
const NOBODY = 65_534;

function found(cmd: string): boolean {
  try {
    execFileSync(cmd, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * How to run a command without root's right to read anything: nothing to add when not root,
 * `setpriv` or `runuser` to nobody when root. `undefined` only on a root machine with neither.
 */
function unprivileged(): string[] | undefined {
  if (process.getuid?.() !== 0) return [];
  if (found("setpriv")) return ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
  if (found("runuser")) return ["runuser", "-u", "nobody", "--"];
  return undefined;
}

/** Discovery, then the two calls that touch the locked resources, as a JSON report. */
const SCRIPT = `
const { createAgentSkills, SkillError } = await import(process.argv[1]);
const roots = [{ path: process.argv[2] }];
const out = {};
const lenient = createAgentSkills({ roots, onWarning: () => {} });
out.uid = process.getuid();
out.names = lenient.listSkills().map((s) => s.name);
out.warnings = lenient.warnings.map((w) => [w.code, w.message]);
const content = lenient.loadSkill("open");
out.resources = content.resources;
out.resourceWarnings = content.warnings.map((w) => [w.code, w.message]);
try { lenient.resourcePath("open", "private/key.txt"); } catch (e) { out.refusal = [e.code, e.message]; }
try { createAgentSkills({ roots, strict: true, onWarning: () => {} }); } catch (e) { out.strict = [e instanceof SkillError, e.code, e.message]; }
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

test.skipIf(unprivileged() === undefined)(
  "chmod 000 dirs and manifest, read by an unprivileged user: warnings with EACCES, the rest loads",
  () => {
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
    // The temp dir is private to its owner; the unprivileged user must be able to reach the root.
    fs.chmodSync(root, 0o755);
    for (const rel of ["sealed", "open/private", "unread/SKILL.md"]) {
      fs.chmodSync(path.join(root, rel), 0o000);
      locked.push(path.join(root, rel));
    }
    const prefix = unprivileged() ?? [];
    const argv = [...prefix, process.execPath, "--input-type=module", "-e", SCRIPT, entry, root];
    const [cmd = "", ...args] = argv;
    const out = JSON.parse(execFileSync(cmd, args, { encoding: "utf8" }));
    expect(out.uid).not.toBe(0);
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
  },
);
