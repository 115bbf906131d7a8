// The byte splitter at its edges: each byte test of a BOM, a fence and a line terminator, with the
// neighbours that differ from them by one byte. Every case gives an exact verdict, and the text splitter
// (the reference: a multiline regexp over the decoded text) gives the same one.
import { describe, expect, test } from "vitest";
import { bodyText, decodeUtf8, splitManifest, splitManifestBytes } from "../src/manifest.js";

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Both splitters' verdict on `text`, the byte splitter's body decoded as served; they must agree. */
function verdict(text: string): unknown {
  const bytes = utf8(text);
  const split = splitManifestBytes(bytes);
  const got = split?.ok ? { ok: true, frontmatter: split.frontmatter, body: bodyText(split.body) } : split;
  expect(got).toEqual(splitManifest(decodeUtf8(bytes) ?? ""));
  return got;
}

const NO_OPENING = { ok: false, line: 1, message: "does not start with a --- frontmatter fence" };
const NO_CLOSING = { ok: false, line: 1, message: "has no closing --- fence for its frontmatter" };
const OK = { ok: true, frontmatter: "name: a\n", body: "Body" };

describe("the BOM: only EF BB BF is skipped", () => {
  test("a real BOM before the opening fence is skipped", () => {
    expect(verdict("\ufeff---\nname: a\n---\nBody")).toEqual(OK);
  });

  test("a BOM starting the body is not served; one inside the frontmatter is kept", () => {
    expect(verdict("---\nname: a\n---\n\ufeffBody")).toEqual(OK);
    expect(verdict("---\n\ufeffname: a\n---\nBody")).toEqual({ ...OK, frontmatter: "\ufeffname: a\n" });
  });

  // Each is a BOM with one byte changed: U+EEFF is EE BB BF, U+FEBF is EF BA BF, U+FEC0 is EF BB 80.
  test.each([
    ["U+EEFF", "\ueeff"],
    ["U+FEBF", "\ufebf"],
    ["U+FEC0", "\ufec0"],
  ])("%s before the opening fence is text, not a BOM", (_, lead) => {
    expect(verdict(`${lead}---\nname: a\n---\nBody`)).toEqual(NO_OPENING);
  });
});

describe("the opening fence", () => {
  test("a first line of three other characters is no fence", () => {
    expect(verdict("abc\nname: a\n---\nBody")).toEqual(NO_OPENING);
    expect(verdict("--x\nname: a\n---\nBody")).toEqual(NO_OPENING);
    expect(verdict("x--\nname: a\n---\nBody")).toEqual(NO_OPENING);
  });

  test("the fence alone, with or without its line end, has no closing fence", () => {
    expect(verdict("---")).toEqual(NO_CLOSING);
    expect(verdict("---\n")).toEqual(NO_CLOSING);
    expect(verdict("--- \t\r\n")).toEqual(NO_CLOSING);
  });
});

describe("the closing fence must end its line: LF, CR, U+2028 or U+2029 (E2 80 A8/A9), or the end", () => {
  test.each([
    ["LF", "\n"],
    ["CR LF", "\r\n"],
    ["U+2028", "\u2028"],
    ["U+2029", "\u2029"],
  ])("a fence followed by %s closes", (_, end) => {
    expect(verdict(`---\nname: a\n---${end}Body`)).toEqual(OK);
  });

  // Each differs from U+2028 in one byte: U+1028 is E1 80 A8, U+2068 is E2 81 A8, U+2014 is E2 80 94.
  test.each([
    ["U+1028", "\u1028"],
    ["U+2068", "\u2068"],
    ["U+2014", "\u2014"],
  ])("a fence followed by %s does not close", (_, after) => {
    expect(verdict(`---\nname: a\n---${after}Body`)).toEqual(NO_CLOSING);
  });
});

describe("the closing fence must start its line: after LF, CR, U+2028 or U+2029", () => {
  test.each([
    ["U+2028", "\u2028"],
    ["U+2029", "\u2029"],
    ["CR", "\r"],
  ])("a fence after %s closes, the terminator kept in the frontmatter", (_, before) => {
    expect(verdict(`---\nname: a${before}---\nBody`)).toEqual({ ...OK, frontmatter: `name: a${before}` });
  });

  test.each([
    ["U+1028", "\u1028"],
    ["U+2068", "\u2068"],
    ["U+2014", "\u2014"],
    ["U+20A8", "\u20a8"],
  ])("a fence after %s does not close", (_, before) => {
    expect(verdict(`---\nname: a${before}---\nBody`)).toEqual(NO_CLOSING);
  });

  test("a fence on the frontmatter's first line closes an empty frontmatter", () => {
    expect(verdict("---\n---\nBody")).toEqual({ ok: true, frontmatter: "", body: "Body" });
    expect(verdict("---\r\n---\r\nBody")).toEqual({ ok: true, frontmatter: "", body: "Body" });
  });
});
