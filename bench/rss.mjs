// Child process of the benchmark: discover a store in a fresh process and print its RSS in MiB: the peak
// over discovery, a refresh and 100 loadSkill calls, or with `discovery`, what discovery alone keeps.
// Usage: node [--expose-gc] rss.mjs LIBRARY_URL ROOTS_JSON [discovery]
import * as fs from "node:fs";

const [url, rootsJson, mode] = process.argv.slice(2);
const { createAgentSkills, setWarnSink } = await import(url);
setWarnSink(() => {});
const roots = JSON.parse(rootsJson);
const skills = createAgentSkills({ roots });
if (mode === "discovery") {
  globalThis.gc?.();
  process.stdout.write(String(process.memoryUsage().rss / 1024 / 1024));
  process.exit(0);
}
skills.refresh();
for (const s of skills.listSkills().slice(0, 100)) skills.loadSkill(s.name);

/**
 * The peak RSS of this process. Linux's getrusage maximum carries over exec from the parent (the
 * benchmark, itself large), so VmHWM, which belongs to this process image alone, is read where it exists.
 */
function peakMiB() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (hwm !== null) return Number(hwm[1]) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}
process.stdout.write(String(peakMiB()));
