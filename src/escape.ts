// The catalog formats: how each escapes its fields and frames its entries, and how fields are cleaned first.
import type { CatalogFormat } from "./types.js";

/** How one format writes its fields and its frame. Escapers work per code point, so lengths add up. */
export interface Shape {
  /** A text field's characters, escaped for the format. */
  readonly text: (s: string) => string;
  /** The name, which also opens the entry. */
  readonly name: (s: string) => string;
  /** The location, written whole. */
  readonly location: (s: string) => string;
  /** One entry from fields already escaped. */
  readonly entry: (name: string, description: string, location: string) => string;
  /** Text before the first entry, between two entries, and after the last. */
  readonly open: string;
  readonly separator: string;
  readonly close: string;
}

const XML_ENTITIES = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
} as const;
// The pattern matches exactly the table's keys.
const xmlText = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ENTITIES[c as keyof typeof XML_ENTITIES]);

// Characters that start inline markup (code, emphasis, links, HTML, entities) get a backslash.
const mdText = (s: string) => s.replace(/[\\`*_~[\]<>&]/g, "\\$&");
// Item text that starts like a heading, quote, list or rule would change the list's structure.
const mdName = (s: string) =>
  mdText(s)
    .replace(/^[#>+=-]/, "\\$&")
    .replace(/^(\d+)([.)])/, "$1\\$2");
// A path is copied into a file read, so it goes in a code span, verbatim: a backslash-escaped path is another path.
function mdCode(s: string): string {
  let longest = 0;
  for (const run of s.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(s) ? " " : "";
  return `${fence}${pad}${s}${pad}${fence}`;
}

const jsonText = (s: string) => JSON.stringify(s).slice(1, -1);

/** Each format's shape. */
export const SHAPES: Record<CatalogFormat, Shape> = {
  xml: {
    text: xmlText,
    name: xmlText,
    location: xmlText,
    entry: (n, d, l) =>
      `  <skill>\n    <name>${n}</name>\n    <description>${d}</description>\n    <location>${l}</location>\n  </skill>`,
    open: "<available_skills>\n",
    separator: "\n",
    close: "\n</available_skills>",
  },
  markdown: {
    text: mdText,
    name: mdName,
    location: mdCode,
    entry: (n, d, l) => (d === "" ? `- ${n} (${l})` : `- ${n}: ${d} (${l})`),
    open: "",
    separator: "\n",
    close: "",
  },
  json: {
    text: jsonText,
    name: jsonText,
    location: jsonText,
    entry: (n, d, l) => `{"name":"${n}","description":"${d}","location":"${l}"}`,
    open: "[\n  ",
    separator: ",\n  ",
    close: "\n]",
  },
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_TEST = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, minus the white space that `\s` folds.
const CONTROL_BUT_SPACE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;

// A lone surrogate cannot be written in UTF-8 (nor in XML): it becomes U+FFFD, as a UTF-8 encoder would make it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Whether a path holds a control character or a lone surrogate: neither can be written into a catalog
 * without rewriting the path, and a rewritten path names another file, so such a path is not shown.
 */
export const unshowablePath = (s: string) =>
  CONTROL_TEST.test(s) || new RegExp(LONE_SURROGATE.source).test(s);
/**
 * Names and descriptions also become one line: white space runs become one space. Lone surrogates are
 * replaced before controls are removed, so two halves a control kept apart never join into a character.
 */
export const cleanText = (s: string) =>
  s.replace(LONE_SURROGATE, "\ufffd").replace(CONTROL_BUT_SPACE, "").replace(/\s+/g, " ").trim();
