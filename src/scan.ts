// Roots → candidate skill directories → manifest outcomes, written once as fs tasks with a sync and an async driver.
import * as path from "node:path";
import { errnoCode } from "./errors.js";
import { type Entry, type FsTask, readdir, readManifest, runAsync, runSync, stat } from "./fsx.js";
import { type ManifestOutcome, parseManifest } from "./skill.js";
import type { SkillConfig, SkillRoot, SkillWarning } from "./types.js";
import { warning } from "./warnings.js";

/** A directory that holds a manifest, with what the manifest amounted to. */
export interface Candidate {
  readonly kind: "candidate";
  /** The directory's name under the root. */
  readonly dirName: string;
  readonly dir: string;
  readonly path: string;
  /** File signature of the manifest read; "" when it could not be read. */
  readonly sig: string;
  readonly outcome: ManifestOutcome;
  /** Warnings about this candidate that do not decide its fate (several manifests, repair, name mismatch). */
  readonly warnings: readonly SkillWarning[];
}

/** One root's findings in sorted directory order: candidates, and warnings where they arose. */
export type ScanItem = Candidate | { readonly kind: "warning"; readonly warning: SkillWarning };

/** Manifest outcomes by manifest path, reused while the file's signature is unchanged. */
export type ManifestCache = Map<string, { readonly sig: string; readonly outcome: ManifestOutcome }>;

/** The result of scanning every root. */
export interface Scan {
  /** Items per root, in `config.roots` order. */
  readonly roots: readonly (readonly ScanItem[])[];
  /** The cache to hand to the next scan. */
  readonly cache: ManifestCache;
}

type Slot = { readonly kind: "dir"; readonly name: string; readonly dir: string } | ScanItem;

interface Context {
  readonly config: SkillConfig;
  readonly previous: ManifestCache;
  readonly next: ManifestCache;
}

const warn = (
  code: Parameters<typeof warning>[0],
  message: string,
  p?: string,
  skill?: string,
): ScanItem => ({
  kind: "warning",
  warning: warning(code, message, p, skill),
});

const GONE = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

function* listRoot(root: SkillRoot, follow: boolean): FsTask<Slot[]> {
  let entries: Entry[];
  try {
    entries = yield* readdir(root.path);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT") return [];
    if (code === "ENOTDIR") {
      // ENOTDIR also comes when a parent of the root is a file: then the root simply does not exist.
      try {
        yield* stat(root.path);
      } catch {
        return [];
      }
      return [warn("root_not_directory", `root ${root.path} is not a directory`, root.path)];
    }
    return [warn("root_unreadable", `root ${root.path} cannot be read (${code ?? String(e)})`, root.path)];
  }
  const slots: Slot[] = [];
  for (const entry of entries) {
    const dir = path.join(root.path, entry.name);
    if (entry.type === "dir") {
      slots.push({ kind: "dir", name: entry.name, dir });
    } else if (entry.type === "symlink" && follow) {
      try {
        const target = yield* stat(dir);
        if (target.type === "dir") slots.push({ kind: "dir", name: entry.name, dir });
      } catch (e) {
        const code = errnoCode(e) ?? String(e);
        slots.push(
          GONE.has(code)
            ? warn("dangling_symlink", `symlink ${dir} points to nothing usable (${code}); skipped`, dir)
            : warn("unreadable", `symlink ${dir} cannot be followed (${code}); skipped`, dir),
        );
      }
    }
  }
  return slots;
}

function* inspect(ctx: Context, name: string, dir: string): FsTask<ScanItem | undefined> {
  const follow = ctx.config.followSymlinks;
  let entries: Entry[];
  try {
    entries = yield* readdir(dir);
  } catch (e) {
    const code = errnoCode(e) ?? String(e);
    return warn("unreadable", `skill directory ${dir} cannot be read (${code}); skipped`, dir);
  }
  const manifests = entries.filter(
    (e) => e.name.toLowerCase() === "skill.md" && (follow || e.type !== "symlink"),
  );
  const chosen = manifests.find((m) => m.name === "SKILL.md") ?? manifests[0];
  if (chosen === undefined) return undefined;
  const file = path.join(dir, chosen.name);
  const warnings: SkillWarning[] = [];
  if (manifests.length > 1) {
    const names = manifests.map((m) => m.name).join(", ");
    warnings.push(
      warning("multiple_manifests", `${dir} has several manifests (${names}); using ${chosen.name}`, file),
    );
  }
  let sig = "";
  let outcome: ManifestOutcome | undefined;
  try {
    const cached = ctx.previous.get(file);
    if (cached !== undefined && (yield* stat(file)).sig === cached.sig) ({ sig, outcome } = cached);
    if (outcome === undefined) {
      const read = yield* readManifest(file, !follow);
      if (read.kind === "not_regular")
        outcome = { ok: false, problem: "file", message: `is ${read.what}, not a regular file` };
      else if (read.kind === "too_large")
        outcome = { ok: false, problem: "file", message: `is ${read.size} bytes, over the 1 MiB limit` };
      else {
        sig = read.sig;
        outcome = parseManifest(read.bytes, !ctx.config.strict);
      }
    }
  } catch (e) {
    const code = errnoCode(e) ?? String(e);
    if (GONE.has(code) && chosen.type === "symlink") {
      return warn(
        "dangling_symlink",
        `manifest symlink ${file} points to nothing usable (${code}); skipped`,
        file,
      );
    }
    if (GONE.has(code))
      return warn("unreadable", `manifest ${file} vanished during the scan (${code}); skipped`, file);
    outcome = { ok: false, problem: "file", message: `cannot be read (${code})` };
  }
  if (sig !== "") ctx.next.set(file, { sig, outcome });
  if (outcome.ok) {
    const skill = outcome.fields.name;
    if (outcome.repaired) {
      warnings.push(
        warning(
          "yaml_repaired",
          `${file}: frontmatter is not valid YAML; loaded after quoting plain values that contain ": "`,
          file,
          skill,
        ),
      );
    }
    if (outcome.fields.toolsIgnored) {
      warnings.push(
        warning(
          "tools_ignored",
          `${file}: "tools" is not a string or a list of strings, so it does not set allowedTools; kept in metadata`,
          file,
          skill,
        ),
      );
    }
    if (skill !== name) {
      warnings.push(
        warning(
          "name_mismatch",
          `${file}: name "${skill}" differs from its directory "${name}"; loaded as "${skill}"`,
          file,
          skill,
        ),
      );
    }
  }
  return { kind: "candidate", dirName: name, dir, path: file, sig, outcome, warnings };
}

/** Scan every root synchronously. `previous` holds outcomes to reuse for unchanged files. */
export function scanSync(config: SkillConfig, previous: ManifestCache): Scan {
  const ctx: Context = { config, previous, next: new Map() };
  const roots = config.roots.map((root) => {
    const items: ScanItem[] = [];
    for (const slot of runSync(listRoot(root, config.followSymlinks))) {
      const item = slot.kind === "dir" ? runSync(inspect(ctx, slot.name, slot.dir)) : slot;
      if (item !== undefined) items.push(item);
    }
    return items;
  });
  return { roots, cache: ctx.next };
}

/**
 * Inspect one skill directory exactly as a scan of its parent would (manifest choice, symlink rule,
 * parse), without scanning its siblings; `undefined` when it holds no manifest.
 */
export function inspectSync(config: SkillConfig, dir: string): ScanItem | undefined {
  const ctx: Context = { config, previous: new Map(), next: new Map() };
  return runSync(inspect(ctx, path.basename(dir), dir));
}

/** How many skill directories the async scan inspects at once. */
const CONCURRENCY = 32;

/** Scan every root without blocking; the result is identical to {@link scanSync}'s. */
export async function scanAsync(config: SkillConfig, previous: ManifestCache): Promise<Scan> {
  const ctx: Context = { config, previous, next: new Map() };
  const listed = await Promise.all(
    config.roots.map((root) => runAsync(listRoot(root, config.followSymlinks))),
  );
  const results: (ScanItem | undefined)[][] = listed.map((slots) => new Array(slots.length));
  const jobs: [number, number, string, string][] = [];
  listed.forEach((slots, r) => {
    slots.forEach((slot, i) => {
      if (slot.kind === "dir") jobs.push([r, i, slot.name, slot.dir]);
      else (results[r] as (ScanItem | undefined)[])[i] = slot;
    });
  });
  let nextJob = 0;
  const worker = async () => {
    for (let job = jobs[nextJob++]; job !== undefined; job = jobs[nextJob++]) {
      const [r, i, name, dir] = job;
      (results[r] as (ScanItem | undefined)[])[i] = await runAsync(inspect(ctx, name, dir));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  const roots = results.map((items) => items.filter((item): item is ScanItem => item !== undefined));
  return { roots, cache: ctx.next };
}
