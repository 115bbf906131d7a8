// Per-root findings → one catalog: in-root dedupe, last-root-wins override, and every candidate's verdict.
import { printable, SkillError } from "./errors.js";
import type { Candidate, ScanItem } from "./scan.js";
import { located, type ManifestOutcome } from "./skill.js";
import type { CandidateVerdict, SkillCandidate, SkillConfig, SkillInfo, SkillWarning } from "./types.js";
import { warning } from "./warnings.js";

/** A catalog entry with what only the registry needs. */
export interface CatalogEntry {
  readonly info: SkillInfo;
  /** Undecoded; see bodyText. */
  readonly body: Uint8Array;
  /** The skill directory's real path recorded at discovery: the confinement base of its resources. */
  readonly real: string;
  /** Changes whenever the winning manifest, its file or its root does: drives `refresh`'s `changed`. */
  readonly key: string;
  /** The candidate and root it was built from: a later merge in which they win again reuses the entry. */
  readonly candidate: Candidate;
  readonly rootIndex: number;
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

interface Offer {
  readonly name: string;
  readonly rootIndex: number;
  readonly candidate: Candidate;
  verdict: CandidateVerdict;
  /** Why an invalid or duplicate offer lost; a winner's (it may yet be overridden) is worked out in verdictOf. */
  reason?: string;
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
  // join makes one flat string; the template literal made a rope of three parts kept for the snapshot's life.
  return { info, body, real: c.real, key: [rootIndex, c.path, c.sig].join("\0"), candidate: c, rootIndex };
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
 * @throws {SkillError} as {@link merge}.
 */
export function* mergeSteps(
  config: SkillConfig,
  roots: readonly (readonly ScanItem[])[],
  previous?: Merged["skills"],
): Generator<void, Merged> {
  let done = 0;
  const warnings: SkillWarning[] = [];
  const offers = new Map<string, Offer[]>();
  const winners = new Map<string, Offer>();
  const offer = (o: Offer) => {
    const list = offers.get(o.name);
    if (list === undefined) offers.set(o.name, [o]);
    else list.push(o);
    return o;
  };

  for (const [rootIndex, items] of roots.entries()) {
    const firstInRoot = new Map<string, Offer>();
    for (const item of items) {
      if (++done % STEP_ITEMS === 0) yield;
      if (item.kind === "warning") {
        for (const w of item.warnings) warnings.push(w);
        continue;
      }
      for (const w of item.warnings) warnings.push(w);
      const { outcome } = item;
      if (!outcome.ok) {
        const message = located(item.path, outcome);
        if (config.strict) throw new SkillError("invalid_skill", message, { path: item.path });
        warnings.push(warning("invalid_skill", `${message}; skipped`, item.path));
        offer({ name: item.dirName, rootIndex, candidate: item, verdict: "invalid", reason: message });
        continue;
      }
      const name = outcome.fields.name;
      const first = firstInRoot.get(name);
      if (first !== undefined) {
        const message = `${item.path}: skill "${name}" is declared again in the same root; ${first.candidate.path} comes first and is kept`;
        if (config.strict) throw new SkillError("duplicate_skill", message, { path: item.path, skill: name });
        warnings.push(warning("duplicate_skill", message, item.path, name));
        offer({ name, rootIndex, candidate: item, verdict: "duplicate", reason: message });
        continue;
      }
      firstInRoot.set(name, offer({ name, rootIndex, candidate: item, verdict: "winner" }));
    }
    // Ascending precedence: the last root wins. A later root's skill replaces an earlier one of the same name.
    for (const [name, o] of firstInRoot) winners.set(name, o);
  }

  const skills = new Map<string, CatalogEntry>();
  for (const [name, w] of winners) {
    if (++done % STEP_ITEMS === 0) yield;
    const old = previous?.get(name);
    const same = old !== undefined && old.candidate === w.candidate && old.rootIndex === w.rootIndex;
    skills.set(name, same ? old : buildEntry(config, w.rootIndex, w.candidate));
  }
  return { skills, candidates: new Verdicts(config, offers, winners), warnings };
}

/**
 * Every candidate's verdict by offered name, worked out on first request and kept: building them all
 * up front was half the cost of a merge, and most scans are never explained.
 */
class Verdicts implements ReadonlyMap<string, readonly SkillCandidate[]> {
  readonly #config: SkillConfig;
  readonly #offers: ReadonlyMap<string, readonly Offer[]>;
  readonly #winners: ReadonlyMap<string, Offer>;
  readonly #done = new Map<string, readonly SkillCandidate[]>();

  constructor(
    config: SkillConfig,
    offers: ReadonlyMap<string, readonly Offer[]>,
    winners: ReadonlyMap<string, Offer>,
  ) {
    this.#config = config;
    this.#offers = offers;
    this.#winners = winners;
  }

  get size(): number {
    return this.#offers.size;
  }

  has(name: string): boolean {
    return this.#offers.has(name);
  }

  get(name: string): readonly SkillCandidate[] | undefined {
    let list = this.#done.get(name);
    const offers = this.#offers.get(name);
    if (list === undefined && offers !== undefined) {
      const winner = this.#winners.get(name);
      list = Object.freeze(offers.map((o) => verdictOf(this.#config, o, winner)));
      this.#done.set(name, list);
    }
    return list;
  }

  /** All of them, in the order the names were first offered (whatever order they were asked for in). */
  #all(): ReadonlyMap<string, readonly SkillCandidate[]> {
    const all = new Map<string, readonly SkillCandidate[]>();
    for (const name of this.#offers.keys()) all.set(name, this.get(name) as readonly SkillCandidate[]);
    return all;
  }

  keys() {
    return this.#offers.keys();
  }

  values() {
    return this.#all().values();
  }

  entries() {
    return this.#all().entries();
  }

  [Symbol.iterator]() {
    return this.#all().entries();
  }

  forEach(fn: (list: readonly SkillCandidate[], name: string, map: this) => void, thisArg?: unknown): void {
    for (const [name, list] of this.#all()) fn.call(thisArg, list, name, this);
  }
}

function verdictOf(config: SkillConfig, o: Offer, winner: Offer | undefined): SkillCandidate {
  let { verdict, reason } = o;
  // A name offered as a winner always has one: the first offer of the last root declaring it.
  if (verdict === "winner" && winner !== o) {
    const { candidate, rootIndex } = winner as Offer;
    verdict = "overridden";
    reason = `overridden by ${candidate.path}: root ${rootIndex} comes later than root ${o.rootIndex}, and the last root wins`;
  } else if (verdict === "winner") {
    reason = `wins: no later root declares "${o.name}"`;
  }
  const root = config.roots[o.rootIndex] as SkillConfig["roots"][number];
  return Object.freeze({
    name: o.name,
    rootIndex: o.rootIndex,
    root: root.path,
    scope: root.scope,
    source: root.source,
    dir: o.candidate.dir,
    path: o.candidate.path,
    verdict,
    // A one-line message like a warning's: paths in it are escaped for printing (the fields stay exact).
    reason: printable(reason as string),
  });
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
