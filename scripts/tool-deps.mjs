// Installs the benchmark's own dependencies (peer loaders, yaml) into bench/node_modules when any is missing.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { dependencies } = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const missing = Object.keys(dependencies).filter(
  (name) => !fs.existsSync(path.join(here, "node_modules", ...name.split("/"), "package.json")),
);
if (missing.length > 0) {
  process.stderr.write(`bench: installing ${missing.join(", ")}\n`);
  // Optional dependencies of one peer are native builds and model runtimes the benchmark never touches.
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--no-audit", "--no-fund", "--omit=optional"];
  const r = spawnSync(npm, args, { cwd: here, stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
