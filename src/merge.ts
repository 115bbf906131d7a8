// Per-root findings → one catalog: in-root dedupe, last-root-wins override, and the record of each candidate's fate.
import { SkillError } from "./errors.js";
import { type Stat, sameStat, sigText } from "./fsx.js";
import type { Candidate, ScanItem } from "./scan.js";
import type { ManifestOutcome } from "./skill.js";
import type { SkillCandidate, SkillConfig, SkillInfo, SkillWarning } from "./types.js";
import { DUPLICATE, duplicateReason, FIRST, INVALID, invalidReason, Verdicts } from "./verdicts.js";
import { warning } from "./warnings.js";

/** A catalog entry with what only the registry needs. */
export interface CatalogEntry {
  readonly info: SkillInfo;
  /** Undecoded; see bodyText. */
  readonly body: Uint8Array;
  /** The candidate and root it was built from: a later merge in which they win again reuses the entry. */
  readonly candidate: Candidate;
  readonly rootIndex: number;
}

/**
 * Whether two entries serve the same file: the same root, manifest path, file signature and revision.
 * Drives `refresh`'s `changed`; a string key (see {@link entryKey}) is made only where one is needed.
 */
export function sameEntry(a: CatalogEntry, b: CatalogEntry): boolean {
  const x = a.candidate;
  const y = b.candidate;
  return (
    a.rootIndex === b.rootIndex && x.path === y.path && sameStat(x.stat, y.stat) && x.revision === y.revision
  );
}

/** {@link sameEntry} as a string, for maps keyed by it (the search index's reuse of analyses). */
export function entryKey(e: CatalogEntry): string {
  const { path, stat, revision } = e.candidate;
  // A winner always has a signature: it was read.
  return [e.rootIndex, path, sigText(stat as Stat), revision].join("\0");
}

/** The merged catalog. */
export interface Merged {
  /** Winners by name. */
  readonly skills: ReadonlyMap<string, CatalogEntry>;
  /** Every candidate by offered name, in precedence order (lowest first). */
  readonly candidates: ReadonlyMap<string, readonly SkillCandidate[]>;
  /** All warnings, in scan order. */
  readonly warnings: readonly SkillWarning[];
}

function buildEntry(config: SkillConfig, rootIndex: number, c: Candidate): CatalogEntry {
  const root = config.roots[rootIndex] as SkillConfig["roots"][number];
  // Only valid candidates are offered as winners, and patchMerge swaps only valid ones.
  const { fields, body } = c.outcome as Extract<ManifestOutcome, { ok: true }>;
  const { name, description, metadata, allowedTools, userInvocable } = fields;
  const { scope, source, path: rootPath } = root;
  // Two literals rather than a conditional spread, which V8 builds on a slow path; key order is the same.
  const info: SkillInfo = Object.freeze(
    allowedTools === undefined
      ? {
          name,
          description,
          metadata,
          userInvocable,
          scope,
          source,
          root: rootPath,
          dir: c.dir,
          path: c.path,
        }
      : {
          name,
          description,
          metadata,
          allowedTools,
          userInvocable,
          scope,
          source,
          root: rootPath,
          dir: c.dir,
          path: c.path,
        },
  );
  return { info, body, candidate: c, rootIndex };
}

/**
 * Fold the roots' findings into one catalog. Pure and deterministic: the same scan gives the same result.
 * @throws {SkillError} under `strict`, for the first invalid manifest or in-root duplicate met in root order and sorted directory order.
 */
export function merge(
  config: SkillConfig,
  roots: readonly (readonly ScanItem[])[],
  previous?: Merged["skills"],
): Merged {
  const steps = mergeSteps(config, roots, previous);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** Items a merge step takes before it pauses: about a millisecond of work. */
const STEP_ITEMS = 1000;

/**
 * {@link merge} in steps: it pauses (yields) every STEP_ITEMS items, so that an async caller can give
 * the event loop a turn between steps; the result is the same. An entry of `previous` whose candidate
 * and root win again is reused as it is (the `SkillInfo` of an unchanged skill stays the same object).
 * Verdicts are not built here: the fold keeps what each item was, and explain tells it on request.
 * @throws {SkillError} as {@link merge}.
 */
export function* mergeSteps(
  config: SkillConfig,
  roots: readonly (readonly ScanItem[])[],
  previous?: Merged["skills"],
): Generator<void, Merged> {
  let done = 0;
  /**
   * Take `count` items in steps, `take(from, to)` doing the work: a pause comes before every
   * STEP_ITEMS-th item counted over the whole merge. The loops are plain functions, called a stretch
   * at a time: a generator's own loop is never optimized mid-way, and ran a whole merge in baseline code.
   */
  function* steps(count: number, take: (from: number, to: number) => void): Generator<void, void> {
    for (let i = 0; i < count; ) {
      let n = STEP_ITEMS - 1 - (done % STEP_ITEMS);
      if (n === 0) {
        yield;
        n = 1;
      }
      n = Math.min(n, count - i);
      take(i, i + n);
      done += n;
      i += n;
    }
  }
  const warnings: SkillWarning[] = [];
  const fates: Uint8Array[] = [];
  const firstByRoot: Map<string, Candidate>[] = [];
  // The same candidates as firstByRoot's, in an array: the pass below reads them by index.
  const firsts: Candidate[][] = [];
  for (let r = 0; r < roots.length; r++) {
    const items = roots[r] as readonly ScanItem[];
    const fold: RootFold = { fate: new Uint8Array(items.length), firstInRoot: new Map(), first: [] };
    fates.push(fold.fate);
    firstByRoot.push(fold.firstInRoot);
    firsts.push(fold.first);
    yield* steps(items.length, (from, to) => foldItems(config, items, from, to, fold, warnings));
  }
  // Ascending precedence: the last root wins. So the roots are taken from the last: a name's first
  // sight is its winner (the first of its name in the last root declaring it), and later sights lose.
  const skills = new Map<string, CatalogEntry>();
  const old = previous !== undefined && previous.size > 0 ? previous : undefined;
  for (let r = roots.length - 1; r >= 0; r--) {
    const first = firsts[r] as Candidate[];
    yield* steps(first.length, (from, to) => takeWinners(config, r, first, from, to, skills, old));
  }
  return { skills, candidates: new Verdicts(config, { roots, fates, firstByRoot, skills }), warnings };
}

/** What the fold records of one root: each item's fate, and the first candidate of each name. */
interface RootFold {
  readonly fate: Uint8Array;
  readonly firstInRoot: Map<string, Candidate>;
  readonly first: Candidate[];
}

/**
 * Items `from` to `to` of a root, in sorted directory order: warnings kept in scan order, invalid
 * manifests and in-root duplicates reported (thrown under strict), the first of each name recorded.
 * @throws {SkillError} as {@link merge}.
 */
function foldItems(
  config: SkillConfig,
  items: readonly ScanItem[],
  from: number,
  to: number,
  { fate, firstInRoot, first }: RootFold,
  warnings: SkillWarning[],
): void {
  for (let i = from; i < to; i++) {
    const item = items[i] as ScanItem;
    // By index: a for-of loop's iterator results are allocated in the unoptimized code a scan mostly runs.
    for (let w = 0; w < item.warnings.length; w++) warnings.push(item.warnings[w] as SkillWarning);
    if (item.kind === "warning") continue;
    const { outcome } = item;
    if (!outcome.ok) {
      const message = invalidReason(item);
      if (config.strict) throw new SkillError("invalid_skill", message, { path: item.path });
      warnings.push(warning("invalid_skill", `${message}; skipped`, item.path));
      fate[i] = INVALID;
      continue;
    }
    const name = outcome.fields.name;
    const seen = firstInRoot.get(name);
    if (seen !== undefined) {
      const message = duplicateReason(item, name, seen);
      if (config.strict) throw new SkillError("duplicate_skill", message, { path: item.path, skill: name });
      warnings.push(warning("duplicate_skill", message, item.path, name));
      fate[i] = DUPLICATE;
      continue;
    }
    firstInRoot.set(name, item);
    first.push(item);
    fate[i] = FIRST;
  }
}

/**
 * Root `r`'s first candidates `from` to `to`, the later roots taken already: a name not yet served wins
 * here, its entry reused from `old` when the same candidate of the same root built it.
 */
function takeWinners(
  config: SkillConfig,
  r: number,
  first: readonly Candidate[],
  from: number,
  to: number,
  skills: Map<string, CatalogEntry>,
  old: Merged["skills"] | undefined,
): void {
  for (let i = from; i < to; i++) {
    const c = first[i] as Candidate;
    const name = (c.outcome as Extract<ManifestOutcome, { ok: true }>).fields.name;
    if (skills.has(name)) continue;
    const was = old?.get(name);
    skills.set(name, was?.candidate === c && was.rootIndex === r ? was : buildEntry(config, r, c));
  }
}

/** Past this many replaced candidates a full merge is as cheap as patching. */
const PATCH_LIMIT = 64;

/**
 * The merge of `roots` made from `previous` (the merge of `before`) when the scan only replaced valid
 * candidates by valid ones of the same name, directory and manifest path, none carrying warnings: the
 * common "a manifest was edited" refresh. Names, precedence, verdicts and warnings cannot change then,
 * so only the winners' entries are rebuilt. `undefined` when anything else changed: merge in full.
 * (For a watcher's refresh of 10,000 skills with one edited, this replaces a 7–20 ms fold.)
 */
export function patchMerge(
  config: SkillConfig,
  previous: Merged,
  before: readonly (readonly ScanItem[])[],
  roots: readonly (readonly ScanItem[])[],
): Merged | undefined {
  if (before.length !== roots.length) return undefined;
  const swaps: [number, Candidate, Candidate][] = [];
  for (const [r, items] of roots.entries()) {
    const old = before[r] as readonly ScanItem[];
    if (old.length !== items.length) return undefined;
    for (const [i, item] of items.entries()) {
      const was = old[i] as ScanItem;
      if (item === was) continue;
      if (!sameSlot(was, item) || swaps.length === PATCH_LIMIT) return undefined;
      swaps.push([r, was as Candidate, item as Candidate]);
    }
  }
  const skills = new Map(previous.skills);
  for (const [r, was, now] of swaps) {
    const name = (now.outcome as { fields: { name: string } }).fields.name;
    // Every valid candidate's name has a winner, so an entry. Only the winner's candidate built it; an
    // overridden or duplicate candidate changes nothing served.
    const entry = previous.skills.get(name) as CatalogEntry;
    if (entry.candidate === was && entry.rootIndex === r) skills.set(name, buildEntry(config, r, now));
  }
  return { skills, candidates: previous.candidates, warnings: previous.warnings };
}

function sameSlot(was: ScanItem, now: ScanItem): boolean {
  return (
    was.kind === "candidate" &&
    now.kind === "candidate" &&
    was.outcome.ok &&
    now.outcome.ok &&
    was.warnings.length === 0 &&
    now.warnings.length === 0 &&
    was.outcome.fields.name === now.outcome.fields.name &&
    // The same manifest path is the same directory too.
    was.path === now.path
  );
}
