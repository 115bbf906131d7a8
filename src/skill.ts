// Manifest bytes → validated skill fields or an invalid_skill reason: the parse and schema stages joined.
import { parseFrontmatter } from "./frontmatter.js";
import { splitManifestBytes } from "./manifest.js";
import { type ValidFrontmatter, validateFrontmatter } from "./schema.js";

/** The stage that refused a manifest: the file itself, its encoding, its fences, its YAML, or the schema. */
export type ManifestProblem = "file" | "encoding" | "fence" | "yaml" | "schema";

/** Why a manifest is not a skill: the stage, a message, and where in the file when known. */
export interface ManifestFailure {
  readonly ok: false;
  readonly problem: ManifestProblem;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** The frontmatter key a schema failure concerns. */
  readonly key?: string;
  /** A schema failure: the `typeof` of the value that key holds ("undefined" when it is missing). */
  readonly received?: string;
}

/** What one manifest file amounts to, independent of the root it was found in (so it can be cached). */
export type ManifestOutcome =
  | {
      readonly ok: true;
      readonly fields: ValidFrontmatter;
      /** The bytes after the closing fence, undecoded: off the JS heap, whose GC would copy them; see bodyText. */
      readonly body: Uint8Array;
      readonly repaired: boolean;
    }
  | ManifestFailure;

/**
 * Decode, split, parse and validate a manifest. `repair` allows the lenient YAML repair.
 * Lines and columns in the outcome count in the whole file.
 */
export function parseManifest(bytes: Uint8Array, repair: boolean): ManifestOutcome {
  const split = splitManifestBytes(bytes);
  if (split === undefined) return { ok: false, problem: "encoding", message: "is not valid UTF-8" };
  if (!split.ok) return { ...split, problem: "fence" };
  const fm = parseFrontmatter(split.frontmatter, repair);
  if (!fm.ok) {
    // The frontmatter starts on the file's second line.
    return fm.line === undefined
      ? { ok: false, problem: "yaml", message: fm.message }
      : { ok: false, problem: "yaml", message: fm.message, line: fm.line + 1, column: fm.column };
  }
  const valid = validateFrontmatter(fm.data);
  if (!valid.ok) {
    const line = keyLine(split.frontmatter, valid.key);
    const { message, key, received } = valid;
    const failure = { ok: false, problem: "schema", message, key, received } as const;
    return line === undefined ? failure : { ...failure, line };
  }
  return { ok: true, fields: valid.value, body: split.body, repaired: fm.repaired };
}

/** Whether two outcomes serve the same skill: both valid, with equal fields, body bytes and repair. */
export function sameOutcome(a: ManifestOutcome, b: ManifestOutcome): boolean {
  return (
    a.ok &&
    b.ok &&
    a.repaired === b.repaired &&
    Buffer.compare(a.body, b.body) === 0 &&
    JSON.stringify(a.fields) === JSON.stringify(b.fields)
  );
}

/** The file line of top-level key `key` in frontmatter text, if it is written there. */
export function keyLine(frontmatter: string, key: string): number | undefined {
  const lines = frontmatter.split("\n");
  const i = lines.findIndex(
    (l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`),
  );
  return i === -1 ? undefined : i + 2;
}

/** `path:line:column: message`, with what is known. */
export function located(path: string, outcome: { message: string; line?: number; column?: number }): string {
  const where =
    outcome.line === undefined
      ? path
      : `${path}:${outcome.line}${outcome.column === undefined ? "" : `:${outcome.column}`}`;
  return `${where}: ${outcome.message}`;
}
