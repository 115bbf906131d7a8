// Paths → a validation report: manifest errors, discovery warnings, the agentskills.io rules and a --target client's rules of every skill found.
import * as path from "node:path";
import { optionalBoolean, resolveConfig } from "./config.js";
import { describeValue, readable, StartupError } from "./errors.js";
import {
  type Draft,
  finish,
  HINTS,
  report,
  SCHEMA_HINTS,
  type ValidationReport,
  YAML_SHAPE_HINT,
} from "./findings.js";
import { repairLines } from "./frontmatter.js";
import { fsCode, readManifest, runSync, statSync } from "./fsx.js";
import { splitManifestBytes } from "./manifest.js";
import { merge } from "./merge.js";
import { checkFormatRules } from "./rules.js";
import { type Candidate, inspectSync, scanSync } from "./scan.js";
import { type ManifestFailure, parseManifest } from "./skill.js";
import { checkClientRules, VALIDATION_TARGETS, type ValidationTarget } from "./targets.js";
import type { AgentSkillsOptions, SkillConfig, SkillRoot, SkillWarning, WarnSink } from "./types.js";
import { classify, findSkillDirs, nothingChecked } from "./walk.js";
import { emit } from "./warnings.js";

/** Options of {@link validateSkills}. */
export interface ValidateOptions {
  /** Base of relative paths. @default process.cwd() */
  cwd?: string;
  /** Where `~` expands. @default os.homedir() */
  home?: string;
  /** Follow symlinked skill directories and manifests, as discovery does. @default true */
  followSymlinks?: boolean;
  /**
   * Take every path as a root, exactly as discovery would: no guessing whether it is a skill
   * directory or a manifest, and a root that does not exist or holds no skill is not reported.
   * @default false
   */
  asRoots?: boolean;
  /**
   * Receives the discovery warnings behind the findings (as a scan would emit them) instead of the
   * global warn sink. @default the global sink (stderr unless set)
   */
  onWarning?: WarnSink;
  /**
   * Find manifests at any depth below each path (up to 32 folders deep, skipping `node_modules` and
   * `.git`, each real folder read once), each checked as a skill of its parent directory. A skill
   * directory's subfolders are not searched. @default false
   */
  recursive?: boolean;
  /**
   * Also check the rules this client is documented (or coded) to enforce: `agentskills` (only the
   * specification's fields), `claude` (reserved words, XML tags), `codex` (file name, short
   * description). Its rules are errors. @default none
   */
  target?: ValidationTarget;
}

/** Validation's own settings, next to the resolved discovery config. */
interface Check {
  readonly config: SkillConfig;
  readonly target: ValidationTarget | undefined;
  readonly checked: Set<string>;
  /** The discovery warnings behind the findings, emitted once at the end as a scan would. */
  readonly seen: SkillWarning[];
}

/** Push without spreading: `push(...xs)` throws RangeError once `xs` holds ~120,000 items. */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

const PROBLEM_RULES: Readonly<Record<ManifestFailure["problem"], string>> = {
  file: "manifest-file",
  encoding: "manifest-encoding",
  fence: "frontmatter-fence",
  yaml: "yaml-syntax",
  schema: "frontmatter-schema",
};

const draft = (rule: string, file: string, message: string): Draft => ({ rule, file, message });

/** The finding carries the file: a message that starts with it would say it twice. */
function unprefix(message: string, file: string): string {
  return message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
}

function fromWarning(w: SkillWarning): Draft {
  // Every warning of a scan names its path.
  const file = w.path as string;
  const d = draft(w.code, file, unprefix(w.message, file));
  return w.skill === undefined ? d : { ...d, skill: w.skill };
}

const at = (line?: number, column?: number) => ({
  ...(line === undefined ? {} : { line }),
  ...(column === undefined ? {} : { column }),
});

/** The manifest's bytes and frontmatter text, read again only when a finding needs a line number or excerpt. */
function reread(file: string, follow: boolean): { bytes: Buffer; frontmatter: string } | undefined {
  try {
    const read = runSync(readManifest(file, !follow));
    if (read.kind !== "ok") return undefined;
    // Split as the scan split it; `undefined` when the file is no longer UTF-8.
    const split = splitManifestBytes(read.bytes);
    return split?.ok ? { bytes: read.bytes, frontmatter: split.frontmatter } : undefined;
  } catch (e) {
    // The file changed since the scan; its findings then simply carry no line.
    fsCode(e);
    return undefined;
  }
}

/**
 * The file line of each top-level key written in `frontmatter` (first occurrence), built once per
 * manifest: a skill with a thousand unknown keys must not rescan its text once per finding.
 */
function keyLines(frontmatter: string): Map<string, number> {
  const map = new Map<string, number>();
  frontmatter.split("\n").forEach((text, i) => {
    const colon = text.indexOf(":");
    // A key of the top-level map starts its line: an indented line or a comment is not one.
    if (colon <= 0 || text.startsWith(" ") || text.startsWith("\t") || text.startsWith("#")) return;
    const raw = text.slice(0, colon);
    // An empty key ("" or ":") stays unlocated: the finding about the manifest's file name has key "".
    const key = /^(["']).+\1$/.test(raw) ? raw.slice(1, -1) : raw;
    if (!map.has(key)) map.set(key, i + 2);
  });
  return map;
}

/** The text of file line `line`, to show under a YAML finding. */
function excerpt(file: { bytes: Buffer } | undefined, line: number | undefined): { excerpt?: string } {
  // UTF-8 (checked by the split). No line reads index -1, which holds nothing; a BOM stays on line 1, the fence.
  const text = file?.bytes.toString().split("\n")[(line ?? 0) - 1];
  return text === undefined ? {} : { excerpt: text.replace(/\r$/, "") };
}

/** A text key written as a number or a boolean (`name: 123`) is there: it needs quotes, not adding. */
function schemaHint(key: string, received: string | undefined): string | undefined {
  const text = key === "name" || key === "description";
  return text && (received === "number" || received === "boolean")
    ? `put the value in double quotes (${key}: "…"), so that YAML reads it as text`
    : SCHEMA_HINTS[key];
}

function candidateFindings(c: Candidate, check: Check): Draft[] {
  const { outcome } = c;
  const follow = check.config.followSymlinks;
  if (!outcome.ok) {
    // A YAML problem without a place is about the frontmatter's shape: quoting a value would not help.
    const hint =
      outcome.key !== undefined
        ? schemaHint(outcome.key, outcome.received)
        : outcome.problem === "yaml" && outcome.line === undefined
          ? YAML_SHAPE_HINT
          : undefined;
    // Some stage messages read as a predicate of the file ("is not valid UTF-8"): give them their subject.
    const message = /^(?:is|does|has|cannot) /.test(outcome.message)
      ? `${path.basename(c.path)} ${outcome.message}`
      : outcome.message;
    const yaml = outcome.problem === "yaml" ? reread(c.path, follow) : undefined;
    return [
      {
        ...draft(PROBLEM_RULES[outcome.problem], c.path, message),
        ...at(outcome.line, outcome.column),
        ...excerpt(yaml, outcome.line),
        ...(hint === undefined ? {} : { hint }),
      },
    ];
  }
  const out: Draft[] = [];
  const broken = [
    ...checkFormatRules(outcome.fields.metadata, c.dirName),
    ...checkClientRules(outcome.fields.metadata, c.path, check.target),
  ];
  const text = broken.length > 0 || outcome.repaired ? reread(c.path, follow) : undefined;
  for (const w of c.warnings) {
    // name-matches-dir below says the same, with a hint.
    if (w.code === "name_mismatch") continue;
    const found = fromWarning(w);
    if (w.code !== "yaml_repaired") out.push(found);
    // skills-ref's strict parser refuses what only loads after the repair: an error under its target.
    else
      out.push({
        ...repairFinding(found, text),
        ...(check.target === "agentskills" ? { rule: "agentskills-yaml" } : {}),
      });
  }
  const lines = text === undefined ? undefined : keyLines(text.frontmatter);
  for (const f of broken) {
    const line = lines?.get(f.key);
    out.push({ ...draft(f.rule, c.path, f.message), skill: outcome.fields.name, hint: f.hint, ...at(line) });
  }
  // In line order, as an editor lists them; findings without a line (the file's name, a key not found
  // written as such) after them. sort() is stable.
  const line = (d: Draft) => d.line ?? Number.POSITIVE_INFINITY;
  return out.sort((a, b) => line(a) - line(b));
}

const lineList = (ns: readonly number[]) =>
  ns.length === 1 ? `line ${ns[0]}` : `lines ${ns.slice(0, -1).join(", ")} and ${ns[ns.length - 1]}`;

/**
 * A yaml_repaired finding said precisely: the YAML error the file has as written, and the lines whose
 * values the repair quoted. Located at the error when that is on one of them, else at the first.
 */
function repairFinding(found: Draft, file: { bytes: Buffer; frontmatter: string } | undefined): Draft {
  // Unreadable by now, or changed since the scan (it parses as written, or no repair would load it):
  // the warning's own words. (An outcome that parses has no line: `ok` only narrows the type.)
  if (file === undefined) return found;
  const original = parseManifest(file.bytes, false);
  const repair = repairLines(file.frontmatter);
  if (original.ok || original.line === undefined || repair === undefined) return found;
  // Frontmatter line n is file line n + 1, below the opening fence.
  const quoted = repair.quoted.map((q) => ({ line: q.line + 1, column: q.column }));
  const first = quoted[0] as { line: number; column: number };
  const place = quoted.find((q) => q.line === original.line)
    ? { line: original.line, column: original.column }
    : first;
  const message = `frontmatter is not valid YAML (${original.message}); it loads only after quoting the plain value${quoted.length === 1 ? "" : "s"} on ${lineList(quoted.map((q) => q.line))}`;
  return { ...found, message, ...at(place.line, place.column), ...excerpt(file, place.line) };
}

function checkRoot(check: Check, root: SkillRoot, reportEmpty: boolean): Draft[] {
  const { config, checked } = check;
  const one: SkillConfig = { ...config, roots: [root] };
  // One root, so its items are all the scan's.
  const items = scanSync(one).roots.flat();
  const out: Draft[] = [];
  for (const item of items) {
    if (item.kind === "warning") for (const w of item.warnings) out.push(fromWarning(w));
    else {
      checked.add(item.path);
      append(out, candidateFindings(item, check));
    }
  }
  // In-root duplicates are decided by the same merge discovery uses, which also gives the scan's warnings.
  const merged = merge(one, [items]);
  for (const w of merged.warnings) check.seen.push(w);
  for (const list of merged.candidates.values()) {
    for (const c of list) {
      if (c.verdict !== "duplicate") continue;
      // Located at its `name:`, which says what it duplicates.
      const text = reread(c.path, config.followSymlinks);
      const line = text === undefined ? undefined : keyLines(text.frontmatter).get("name");
      out.push({
        ...draft("duplicate_skill", c.path, unprefix(c.reason, c.path)),
        skill: c.name,
        ...at(line),
      });
    }
  }
  if (reportEmpty && items.length === 0) {
    out.push(draft("no-skills", root.path, "holds no skill directory (<name>/SKILL.md)"));
  }
  return out;
}

/** A skill directory, checked as discovery reads it; `given`: the manifest PATH that named it, if one did. */
function checkSkill(check: Check, dir: string, given?: string): Draft[] {
  const item = inspectSync(check.config, dir);
  if (item === undefined) return [draft("not-a-skill", dir, "holds no SKILL.md; skipped")];
  for (const w of merge(check.config, [[item]]).warnings) check.seen.push(w);
  if (item.kind === "warning") return item.warnings.map(fromWarning);
  check.checked.add(item.path);
  const out = candidateFindings(item, check);
  // A manifest PATH that discovery passes over for another of the folder's (SKILL.md over skill.md) is
  // said, so that a run does not pass on a file it never read; the very file under another name (a
  // link, or another case on a disk that ignores case) is not.
  if (given !== undefined && given !== item.path && !sameFile(item.path, given)) {
    const message = `is not the manifest discovery reads in its folder: ${path.basename(item.path)} is, and was checked instead`;
    out.push({ ...draft("not-a-skill", given, message), hint: HINTS.multiple_manifests as string });
  }
  return out;
}

/** `--recursive`: every skill directory at any depth below `dir`, each checked as a skill. */
function checkTree(check: Check, dir: string): Draft[] {
  const walk = findSkillDirs(dir, check.config.followSymlinks);
  const out = walk.problems.map((p) => draft("walk-incomplete", p.path, p.message));
  for (const skill of walk.skills) append(out, checkSkill(check, skill));
  return out;
}

/**
 * Validate skill directories, SKILL.md files or roots (folders of skill directories) against the
 * schema, discovery's warnings and the agentskills.io format rules. Reads only, and never throws for
 * a bad skill: every problem becomes a finding with its file, line where known, rule and fix hint.
 * @throws {StartupError} when `paths` is not a non-empty array of non-empty strings, `options` is not an object, or one of its options is mistyped (options it does not take are ignored).
 * @example
 * const report = validateSkills(["skills"]);
 * for (const f of report.findings) console.log(`${f.file}:${f.line ?? 1}: ${f.rule}: ${f.message}`);
 * process.exitCode = report.ok ? 0 : 1;
 */
export function validateSkills(paths: readonly string[], options: ValidateOptions = {}): ValidationReport {
  const { check, asRoots, recursive, onWarning } = readable("validateSkills arguments", () =>
    prepare(paths, options),
  );
  const { config } = check;
  let drafts: Draft[] = [];
  for (const root of config.roots) {
    const found = asRoots ? { kind: "root" as const, dir: root.path } : classify(root.path);
    if (!("kind" in found)) drafts.push(found);
    else if (recursive && found.kind === "root") append(drafts, checkTree(check, found.dir));
    else if (found.kind === "root") append(drafts, checkRoot(check, root, !asRoots));
    else append(drafts, checkSkill(check, found.dir, found.dir === root.path ? undefined : root.path));
  }
  if (check.checked.size === 0) {
    // The per-root "holds no skill directory" warnings say less than the error that replaces them.
    drafts = drafts.filter((d) => d.rule !== "no-skills");
    for (const root of config.roots) {
      const nothing = nothingChecked(root.path, drafts, recursive, asRoots);
      if (nothing === undefined) continue;
      // The error says what the path is: the warning that skipped it would only say it again.
      drafts = drafts.filter((d) => !(d.rule === "not-a-skill" && d.file === root.path));
      drafts.push(nothing);
    }
  }
  // Paths that overlap (a root and a skill in it) or repeat find the same things again: each is told once.
  emit(
    unique(check.seen, (w) => [w.code, w.path, w.message]),
    onWarning,
  );
  return report(
    unique(drafts, (d) => [d.rule, d.file, d.line, d.column, d.message]).map(finish),
    check.checked,
  );
}

/** The first of each item by `key`, in order. */
function unique<T>(items: readonly T[], key: (item: T) => readonly unknown[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = JSON.stringify(key(item));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Whether `a` and `b` are one file (by device and inode): a link, or one name in two cases on a disk that ignores case. */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
  } catch (e) {
    // Gone or unreadable since the check: not shown to be the file that was read.
    fsCode(e);
    return false;
  }
}

/** validateSkills' arguments checked, and its run's state. */
function prepare(
  paths: readonly string[],
  options: ValidateOptions,
): { check: Check; asRoots: boolean; recursive: boolean; onWarning: WarnSink | undefined } {
  if (!Array.isArray(paths) || paths.length === 0) {
    const received = Array.isArray(paths) ? "an empty array" : typeof paths;
    throw new StartupError(`validateSkills expects a non-empty array of paths, received ${received}`);
  }
  if (typeof options !== "object" || options === null) {
    throw new StartupError(`validateSkills options must be an object, received ${describeValue(options)}`);
  }
  const asRoots = optionalBoolean(options, "asRoots", false);
  const recursive = optionalBoolean(options, "recursive", false);
  const { target, cwd, home, followSymlinks, onWarning } = options;
  if (target !== undefined && !(VALIDATION_TARGETS as readonly unknown[]).includes(target)) {
    throw new StartupError(
      `option "target" must be ${VALIDATION_TARGETS.map((t) => JSON.stringify(t)).join(", ")} or undefined, received ${JSON.stringify(target)}`,
    );
  }
  // Only the options it documents: `strict` or `workspace` (discovery's) would make it throw for a bad
  // skill. resolveConfig takes an option given as undefined as not given.
  // Array.from, not map: a hole is an undefined path, refused as one.
  const roots = Array.from(paths, (p) => ({ path: p }));
  const config = resolveConfig({ cwd, home, followSymlinks, onWarning, roots } as AgentSkillsOptions);
  return { check: { config, target, checked: new Set(), seen: [] }, asRoots, recursive, onWarning };
}
