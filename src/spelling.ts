// Near misses: the closest of a set of words to a misspelt one, for "did you mean" hints.

/** A cell of a row of the distance table; each cell read is within its row. */
const cell = (row: readonly number[], j: number): number => row[j] as number;

/**
 * Edit distance where swapping two neighbours counts one edit (`pfd` → `pdf`), as typing slips go;
 * capped: anything above `max` is reported as `max + 1`.
 */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  // Row i - 2, first read at i = 2, when it is row 0.
  let before = previous;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(cell(previous, j) + 1, cell(row, j - 1) + 1, cell(previous, j - 1) + cost);
      // At i = 1 or j = 1 one side reads index -1 (undefined), so no swap is found there.
      if (a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, cell(before, j - 2) + 1);
      row.push(d);
    }
    [before, previous] = [previous, row];
  }
  return Math.min(cell(previous, b.length), max + 1);
}

const norm = (s: string) => s.toLowerCase().replace(/[_\s]+/g, "-");

/**
 * A finder of the closest of `candidates` to a word: the same once case, `_` and spaces are set aside,
 * or within an edit distance of 2 (1 for words of 4 characters or fewer, where 2 would match almost
 * anything); the first of equally close ones. The candidates are normalised once, for many lookups.
 */
export function speller(candidates: Iterable<string>): (word: string) => string | undefined {
  const known = [...candidates].map((c) => [c, norm(c)] as const);
  return (word) => {
    const w = norm(word);
    const max = word.length <= 4 ? 1 : 2;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (const [c, n] of known) {
      const d = distance(w, n, max);
      if (d < bestDistance) [best, bestDistance] = [c, d];
    }
    return best;
  };
}

/** The closest of `candidates` to `word`, as {@link speller} finds it. */
export const closest = (word: string, candidates: Iterable<string>): string | undefined =>
  speller(candidates)(word);
