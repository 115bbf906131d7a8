// Which manifest bodies a snapshot keeps: the winners' only. A losing candidate's body is dropped, and
// read again should a later scan make it the winner.
import { type FsTask, fsCode, readManifest, waitTurn } from "./fsx.js";
import type { CatalogEntry } from "./merge.js";
import type { ScanItem } from "./scan.js";
import { parseManifest } from "./skill.js";
import type { SkillConfig } from "./types.js";

/** The body of a candidate that served no name when it was last merged: not kept. */
const DROPPED: Uint8Array = new Uint8Array(0);

/**
 * Drop the bodies of valid candidates that serve no name (in-root duplicates, skills overridden by a
 * later root): nobody can load them, and 500 duplicates of 1 MiB would otherwise hold 500 MiB. The
 * scan cache keeps the candidate itself, so an unchanged file is still not parsed again.
 */
export function dropLosers(
  roots: readonly (readonly ScanItem[])[],
  skills: ReadonlyMap<string, CatalogEntry>,
): void {
  for (const items of roots) dropRange(items, skills, 0, items.length);
}

/** Items {@link dropLosersInTurns} takes between two turns of the event loop: about a millisecond. */
export const DROP_STEP_ITEMS = 1000;

/**
 * {@link dropLosers} for the async refresh, after its snapshot is installed: a turn of the event loop
 * between steps of {@link DROP_STEP_ITEMS} items (10,000 items took one stretch of 2.5–6.6 ms, a third
 * of the longest block). It stops once `current()` is false: a newer scan has been installed, and its
 * own drop decides for the items the two scans share.
 */
export async function dropLosersInTurns(
  roots: readonly (readonly ScanItem[])[],
  skills: ReadonlyMap<string, CatalogEntry>,
  current: () => boolean,
): Promise<void> {
  for (const items of roots) {
    for (let from = 0; from < items.length; from += DROP_STEP_ITEMS) {
      if (!current()) return;
      dropRange(items, skills, from, Math.min(from + DROP_STEP_ITEMS, items.length));
      await waitTurn();
    }
  }
}

/** {@link dropLosers} of `items[from..to)`. */
function dropRange(
  items: readonly ScanItem[],
  skills: ReadonlyMap<string, CatalogEntry>,
  from: number,
  to: number,
): void {
  // By index: a for-of loop's iterator results are allocated in the unoptimized code a scan mostly runs.
  for (let i = from; i < to; i++) {
    const item = items[i] as ScanItem;
    if (item.kind !== "candidate" || !item.outcome.ok) continue;
    // Every valid candidate's name has a winner. Its body stays, whichever candidate (or two paths to
    // one file) holds it: only the winner's name can share an outcome, so no set of kept bodies is needed.
    const entry = skills.get(item.outcome.fields.name) as CatalogEntry;
    if (entry.body === item.outcome.body) continue;
    // The outcome is this scan's own record of the file; only its body goes.
    (item.outcome as { body: Uint8Array }).body = DROPPED;
  }
}

/**
 * Read again the bodies of winners whose body was dropped while they lost. A file that cannot be read
 * or parsed any more serves an empty body until the next scan, which will see it changed.
 */
export function* refill(config: SkillConfig, skills: ReadonlyMap<string, CatalogEntry>): FsTask<void> {
  // Found first without an iterator (a scan of 10,000 winners allocated an entry pair for each).
  const dropped: [string, CatalogEntry][] = [];
  skills.forEach((entry, name) => {
    if (entry.body === DROPPED) dropped.push([name, entry]);
  });
  for (const [name, entry] of dropped) {
    let body: Uint8Array = DROPPED;
    try {
      const read = yield* readManifest(entry.info.path, !config.followSymlinks);
      const outcome = read.kind === "ok" ? parseManifest(read.bytes, !config.strict) : undefined;
      if (outcome?.ok) body = outcome.body;
    } catch (e) {
      // Gone since the scan that chose it: the next scan reports it.
      fsCode(e);
    }
    (skills as Map<string, CatalogEntry>).set(name, { ...entry, body });
  }
}
