// Manifest bytes → frontmatter text and body, or a located reason why the file is not a manifest.

/** A manifest split into its parts, or why it cannot be. */
export type SplitManifest =
  | { readonly ok: true; readonly frontmatter: string; readonly body: string }
  | { readonly ok: false; readonly message: string; readonly line?: number };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Decode strict UTF-8, dropping a leading BOM; `undefined` for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const OPENING = /^---[ \t]*(?:\r?\n|$)/;
const CLOSING = /^---[ \t]*\r?$/gm;

/**
 * Split `text` at its fences: the first line must be `---`, and the next line that is `---` closes
 * the frontmatter. Trailing spaces and tabs on a fence, and CRLF line ends, are allowed.
 */
export function splitManifest(text: string): SplitManifest {
  const open = OPENING.exec(text);
  if (open === null) {
    return { ok: false, line: 1, message: "does not start with a --- frontmatter fence" };
  }
  const start = open[0].length;
  CLOSING.lastIndex = start;
  const close = start === text.length ? null : CLOSING.exec(text);
  if (close === null) return { ok: false, line: 1, message: "has no closing --- fence for its frontmatter" };
  return {
    ok: true,
    frontmatter: text.slice(start, close.index),
    body: text.slice(close.index + close[0].length).trim(),
  };
}
