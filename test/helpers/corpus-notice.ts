// Global setup: say once, at the top of the run, that the corpus tests are skipped and why.
import * as fs from "node:fs";
import * as path from "node:path";

/** Vitest global setup: a one-line notice when the full corpus is absent (a fresh clone). */
export default function setup(): void {
  const corpus = path.resolve(import.meta.dirname, "../../../shared/corpus/real-skills");
  if (!fs.existsSync(corpus)) {
    // A test helper, not the library: telling the person running the suite what did not run is the point.
    process.stdout.write(
      `\nNote: ${corpus} is absent, so the full-corpus tests are skipped (the vendored fixtures still run).\n\n`,
    );
  }
}
