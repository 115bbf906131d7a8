// The baseline every ranker in bench/ is measured against: plain BM25 (k1 1.2, b 0.75) over name +
// description as one field, lower-cased words, no stemming, no floor; and the catalog it is measured on.
// Shared by search.mjs and pool.mjs.
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The evaluation's catalog and requests: the corpus with each repository folder a root, sorted by name
 * (warnings silenced), its roots, and bench/search-eval.json's requests.
 */
export function openEvaluation(lib, corpus) {
  lib.setWarnSink(() => {});
  const roots = corpusRoots(corpus);
  const skills = lib.createAgentSkills({ roots });
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), "search-eval.json");
  return {
    roots,
    skills,
    list: skills.listSkills(),
    queries: JSON.parse(fs.readFileSync(file, "utf8")).queries,
  };
}

/** The bench's catalog: each repository folder of the corpus a root, sorted by name. */
export function corpusRoots(corpus) {
  return fs
    .readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => ({ path: path.join(corpus, name), source: name }));
}

/** Plain BM25 (k1 1.2, b 0.75) over name + description as one field, lower-cased words, no stemming: the baseline. */
export function plainBm25(docs) {
  const toks = (t) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const tf = docs.map((s) => {
    const m = new Map();
    const words = toks(`${s.name} ${s.description}`);
    for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
    return { m, len: words.length };
  });
  const avg = tf.reduce((a, d) => a + d.len, 0) / tf.length;
  const df = new Map();
  for (const d of tf) for (const w of d.m.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  return (query, limit = 10) => {
    const scores = tf.map((d, i) => {
      let s = 0;
      for (const w of new Set(toks(query))) {
        const f = d.m.get(w);
        if (f === undefined) continue;
        const n = df.get(w);
        s +=
          Math.log(1 + (tf.length - n + 0.5) / (n + 0.5)) *
          ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avg)));
      }
      return [i, s];
    });
    return scores
      .filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1] || (docs[a[0]].name < docs[b[0]].name ? -1 : 1))
      .slice(0, limit)
      .map(([i]) => docs[i].name);
  };
}
