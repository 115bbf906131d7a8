// The verdict of every candidate of a merge (explain): told from the fold's record on first request, never
// decided again: which root and directory each offer came from, and why it won or lost.
import { printable } from "./errors.js";
import type { CatalogEntry } from "./merge.js";
import type { Candidate, ScanItem } from "./scan.js";
import { located, type ManifestOutcome } from "./skill.js";
import type { CandidateVerdict, SkillCandidate, SkillConfig } from "./types.js";

/** What the fold made of an item of a root: not a candidate (a Uint8Array's 0: the merge leaves it). */
const SKIPPED = 0;
/** The first candidate of its name in its root. */
export const FIRST = 1;
/** A later candidate of a name already declared in its root. */
export const DUPLICATE = 2;
/** An invalid manifest. */
export const INVALID = 3;

/** The fold's record of one scan, from which every verdict can be told again without deciding anything. */
export interface Fold {
  readonly roots: readonly (readonly ScanItem[])[];
  /** Per root, per item: SKIPPED, FIRST, DUPLICATE or INVALID. */
  readonly fates: readonly Uint8Array[];
  /** Per root, the first candidate of each name there. */
  readonly firstByRoot: readonly ReadonlyMap<string, Candidate>[];
  /** The winners: each name's entry tells the root it comes from. */
  readonly skills: ReadonlyMap<string, CatalogEntry>;
}

/** Why an invalid candidate is out: its file and located problem (its warning says the same). */
export const invalidReason = (item: Candidate) =>
  located(item.path, item.outcome as Exclude<ManifestOutcome, { ok: true }>);

/** Why an in-root duplicate is out, `first` being the candidate kept (its warning says the same). */
export const duplicateReason = (item: Candidate, name: string, first: Candidate) =>
  `${item.path}: skill "${name}" is declared again in the same root; ${first.path} comes first and is kept`;

/** One candidate's place in the fold. */
interface Offer {
  readonly name: string;
  readonly rootIndex: number;
  readonly candidate: Candidate;
  readonly fate: number;
}

/**
 * Every candidate's verdict by offered name, told from the fold on first request and kept: building
 * them, or even their offers, during the merge was a third of its cost, and most scans are never explained.
 */
export class Verdicts implements ReadonlyMap<string, readonly SkillCandidate[]> {
  readonly #config: SkillConfig;
  readonly #fold: Fold;
  #offers: Map<string, Offer[]> | undefined;
  readonly #done = new Map<string, readonly SkillCandidate[]>();

  constructor(config: SkillConfig, fold: Fold) {
    this.#config = config;
    this.#fold = fold;
  }

  /** Every offer by name, in the order names were first offered (invalid ones under their directory name). */
  #byName(): Map<string, Offer[]> {
    if (this.#offers !== undefined) return this.#offers;
    const offers = new Map<string, Offer[]>();
    const { roots, fates } = this.#fold;
    roots.forEach((items, rootIndex) => {
      items.forEach((item, i) => {
        const fate = (fates[rootIndex] as Uint8Array)[i] as number;
        if (item.kind !== "candidate" || fate === SKIPPED) return;
        const name = item.outcome.ok ? item.outcome.fields.name : item.dirName;
        const offer = { name, rootIndex, candidate: item, fate };
        const list = offers.get(name);
        if (list === undefined) offers.set(name, [offer]);
        else list.push(offer);
      });
    });
    this.#offers = offers;
    return offers;
  }

  get size(): number {
    return this.#byName().size;
  }

  has(name: string): boolean {
    return this.#byName().has(name);
  }

  get(name: string): readonly SkillCandidate[] | undefined {
    let list = this.#done.get(name);
    const offers = this.#byName().get(name);
    if (list === undefined && offers !== undefined) {
      list = Object.freeze(offers.map((o) => this.#verdict(o)));
      this.#done.set(name, list);
    }
    return list;
  }

  #verdict(o: Offer): SkillCandidate {
    const { firstByRoot, skills } = this.#fold;
    let verdict: CandidateVerdict;
    let reason: string;
    if (o.fate === INVALID) {
      verdict = "invalid";
      reason = invalidReason(o.candidate);
    } else if (o.fate === DUPLICATE) {
      verdict = "duplicate";
      const first = (firstByRoot[o.rootIndex] as ReadonlyMap<string, Candidate>).get(o.name) as Candidate;
      reason = duplicateReason(o.candidate, o.name, first);
    } else {
      // A name offered as first in some root always has a winner: its first offer in the last root declaring it.
      const w = (skills.get(o.name) as CatalogEntry).rootIndex;
      verdict = w === o.rootIndex ? "winner" : "overridden";
      reason =
        w === o.rootIndex
          ? `wins: no later root declares "${o.name}"`
          : `overridden by ${(firstByRoot[w] as ReadonlyMap<string, Candidate>).get(o.name)?.path}: root ${w} comes later than root ${o.rootIndex}, and the last root wins`;
    }
    const root = this.#config.roots[o.rootIndex] as SkillConfig["roots"][number];
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
      reason: printable(reason),
    });
  }

  /** All of them, in the order the names were first offered (whatever order they were asked for in). */
  #all(): ReadonlyMap<string, readonly SkillCandidate[]> {
    const all = new Map<string, readonly SkillCandidate[]>();
    for (const name of this.#byName().keys()) all.set(name, this.get(name) as readonly SkillCandidate[]);
    return all;
  }

  keys() {
    return this.#byName().keys();
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
