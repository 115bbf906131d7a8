// Manifest bytes → frontmatter text and body, or a located reason why the file is not a manifest.
import { isUtf8 } from "node:buffer";

/** A manifest split into its parts, or why it cannot be. */
export type SplitManifest =
  | { readonly ok: true; readonly frontmatter: string; readonly body: string }
  | { readonly ok: false; readonly message: string; readonly line?: number };

// UTF-8, dropping a leading BOM. Not `fatal`: it only ever decodes bytes that isUtf8 accepted.
const decoder = new TextDecoder();

/** Decode strict UTF-8, dropping a leading BOM; `undefined` for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  return isUtf8(bytes) ? decoder.decode(bytes) : undefined;
}

const NO_OPENING = { ok: false, line: 1, message: "does not start with a --- frontmatter fence" } as const;
const NO_CLOSING = { ok: false, line: 1, message: "has no closing --- fence for its frontmatter" } as const;

const OPENING = /^---[ \t]*(?:\r?\n|$)/;
const CLOSING = /^---[ \t]*\r?$/gm;

/**
 * Split `text` at its fences: the first line must be `---`, and the next line that is `---` closes
 * the frontmatter. Trailing spaces and tabs on a fence, and CRLF line ends, are allowed.
 */
export function splitManifest(text: string): SplitManifest {
  const open = OPENING.exec(text);
  if (open === null) return NO_OPENING;
  const start = open[0].length;
  // From the very end of the text nothing can match: no end-of-text shortcut needed.
  CLOSING.lastIndex = start;
  const close = CLOSING.exec(text);
  if (close === null) return NO_CLOSING;
  return {
    ok: true,
    frontmatter: text.slice(start, close.index),
    body: text.slice(close.index + close[0].length).trim(),
  };
}

/** A manifest split at its fences with the body left as bytes: off the JS heap until it is served. */
export type SplitBytes =
  | { readonly ok: true; readonly frontmatter: string; readonly body: Uint8Array }
  | { readonly ok: false; readonly message: string; readonly line?: number };

/** After `---` and any spaces or tabs at `i`: the index past them, or -1. */
function fenceEnd(b: Uint8Array, i: number): number {
  if (b[i] !== 0x2d || b[i + 1] !== 0x2d || b[i + 2] !== 0x2d) return -1;
  let j = i + 3;
  while (b[j] === 0x20 || b[j] === 0x09) j++;
  return j;
}

/** Length of the line terminator at `i` as a multiline regexp sees one (LF, CR, U+2028, U+2029), or 0. */
function terminator(b: Uint8Array, i: number): number {
  if (b[i] === 0x0a || b[i] === 0x0d) return 1;
  return b[i] === 0xe2 && b[i + 1] === 0x80 && (b[i + 2] === 0xa8 || b[i + 2] === 0xa9) ? 3 : 0;
}

/**
 * {@link decodeUtf8} then {@link splitManifest}, done on the bytes: the same verdicts and the same
 * frontmatter, and a body that {@link bodyText} turns into the same string. Only the frontmatter is
 * decoded. `undefined` for bytes that are not UTF-8.
 */
export function splitManifestBytes(bytes: Uint8Array): SplitBytes | undefined {
  if (!isUtf8(bytes)) return undefined;
  const end = bytes.length;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const open = fenceEnd(bytes, bom);
  const start =
    bytes[open] === 0x0a ? open + 1 : bytes[open] === 0x0d && bytes[open + 1] === 0x0a ? open + 2 : open;
  // No fence (`open` is -1, so `start` is too) or something other than a line end after it.
  if (start === open && open !== end) return NO_OPENING;
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The closing fence is the first `---` at a line start (just after a terminator: the frontmatter's
  // first line follows the opening fence's LF) that only spaces or tabs follow to the line's end: a
  // native search finds candidates.
  for (let at = buf.indexOf(FENCE, start); at !== -1; at = buf.indexOf(FENCE, at + 1)) {
    if (!afterTerminator(buf, at)) continue;
    const after = fenceEnd(buf, at);
    if (after === end || terminator(buf, after) > 0) {
      // Valid UTF-8 already: toString decodes it as the decoder would, a BOM kept, without a view first.
      return { ok: true, frontmatter: buf.toString("utf8", start, at), body: buf.subarray(after) };
    }
  }
  return NO_CLOSING;
}

const FENCE = Buffer.from("---");

/** Whether the bytes just before `i` are a line terminator (LF, CR, U+2028, U+2029). */
function afterTerminator(b: Uint8Array, i: number): boolean {
  const c = b[i - 1];
  return c === 0x0a || c === 0x0d || ((c === 0xa8 || c === 0xa9) && b[i - 2] === 0x80 && b[i - 3] === 0xe2);
}

/** The body as served: the bytes after the closing fence, decoded and trimmed. */
export function bodyText(body: Uint8Array): string {
  // A BOM starting the body is dropped by the decoder, and by trim() (U+FEFF is white space) anyway.
  return decoder.decode(body).trim();
}
