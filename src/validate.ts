// Paths → a validation report: manifest errors, discovery warnings and the agentskills.io rules of every skill found.
import * as path from "node:path";
import { resolveConfig } from "./config.js";
import { StartupError } from "./errors.js";
import { type Draft, finish, report, SCHEMA_HINTS, type ValidationReport } from "./findings.js";
import { fsCode, readdirSync, readManifest, runSync, statSync } from "./fsx.js";
import { decodeUtf8, splitManifest } from "./manifest.js";
import { merge } from "./merge.js";
import { checkFormatRules } from "./rules.js";
import { type Candidate, inspectSync, scanSync } from "./scan.js";
import { keyLine, type ManifestFailure, parseManifest } from "./skill.js";
import type { SkillConfig, SkillRoot, SkillWarning, WarnSink } from "./types.js";
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
  return file !== "" && message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
}

function fromWarning(w: SkillWarning): Draft {
  const d = draft(w.code, w.path ?? "", unprefix(w.message, w.path ?? ""));
  return w.skill === undefined ? d : { ...d, skill: w.skill };
}

const at = (line?: number, column?: number) => ({
  ...(line === undefined ? {} : { line }),
  ...(column === undefined ? {} : { column }),
});

/** The manifest's bytes and frontmatter text, read again only when a finding needs a line number. */
function reread(file: string, follow: boolean): { bytes: Uint8Array; frontmatter: string } | undefined {
  try {
    const read = runSync(readManifest(file, !follow));
    const text = read.kind === "ok" ? decodeUtf8(read.bytes) : undefined;
    const split = text === undefined ? undefined : splitManifest(text);
    return read.kind === "ok" && split?.ok
      ? { bytes: read.bytes, frontmatter: split.frontmatter }
      : undefined;
  } catch (e) {
    // The file changed since the scan; its findings then simply carry no line.
    fsCode(e);
    return undefined;
  }
}

function candidateFindings(c: Candidate, follow: boolean): Draft[] {
  const { outcome } = c;
  if (!outcome.ok) {
    const hint = outcome.key === undefined ? undefined : SCHEMA_HINTS[outcome.key];
    // Some stage messages read as a predicate of the file ("is not valid UTF-8"): give them their subject.
    const message = /^(?:is|does|has|cannot) /.test(outcome.message)
      ? `${path.basename(c.path)} ${outcome.message}`
      : outcome.message;
    return [
      {
        ...draft(PROBLEM_RULES[outcome.problem], c.path, message),
        ...at(outcome.line, outcome.column),
        ...(hint === undefined ? {} : { hint }),
      },
    ];
  }
  const out: Draft[] = [];
  const broken = checkFormatRules(outcome.fields.metadata, c.dirName);
  const text = broken.length > 0 || outcome.repaired ? reread(c.path, follow) : undefined;
  for (const w of c.warnings) {
    // name-matches-dir below says the same, with a hint.
    if (w.code === "name_mismatch") continue;
    const original =
      w.code === "yaml_repaired" && text !== undefined ? parseManifest(text.bytes, false) : undefined;
    if (original === undefined || original.ok || original.line === undefined) out.push(fromWarning(w));
    else {
      const message = `frontmatter is not valid YAML (${original.message}); it loads only after quoting values that contain ": "`;
      out.push({ ...fromWarning(w), message, ...at(original.line, original.column) });
    }
  }
  for (const f of broken) {
    const line = text === undefined ? undefined : keyLine(text.frontmatter, f.key);
    out.push({ ...draft(f.rule, c.path, f.message), skill: outcome.fields.name, hint: f.hint, ...at(line) });
  }
  return out;
}

/** What a path given to validate is: a root, a skill directory, or a finding that ends its check. */
function classify(p: string): { kind: "root" | "skill"; dir: string } | Draft {
  try {
    const st = statSync(p);
    if (st === undefined) return draft("path-missing", p, "does not exist");
    if (st.isFile()) {
      if (path.basename(p).toLowerCase() === "skill.md") return { kind: "skill", dir: path.dirname(p) };
      return draft("not-a-skill", p, "is a file but not a SKILL.md; skipped");
    }
    if (!st.isDirectory()) return draft("not-a-skill", p, "is not a file or a directory; skipped");
    const holdsManifest = readdirSync(p).some((e) => e.name.toLowerCase() === "skill.md");
    return { kind: holdsManifest ? "skill" : "root", dir: p };
  } catch (e) {
    return draft("unreadable", p, `cannot be read (${fsCode(e)})`);
  }
}

function checkRoot(
  config: SkillConfig,
  root: SkillRoot,
  reportEmpty: boolean,
  checked: Set<string>,
  seen: SkillWarning[],
): Draft[] {
  const one: SkillConfig = { ...config, roots: [root] };
  const items = scanSync(one).roots[0] ?? [];
  const out: Draft[] = [];
  for (const item of items) {
    if (item.kind === "warning") out.push(fromWarning(item.warning));
    else {
      checked.add(item.path);
      out.push(...candidateFindings(item, config.followSymlinks));
    }
  }
  // In-root duplicates are decided by the same merge discovery uses, which also gives the scan's warnings.
  const merged = merge(one, [items]);
  for (const w of merged.warnings) seen.push(w);
  for (const list of merged.candidates.values()) {
    for (const c of list) {
      if (c.verdict !== "duplicate") continue;
      out.push({ ...draft("duplicate_skill", c.path, unprefix(c.reason, c.path)), skill: c.name });
    }
  }
  if (reportEmpty && items.length === 0) {
    out.push(draft("no-skills", root.path, "holds no skill directory (<name>/SKILL.md)"));
  }
  return out;
}

function checkSkill(config: SkillConfig, dir: string, checked: Set<string>, seen: SkillWarning[]): Draft[] {
  const item = inspectSync(config, dir);
  if (item === undefined) return [draft("not-a-skill", dir, "holds no SKILL.md; skipped")];
  for (const w of merge(config, [[item]]).warnings) seen.push(w);
  if (item.kind === "warning") return [fromWarning(item.warning)];
  checked.add(item.path);
  return candidateFindings(item, config.followSymlinks);
}

/**
 * Validate skill directories, SKILL.md files or roots (folders of skill directories) against the
 * schema, discovery's warnings and the agentskills.io format rules. Reads only, and never throws for
 * a bad skill: every problem becomes a finding with its file, line where known, rule and fix hint.
 * @throws {StartupError} when `paths` is not a non-empty array of non-empty strings, or an option is mistyped.
 * @example
 * const report = validateSkills(["skills"]);
 * for (const f of report.findings) console.log(`${f.file}:${f.line ?? 1}: ${f.rule}: ${f.message}`);
 * process.exitCode = report.ok ? 0 : 1;
 */
export function validateSkills(paths: readonly string[], options: ValidateOptions = {}): ValidationReport {
  if (!Array.isArray(paths) || paths.length === 0) {
    const received = Array.isArray(paths) ? "an empty array" : typeof paths;
    throw new StartupError(`validateSkills expects a non-empty array of paths, received ${received}`);
  }
  const { asRoots = false, onWarning } = options;
  const config = resolveConfig({ ...options, roots: paths.map((p) => ({ path: p })) });
  const drafts: Draft[] = [];
  const checked = new Set<string>();
  const seen: SkillWarning[] = [];
  for (const root of config.roots) {
    const target = asRoots ? { kind: "root" as const, dir: root.path } : classify(root.path);
    if (!("kind" in target)) drafts.push(target);
    else if (target.kind === "root") drafts.push(...checkRoot(config, root, !asRoots, checked, seen));
    else drafts.push(...checkSkill(config, target.dir, checked, seen));
  }
  emit(seen, onWarning);
  return report(drafts.map(finish), checked);
}
