import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, test } from "vitest";
import { EXAMPLE, EXAMPLE_TABLE, REPO } from "./helpers/cli.js";
import { writeTree } from "./helpers/fixture.js";

// npm test builds first, so this runs the real compiled bin, as npm would link it.
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
const BIN = path.join(REPO, pkg.bin["agent-skills"]);

test("the package's bin is the built CLI, with a node shebang", () => {
  expect(pkg.bin).toEqual({ "agent-skills": "./dist/cli/bin.js" });
  expect(fs.readFileSync(BIN, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
});

test("the built bin lists the example workspace, writes the warning to stderr and exits 0", () => {
  const result = spawnSync(process.execPath, [BIN, "list", ...EXAMPLE], {
    cwd: REPO,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(result.status).toBe(0);
  expect(result.stdout).toBe(EXAMPLE_TABLE);
  expect(result.stderr).toBe(
    'warning: invalid_skill: examples/workspace/.clarvis/skills/broken/SKILL.md:4:1: invalid YAML: Missing closing "quote; skipped\n',
  );
});

test("the built bin answers --version alone from package.json, loading none of the command line", () => {
  expect(spawnSync(process.execPath, [BIN, "--version"], { encoding: "utf8" }).stdout).toBe(
    `${pkg.version}\n`,
  );
  // The bin on its own beside a package.json: --version still answers; anything else needs main.js.
  const alone = writeTree({
    "package.json": '{"type":"module","version":"9.8.7"}',
    "dist/cli/bin.js": fs.readFileSync(BIN),
  });
  const lone = path.join(alone, "dist", "cli", "bin.js");
  const version = spawnSync(process.execPath, [lone, "--version"], { encoding: "utf8" });
  expect([version.status, version.stdout, version.stderr]).toEqual([0, "9.8.7\n", ""]);
  // --version among other arguments is main's to judge (a usage error may come first).
  const other = spawnSync(process.execPath, [lone, "--version", "--json"], { encoding: "utf8" });
  expect(other.status).toBe(1);
  expect(other.stderr).toContain("ERR_MODULE_NOT_FOUND");
});

test("the built bin exits 2 on bad usage and 1 on a refused resource, with nothing on stdout", () => {
  expect(() => execFileSync(process.execPath, [BIN, "frob"], { cwd: REPO, stdio: "pipe" })).toThrow(
    expect.objectContaining({ status: 2, stdout: Buffer.alloc(0) }),
  );
  const refused = spawnSync(
    process.execPath,
    [BIN, "resource", "pdf", "../../x", "--workspace", "examples/workspace", "--home", "examples/home"],
    { cwd: REPO, encoding: "utf8" },
  );
  expect([refused.status, refused.stdout]).toEqual([1, ""]);
  expect(refused.stderr).toMatch(/^error: path_escape: /);
});

test("the README's quick start and CLI reference show the real outputs", () => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const example = spawnSync(process.execPath, [BIN, "list", ...EXAMPLE], { cwd: REPO, encoding: "utf8" });
  expect(readme).toContain(`\n${example.stdout}${example.stderr}\`\`\`\n`);
  const needsFixes = spawnSync(process.execPath, [BIN, "validate", "examples/needs-fixes"], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(readme).toContain(`$ agent-skills validate examples/needs-fixes\n${needsFixes.stdout}`);
  expect(readme).toContain("\nnpm ci && npm run example   #");
  expect(readme).toContain("\nnpm ci && npm test          #");
});

test("the README's CLI reference shows the real outputs of catalog, roots, validate --recursive and --target claude", () => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  // Absolute paths print as they are; the README writes the repository as …/agent-skills.
  const shown = (argv: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: REPO, encoding: "utf8" });
    return `$ agent-skills ${argv.join(" ")}\n${r.stdout}${r.stderr}`.split(REPO).join("…/agent-skills");
  };
  for (const argv of [
    ["catalog", "--format", "markdown", ...EXAMPLE],
    ["roots", ...EXAMPLE],
    ["list", "--root", "skils"],
    ["validate", "examples/plugin-repo"],
    ["validate", "--recursive", "examples/plugin-repo"],
    ["validate", "--recursive", "--target", "claude", "examples/plugin-repo"],
    ["show", "pdf-tools", "--root", "examples/needs-fixes"],
    ["show", "pdff", "--json", ...EXAMPLE],
  ]) {
    expect(readme).toContain(`\n${shown(argv)}`);
  }
});
