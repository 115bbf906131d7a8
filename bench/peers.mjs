// Other skills loaders from npm, each driven through its own documented discovery API over the same roots.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

const require = createRequire(import.meta.url);

/** Run `fn` with console output silenced: several peers warn about every odd skill. */
async function quietly(fn) {
  const saved = [console.log, console.warn, console.error];
  console.log = console.warn = console.error = () => {};
  try {
    return await fn();
  } finally {
    [console.log, console.warn, console.error] = saved;
  }
}

/** Fold per-root results last-root-wins by name, as this library does, and count the names. */
function countLastWins(perRoot) {
  const byName = new Map();
  for (const skills of perRoot) for (const s of skills) byName.set(s.name, s);
  return byName.size;
}

/** Load each installed peer; a missing one is reported and left out, never fatal. */
export async function loadPeers() {
  const peers = [];
  const missing = [];
  const attempt = async (name, make) => {
    try {
      peers.push({ name, run: await make() });
    } catch (e) {
      missing.push(`${name} (${e.code ?? e.message})`);
    }
  };

  await attempt("deepagents listSkills", async () => {
    const { listSkills } = await import("deepagents");
    // Its API takes a user and a project directory; each root goes in as a project directory.
    return (roots) =>
      quietly(() => countLastWins(roots.map((r) => listSkills({ projectSkillsDir: r.path }))));
  });

  await attempt("@skill-tools/core", async () => {
    const { parseSkill, resolveSkillFiles } = await import("@skill-tools/core");
    const matter = require("gray-matter");
    return (roots) =>
      quietly(async () => {
        matter.clearCache(); // gray-matter memoises by content, which would flatter later rounds
        const perRoot = [];
        for (const root of roots) {
          const found = await resolveSkillFiles(root.path);
          const parsed = await Promise.all(found.map((loc) => parseSkill(loc.skillFile)));
          perRoot.push(parsed.filter((p) => p.ok).map((p) => ({ name: p.skill.metadata.name })));
        }
        return countLastWins(perRoot);
      });
  });

  await attempt("@skillkit/core findAllSkills", async () => {
    const { findAllSkills } = await import("@skillkit/core");
    // First found wins there, so the roots go in highest precedence first.
    return (roots) => quietly(() => findAllSkills(roots.map((r) => r.path).reverse()).length);
  });

  await attempt("gray-matter loop", async () => {
    const matter = require("gray-matter");
    return (roots) => {
      matter.clearCache();
      const perRoot = roots.map((root) => {
        const skills = [];
        let entries = [];
        try {
          entries = fs.readdirSync(root.path, { withFileTypes: true });
        } catch {}
        for (const entry of entries) {
          if (!entry.isDirectory()) continue;
          const file = path.join(root.path, entry.name, "SKILL.md");
          let text;
          try {
            text = fs.readFileSync(file, "utf8");
          } catch {
            continue;
          }
          try {
            const { data } = matter(text);
            if (typeof data.name === "string") skills.push({ name: data.name });
          } catch {}
        }
        return skills;
      });
      return countLastWins(perRoot);
    };
  });

  return { peers, missing };
}
