// The references discovery is measured against: the bare I/O it cannot avoid, and that I/O plus one yaml parse per file.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseDocument } from "yaml";

/**
 * Every manifest path of `roots`, found the cheapest way: readdir each root, readdir each skill
 * directory (names only), keep the entries named SKILL.md in any case. `visit` gets each path.
 */
function eachManifest(roots, visit) {
  for (const root of roots) {
    let entries;
    try {
      entries = fs.readdirSync(root.path, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const dir = path.join(root.path, entry.name);
      let names;
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      const name = names.find((n) => n.length === 8 && n.toLowerCase() === "skill.md");
      if (name !== undefined) visit(path.join(dir, name));
    }
  }
}

/** The bare-I/O floor: list roots and skill directories, read each manifest, parse nothing. */
export function floor(roots) {
  let bytes = 0;
  eachManifest(roots, (file) => {
    bytes += fs.readFileSync(file).length;
  });
  return bytes;
}

const FENCES = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*\r?$/m;

/** The floor plus one `yaml` parse per frontmatter: what a yaml-per-file loader cannot go below. */
export function floorYaml(roots) {
  let parsed = 0;
  eachManifest(roots, (file) => {
    const m = FENCES.exec(fs.readFileSync(file, "utf8"));
    if (m === null) return;
    const doc = parseDocument(m[1], { uniqueKeys: true, logLevel: "error" });
    if (doc.errors.length === 0 && doc.toJS() !== null) parsed++;
  });
  return parsed;
}
