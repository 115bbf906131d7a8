// splitManifestBytes must agree with decodeUtf8 + splitManifest on every input: verdict, frontmatter and body.
import * as fs from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { bodyText, decodeUtf8, splitManifest, splitManifestBytes } from "../src/manifest.js";
import { corpusRoots, corpusTest, fixtureRoots, manifestFiles } from "./helpers/fixture.js";

/** Compare the byte splitter with the text one on `bytes`. */
function agree(bytes: Uint8Array): void {
  const text = decodeUtf8(bytes);
  const split = splitManifestBytes(bytes);
  if (text === undefined) {
    expect(split).toBeUndefined();
    return;
  }
  const want = splitManifest(text);
  if (split === undefined || !split.ok) {
    expect(split).toEqual(want);
    return;
  }
  expect({ ok: true, frontmatter: split.frontmatter, body: bodyText(split.body) }).toEqual(want);
}

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("splitManifestBytes", () => {
  test.each([
    ["a plain manifest", "---\nname: a\n---\n\nBody.\n"],
    ["CRLF line ends and fence spaces", "---  \r\nname: a\r\n--- \t\r\n  Body.\r\n"],
    ["a BOM", "\ufeff---\nname: a\n---\nBody"],
    ["a BOM inside the frontmatter, kept", "---\n\ufeffname: a\n---\nBody"],
    ["a closing fence after U+2028", "---\nname: a\u2028---\nBody"],
    ["a closing fence at the very end", "---\nname: a\n---"],
    ["an empty frontmatter", "---\n---\n"],
    ["no opening fence", "name: a\n---\n"],
    ["an opening fence with text after it", "--- x\nname: a\n---\n"],
    ["a lone CR after the opening fence", "---\rname: a\n---\n"],
    ["only the opening fence", "---"],
    ["no closing fence", "---\nname: a\n----\n"],
    ["a closing fence followed by a lone CR", "---\nname: a\n---\r\rBody"],
  ])("agrees on %s", (_, text) => {
    agree(utf8(text));
  });

  test("gives the frontmatter decoded and the body undecoded", () => {
    const split = splitManifestBytes(utf8("---\nname: é\n---\n  Bödy  \n"));
    expect(split?.ok && split.frontmatter).toBe("name: é\n");
    expect(split?.ok && split.body).toBeInstanceOf(Uint8Array);
    expect(split?.ok && bodyText(split.body)).toBe("Bödy");
  });

  test("says undefined for bytes that are not UTF-8", () => {
    expect(
      splitManifestBytes(Uint8Array.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a, 0x2d, 0x2d, 0x2d])),
    ).toBeUndefined();
    expect(splitManifestBytes(utf8("---\n\ud800\n---\n"))).toEqual(
      splitManifestBytes(utf8("---\n\ufffd\n---\n")),
    );
  });

  test("agrees on every vendored real manifest", () => {
    const files = manifestFiles(fixtureRoots());
    for (const file of files) agree(fs.readFileSync(file));
    expect(files).toHaveLength(59);
  });

  corpusTest("agrees on every manifest of the real corpus", () => {
    const files = manifestFiles(corpusRoots());
    for (const file of files) agree(fs.readFileSync(file));
    expect(files).toHaveLength(2360);
  });

  test("agrees on generated text and bytes", () => {
    const unit = fc.constantFrom(
      ..."- -- --- ---- \t \r \n \r\n \u2028 \u2029 \ufeff x é 😀".split(" "),
      " ",
      "name: a",
    );
    const invalid = fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x80]);
    const piece = fc.oneof(
      { arbitrary: unit.map((u) => Array.from(utf8(u))), weight: 12 },
      { arbitrary: invalid, weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (pieces, fenced) => {
        agree(Uint8Array.from([...(fenced ? utf8("---\n") : []), ...pieces.flat()]));
      }),
      { numRuns: 5000, seed: 42 },
    );
  });
});
