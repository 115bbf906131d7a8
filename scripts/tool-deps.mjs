// `node scripts/tool-deps.mjs DIR`: installs the dependencies of DIR/package.json (the benchmark's peers,
// StrykerJS, the tarball checks) into DIR/node_modules when any is missing. None of them is needed to
// build, lint or test, so the project's own `npm ci` does not pay for them.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const dir = process.argv[2];
if (dir === undefined)
  throw new Error("usage: node scripts/tool-deps.mjs DIR (a folder with a package.json)");
const { dependencies } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const missing = Object.keys(dependencies).filter(
  (name) => !fs.existsSync(path.join(dir, "node_modules", ...name.split("/"), "package.json")),
);
if (missing.length > 0) {
  process.stderr.write(`${dir}: installing ${missing.join(", ")}\n`);
  // At the versions of the folder's lock file. `npm install`, not `npm ci`: the bench's lock leaves out
  // the optional dependencies (one peer's native builds and model runtimes, never used), which `npm ci`
  // refuses as out of sync.
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--no-audit", "--no-fund", "--omit=optional"];
  const r = spawnSync(npm, args, { cwd: dir, stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
