// Issue 10's figures, by hand (not part of `npm run bench`): per-manifest cost of hostile frontmatter,
// resource listing in directories, buffers held after refreshes, and never-served bodies.
// Usage: npm run build && node --expose-gc bench/hardening.mjs [path/to/dist]
// Give another build's dist (e.g. of an older commit) to get its "before" figures.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, "..", "dist"));
const lib = await import(pathToFileURL(path.join(dist, "index.js")).href);
const fsx = await import(pathToFileURL(path.join(dist, "fsx.js")).href);
lib.setWarnSink(() => {});
if (typeof global.gc !== "function") throw new Error("run with node --expose-gc");
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hardening-")));
const MiB = 1024 * 1024;
const held = () => {
  global.gc();
  global.gc();
  return process.memoryUsage();
};
const writeSkill = (dir, text) => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), text);
};
const out = {};

// Finding 1: 300 anchors, then aliases to them up to `chars`, then `t: *S`; median of warm runs.
for (const chars of [4000, 8000, 16000]) {
  const anchors = Array.from({ length: 300 }, (_, i) => `&a${i} 1`).join(", ");
  let text = `name: x\ndescription: d\na: [${anchors}]\ns: &S [`;
  for (let i = 0; text.length < chars; i++) text += `*a${i % 300}, `;
  const root = path.join(tmp, `alias-${chars}`);
  writeSkill(path.join(root, "x"), `---\n${text}*a0]\nt: *S\n---\nbody\n`);
  const times = [];
  for (let k = 0; k < 7; k++) {
    const t0 = performance.now();
    lib.createAgentSkills({ roots: [{ path: root }] });
    times.push(performance.now() - t0);
  }
  out[`finding1 alias frontmatter ${chars} chars, ms (median of 7)`] = +times
    .sort((a, b) => a - b)[3]
    .toFixed(1);
}

// Finding 4: a skill of 31,031 empty directories; readdir calls and time of one loadSkill.
{
  const root = path.join(tmp, "dirs");
  const s = path.join(root, "s");
  writeSkill(s, "---\nname: s\ndescription: d\n---\nb\n");
  for (let i = 0; i < 31031; i++)
    fs.mkdirSync(path.join(s, `d${i % 31}`, `e${Math.floor(i / 31) % 31}`, `f${i}`), { recursive: true });
  const skills = lib.createAgentSkills({ roots: [{ path: root }] });
  let calls = 0;
  fsx.setFaultHook((op) => {
    if (op === "readdir") calls++;
  });
  const t0 = performance.now();
  skills.loadSkill("s");
  out["finding4 31,031 empty dirs: loadSkill ms"] = +(performance.now() - t0).toFixed(0);
  out["finding4 31,031 empty dirs: readdir calls"] = calls;
  fsx.setFaultHook(null);
}

// Finding 7: 5,000 manifests of 1 KiB, 64 refreshes each rewriting a random 5 %; buffers held vs a fresh scan.
{
  const root = path.join(tmp, "refresh");
  const write = (i, round) =>
    writeSkill(
      path.join(root, `s${i}`),
      `---\nname: s${i}\ndescription: round ${round}\n---\n${"b".repeat(1000)}\n`,
    );
  for (let i = 0; i < 5000; i++) write(i, 0);
  const skills = lib.createAgentSkills({ roots: [{ path: root }] });
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let r = 1; r <= 64; r++) {
    for (let k = 0; k < 250; k++) write(Math.floor(rnd() * 5000), r);
    // Past the scan's 100 ms window for trusting a signature.
    await new Promise((resolve) => setTimeout(resolve, 110));
    skills.refresh();
  }
  const after = held().arrayBuffers;
  const fresh = lib.createAgentSkills({ roots: [{ path: root }] });
  const both = held().arrayBuffers;
  out["finding7 buffers after 64 refreshes, MiB"] = +(after / MiB).toFixed(1);
  out["finding7 buffers of one fresh scan, MiB"] = +((both - after) / MiB).toFixed(1);
  void skills.listSkills();
  void fresh.listSkills();
}

// Finding 8: 500 in-root duplicates of 1 MiB, one served.
{
  const root = path.join(tmp, "dups");
  for (let i = 0; i < 500; i++)
    writeSkill(
      path.join(root, `d${String(i).padStart(3, "0")}`),
      `---\nname: dup\ndescription: d\n---\n${"b".repeat(MiB - 40)}\n`,
    );
  const before = held();
  const skills = lib.createAgentSkills({ roots: [{ path: root }] });
  const after = held();
  out["finding8 500 duplicates of 1 MiB: buffers held, MiB"] = +(
    (after.arrayBuffers - before.arrayBuffers) /
    MiB
  ).toFixed(1);
  out["finding8 500 duplicates of 1 MiB: RSS growth, MiB"] = +((after.rss - before.rss) / MiB).toFixed(1);
  void skills.listSkills();
}

fs.rmSync(tmp, { recursive: true, force: true });
for (const [k, v] of Object.entries(out)) console.log(`${k}: ${v}`);
