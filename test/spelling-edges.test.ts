// The "did you mean" finder at its edges: each kind of edit, the distance cap for short and long words,
// the case/underscore/space folding, and which candidate wins a tie.
import { describe, expect, test } from "vitest";
import { closest, speller } from "../src/spelling.js";

describe("closest: edits counted", () => {
  test.each([
    ["pfd", "pdf"], // one swap of neighbours
    ["ab", "ba"],
    ["xab", "xba"],
    ["abcde", "abcdx"], // one substitution
    ["abcde", "abcd"], // one deletion
    ["abcde", "abxye"], // two substitutions, long word
    ["abcde", "xyabcde"], // two insertions in front
  ])("%s finds %s", (word, candidate) => {
    expect(closest(word, [candidate])).toBe(candidate);
  });

  test.each([
    ["abcde", "xyabcdf"], // two insertions in front and a substitution: 3
    ["abcdeq", "abcxy"], // the last character of the word counts too: 3
    ["abcdefgh", "abxyefzw"], // two pairs replaced, not swapped: 4
    ["cd", "xc"], // an insertion and a deletion, not a swap: 2 over a cap of 1
    ["xc", "cy"], // a deletion and an insertion, not a swap: 2
    ["abcdefgh", "abcde"], // lengths 3 apart: too far without counting
    ["ab", "abcd"],
    ["xab", "yba"], // a substitution then a swap: 2 over a cap of 1
    ["abcdefg", "abxyzfg"], // three substitutions: 3
    ["xy   ", "abcd-"], // spaces fold to one hyphen, the cap stays the word's: xy- against abcd- is 4
  ])("%s does not find %s", (word, candidate) => {
    expect(closest(word, [candidate])).toBeUndefined();
  });
});

describe("closest: the cap follows the word's length", () => {
  test("a word of 4 characters allows 1 edit, not 2", () => {
    expect(closest("abcd", ["abcx"])).toBe("abcx");
    expect(closest("abcd", ["abxy"])).toBeUndefined();
  });

  test("a word of 5 characters allows 2 edits, not 3", () => {
    expect(closest("abcde", ["abxye"])).toBe("abxye");
    expect(closest("abcde", ["axyze"])).toBeUndefined();
  });
});

describe("closest: case, underscores and spaces are set aside", () => {
  test("a run of underscores or spaces is one hyphen", () => {
    expect(closest("pdf    tools", ["pdf-tools"])).toBe("pdf-tools");
    expect(closest("A_B_C_D", ["a-b-c-d"])).toBe("a-b-c-d");
    expect(closest("a-b-c-d", ["a_b_c_d"])).toBe("a_b_c_d");
  });
});

describe("speller: which candidate wins", () => {
  test("the first of equally close candidates; a closer later one beats it", () => {
    const near = speller(["abcdy", "abcdz", "abcdx"]);
    expect(near("abcdw")).toBe("abcdy");
    expect(near("abcdx")).toBe("abcdx");
    expect(near("zzzzz")).toBeUndefined();
  });
});
