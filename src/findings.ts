// Validation findings: their shape, the severity and fix hint of each rule, and the report that counts them.
import { TARGET_RULES } from "./targets.js";

/** How bad a finding is: an `error` fails validation, a `warning` only under `--strict`. */
export type FindingSeverity = "error" | "warning";

/** One problem found, located as precisely as is known. */
export interface ValidationFinding {
  /** `error` or `warning`; fixed per rule (see the README's rule table). */
  readonly severity: FindingSeverity;
  /** The check: a library warning code (`yaml_repaired`) or a validator rule (`name-format`, `yaml-syntax`). */
  readonly rule: string;
  /** Absolute path of the manifest, directory or root concerned. */
  readonly file: string;
  /** 1-based line in `file`, when known. */
  readonly line?: number;
  /** 1-based column in `file`, when known. */
  readonly column?: number;
  /** The skill's name, when it is known. */
  readonly skill?: string;
  /** What is wrong, naming the value. */
  readonly message: string;
  /** One line on how to fix it. */
  readonly hint: string;
  /** The text of the offending line, for a YAML finding with a line (shown with a caret under `column`). */
  readonly excerpt?: string;
}

/** How often one rule was broken. */
export interface RuleCount {
  /** The rule. */
  readonly rule: string;
  /** Its severity. */
  readonly severity: FindingSeverity;
  /** How many findings it has. */
  readonly count: number;
}

/** The outcome of `validateSkills`. Frozen. */
export interface ValidationReport {
  /** `true` when no finding is an error. */
  readonly ok: boolean;
  /** Manifests checked, valid or not. */
  readonly skills: number;
  /** Manifests with at least one error. */
  readonly skillsWithErrors: number;
  /** Findings of severity `error`. */
  readonly errors: number;
  /** Findings of severity `warning`. */
  readonly warnings: number;
  /** Findings per rule: errors first, then by count (highest first), then by rule. */
  readonly rules: readonly RuleCount[];
  /**
   * Every finding once, in the order the paths were given, within a root in sorted directory order,
   * and within a file in line order (findings without a line last).
   */
  readonly findings: readonly ValidationFinding[];
}

/** A finding before its severity and default hint are filled in. */
export type Draft = Omit<ValidationFinding, "severity" | "hint"> & { hint?: string };

/** Rules that fail validation; every other rule is a warning. */
const ERRORS: ReadonlySet<string> = new Set([
  "path-missing",
  "manifest-file",
  "manifest-encoding",
  "frontmatter-fence",
  "yaml-syntax",
  "frontmatter-schema",
  "name-format",
  "name-matches-dir",
  "description-length",
  "compatibility-length",
  "metadata-strings",
  "duplicate_skill",
  "unreadable",
  "root_unreadable",
  "no-manifest",
  ...TARGET_RULES,
]);

/** Each rule's default hint; a draft may carry its own. */
export const HINTS: Readonly<Record<string, string>> = {
  "path-missing": "check the path: give a skill directory, its SKILL.md, or a folder of skill directories",
  "not-a-skill": "give a skill directory, its SKILL.md, or a folder of skill directories",
  "no-skills": "put each skill in its own folder: <root>/<name>/SKILL.md",
  "manifest-file":
    "make SKILL.md a readable regular file of at most 1 MiB; move long material into other files",
  "manifest-encoding": "save SKILL.md as UTF-8",
  "frontmatter-fence":
    "start the file with a line ---, then the YAML keys (name, description), then a line ---",
  "yaml-syntax": 'fix the YAML here; put values that contain ": " or start with [ { ` @ in double quotes',
  yaml_repaired: "put the value in double quotes: strict mode and strict YAML parsers reject it as written",
  "agentskills-yaml": "put the value in double quotes: skills-ref's strict YAML parser rejects it as written",
  tools_ignored: "use allowed-tools for tool permissions; keep other tool data under another key",
  multiple_manifests: "keep one manifest, named SKILL.md",
  dangling_symlink: "point the symlink at an existing skill directory, or remove it",
  unreadable: "make it readable by the user that runs the agent",
  root_unreadable: "make it readable by the user that runs the agent",
  root_not_directory: "give a directory that holds skill directories",
  duplicate_skill: "rename one of the two skills, or remove the copy",
  "walk-incomplete": "give a narrower PATH, or make the folder readable",
};

/** The hint of a YAML finding without a place: too long, too deep, too many aliases, not a mapping. */
export const YAML_SHAPE_HINT =
  "keep the frontmatter a mapping of plain keys and values (name, description, …), shallow and without YAML aliases; long text goes in the body";

/** Hints for a schema failure, by the frontmatter key concerned. */
export const SCHEMA_HINTS: Readonly<Record<string, string>> = {
  name: "add name: <directory-name>, lower-case words joined by hyphens",
  description: "add a description: what the skill does and when an agent should use it",
  "allowed-tools": "write a string such as Read Bash(git diff:*), or a list of strings",
  tools: "write a string such as Read Bash(git diff:*), or a list of strings",
  "user-invocable": "write true or false",
};

/** Give a draft its rule's severity and, unless it has one, the rule's hint; keys in one fixed order. */
export function finish(d: Draft): ValidationFinding {
  return Object.freeze({
    severity: ERRORS.has(d.rule) ? "error" : "warning",
    rule: d.rule,
    file: d.file,
    ...(d.line === undefined ? {} : { line: d.line }),
    ...(d.column === undefined ? {} : { column: d.column }),
    ...(d.skill === undefined ? {} : { skill: d.skill }),
    message: d.message,
    hint: d.hint ?? HINTS[d.rule] ?? "",
    ...(d.excerpt === undefined ? {} : { excerpt: d.excerpt }),
  });
}

/** Count `findings` into a frozen report; `checked` holds the manifest paths that were checked. */
export function report(
  findings: readonly ValidationFinding[],
  checked: ReadonlySet<string>,
): ValidationReport {
  const counts = new Map<string, RuleCount>();
  const failing = new Set<string>();
  for (const f of findings) {
    const c = counts.get(f.rule);
    counts.set(f.rule, { rule: f.rule, severity: f.severity, count: (c?.count ?? 0) + 1 });
    if (f.severity === "error" && checked.has(f.file)) failing.add(f.file);
  }
  const rank = (s: FindingSeverity) => (s === "error" ? 0 : 1);
  const rules = [...counts.values()]
    .sort((a, b) => rank(a.severity) - rank(b.severity) || b.count - a.count || (a.rule < b.rule ? -1 : 1))
    .map((r) => Object.freeze(r));
  const errors = findings.filter((f) => f.severity === "error").length;
  return Object.freeze({
    ok: errors === 0,
    skills: checked.size,
    skillsWithErrors: failing.size,
    errors,
    warnings: findings.length - errors,
    rules: Object.freeze(rules),
    findings: Object.freeze([...findings]),
  });
}
