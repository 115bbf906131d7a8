// src/fastreject.ts strayLine: prose among the top-level keys (markdown pasted above the closing fence, a
// merge conflict's markers) is yaml's error, and the fast path knows which and where, so that no yaml
// parse runs for it. Every row and every generated text is checked against yaml itself.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastParse, SureError } from "../src/fastyaml.js";
import { MAX_ALIASES, MAX_YAML_LENGTH, parseFrontmatter } from "../src/frontmatter.js";
import { decodeUtf8, splitManifest } from "../src/manifest.js";
import { corpusRoots, corpusTest, manifest, manifestFiles, tempDir, writeTree } from "./helpers/fixture.js";
import { fuzzParams } from "./helpers/fuzz.js";

const ONE = "Implicit map keys need to be followed by map values";
const MORE = "Implicit keys need to be on a single line";

/** yaml's first error in `text` as the frontmatter stage reads it (parseYaml's options), or undefined. */
function firstError(text: string): { message: string; line: number; column: number } | undefined {
  const options = {
    uniqueKeys: true,
    prettyErrors: false,
    logLevel: "error",
    resolveKnownTags: false,
  } as const;
  const doc = parseDocument(text, options);
  let err: (typeof doc.errors)[number] | undefined;
  for (const e of doc.errors) if (err === undefined || e.pos[0] < err.pos[0]) err = e;
  if (err === undefined) return undefined;
  const at = err.pos[0];
  const line = text.slice(0, at).split("\n").length;
  return { message: err.message.split("\n")[0] as string, line, column: at - text.lastIndexOf("\n", at - 1) };
}

/** The fast path's verdict on `text` is yaml's own first error, at column 1. */
function sure(text: string, message: string, line: number): void {
  expect(fastParse(text), text).toStrictEqual(new SureError(message, line));
  expect(firstError(text), text).toStrictEqual({ message, line, column: 1 });
}

describe("prose after a top-level entry: yaml's error, known", () => {
  test.each([
    ["a sentence, then the end", "name: a\nThe launchpad for agent-built projects, every one.\n", ONE, 2],
    ["markdown under a heading", "name: a\n\n# Title\n\nSome prose here.\n\n## More\n\n| a | b |\n", ONE, 5],
    ["prose, a comment, a key", "name: a\nProse\n# a comment\nkey: v\n", ONE, 2],
    ["prose, a comment, a list", "name: a\nProse\n# a comment\n- x\n", ONE, 2],
    ["a merge conflict", "name: a\n<<<<<<< HEAD\nmetadata:\n  v: 1\n=======\n>>>>>>> theirs\n", MORE, 2],
    ["prose over two lines", "name: a\nProse\nruns on\n", MORE, 2],
    ["prose, a blank line, a list item", "name: a\nProse\n\n- item\n", MORE, 2],
    ["prose, then an indented key", "name: a\nProse\n  k: v\n", MORE, 2],
    ["after a nested mapping", "m:\n  k: v\nProse here\n", ONE, 3],
    ["after a block scalar", "d: |\n  x\nProse here\n", ONE, 3],
    ["after a sequence", "tags:\n- a\nProse here\n", ONE, 3],
    ["with CRLF line ends", "name: a\r\nProse here\r\n", ONE, 2],
    ["with indicators inside", "name: a\nxy [y] {z}, 'q' *a &b !c\n", ONE, 2],
    ["two characters", "name: a\nab\n", ONE, 2],
    ["as long as it may be", `name: a\n${"x".repeat(1000)}\n`, ONE, 2],
    ["then a line of spaces at the end", "name: a\nProse\n   ", ONE, 2],
    ["then an indented `---`, which is text", "name: a\nProse\n  ---\n", MORE, 2],
  ] as const)("%s", (_, text, message, line) => sure(text, message, line));

  // Each character prose may start with, at the ends of its ranges.
  test.each(["abc", "zed", "Abc", "Zed", "0ab", "9ab", "_ab", "<<<<<<< HEAD", "======="])(
    "prose starting %j",
    (start) => sure(`name: a\n${start} and more\n`, ONE, 2),
  );
});

describe("what stays with yaml: prose the fast path is not sure of", () => {
  test.each([
    // Before any entry, prose is a string document (no error), or a key over several lines.
    ["prose first", "Just prose\n"],
    ["prose before the keys", "Prose first\nname: a\n"],
    // A character alone is another case to yaml.
    ["one character", "name: a\nx\nb: 1\n"],
    ["one character, then a space", "name: a\nx y\nb: 1\n"],
    ["a colon in it", "name: a\nTwo words: x\n"],
    ["a hash in it", "name: a\nC# prose\n"],
    ["the name of a key before it", "name: a\nname\n"],
    ["the name of a key before it, then spaces", "name: a\nname  \n"],
    ["a document end marker after it", "name: a\nProse\n...\n"],
    ["a colon after a comment gives the key a value", "name: a\nProse\n# c\n  : value\n"],
    ["a colon on the next line", "name: a\nProse\n: value\n"],
    ["a document start marker after it", "name: a\nProse\n---\n"],
    ["a quote where a key could be", '"q": 1\nProse\n'],
    ["indented, after a flow value", "a: [x]\n  more prose\n"],
    ["longer than an implicit key", `name: a\n${"x".repeat(1001)}\n`],
  ])("%s", (_, text) => expect(fastParse(text), text).toBeUndefined());

  test("yaml itself: the key has a value, or the text is a string", () => {
    expect(firstError("name: a\nProse\n# c\n  : value\n")).toBeUndefined();
    expect(firstError("Just prose\n")).toBeUndefined();
    // And where the fast path declines a single character, yaml's error is not the one for longer prose.
    expect(firstError("name: a\nx\nb: 1\n")?.message).toBe(ONE);
    expect(firstError("name: a\nname\n")?.message).toBe("Map keys must be unique");
  });
});

describe("parseFrontmatter with prose: the outcome yaml's path gave", () => {
  const located = (line: number, message = ONE) =>
    ({ ok: false, message: `invalid YAML: ${message}`, line, column: 1 }) as const;

  test("yaml's error, with the repair or without", () => {
    expect(parseFrontmatter("name: a\nThe launchpad\n", false)).toStrictEqual(located(2));
    expect(parseFrontmatter("name: a\nThe launchpad\n", true)).toStrictEqual(located(2));
    expect(parseFrontmatter("name: a\n<<<<<<< HEAD\nlicense: MIT\n", true)).toStrictEqual(located(2, MORE));
  });

  test("a value the repair quotes comes first: its error stands, and the repaired text fails too", () => {
    // The quoted value is yaml's first error (line 1); the repair leaves the prose, still an error.
    const text = "description: Use when: x\nProse here\n";
    const error = firstError(text);
    expect(error).toStrictEqual({
      message: "Nested mappings are not allowed in compact mappings",
      line: 1,
      column: 14,
    });
    expect(parseFrontmatter(text, true)).toStrictEqual({
      ok: false,
      ...error,
      message: `invalid YAML: ${error?.message}`,
    });
  });

  test("a text the fast path declines, repaired into one it reads: the repaired value", () => {
    // A comment inside a flow collection left open: not sure, so yaml reports it (where the text ends);
    // the repair quotes it.
    const text = "description: [a, b # c\n";
    expect(fastParse(text)).toBeUndefined();
    expect(firstError(text)?.line).toBe(2);
    expect(parseFrontmatter(text, true)).toStrictEqual({
      ok: true,
      data: { description: "[a, b" },
      repaired: true,
    });
  });

  test("aliases over their limit are counted first, as yaml's path does", () => {
    const aliases = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `k${i}: *a`).join("\n");
    const text = `name: x\nProse here\n# c\nk: &a x\n${aliases}\n`;
    expect(fastParse(text)).toStrictEqual(new SureError(ONE, 2));
    expect(parseFrontmatter(text, true)).toStrictEqual({
      ok: false,
      message: `frontmatter uses ${MAX_ALIASES + 1} YAML aliases, over the limit of ${MAX_ALIASES}`,
    });
    // Under the limit, an alias changes nothing.
    expect(parseFrontmatter("name: x\nProse here\n# c\nk: &a x\nl: *a\n", true)).toStrictEqual(located(2));
  });

  test("text longer than the full parser reads is refused for its length, as before", () => {
    const text = `name: a\nProse here\n${"# a comment\n".repeat(MAX_YAML_LENGTH / 12 + 1)}`;
    expect(fastParse(text)).toStrictEqual(new SureError(ONE, 2));
    expect(parseFrontmatter(text, true)).toStrictEqual({
      ok: false,
      message: `frontmatter is ${text.length} characters long and needs the full YAML parser, which reads at most ${MAX_YAML_LENGTH}; keep it to plain keys and values`,
    });
  });
});

test("generated prose among entries: every sure verdict is yaml's first error", () => {
  const piece = fc.constantFrom(
    ...["name", "description", "a", "b c", "x ", "word", "Two words", "<<<<<<< HEAD", "=======", ">>>>>>> x"],
    ...["-", "- ", "--", "---", "...", "#", " #", ":", ": ", '"', "'", "[", "]", "{", "}", "|", ">"],
    ...["*a", "&a", "!t", "%", "@", "`", "?", ",", "1", "null", "~", "é", "🦞", " ", "_x", "=x", "<x", "."],
  );
  const prose = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(""));
  const entry = fc.constantFrom(
    ...["name: a", "description: some text", "m:\n  k: v", "tags:\n- a\n- b", "d: |\n  x\n  y", "e:"],
    ...["f: [1, 2]", "g: 'q'", "h: >\n  folded", "# comment", "", "   ", "  # indented comment"],
  );
  const line = fc.oneof(
    { weight: 3, arbitrary: entry },
    { weight: 3, arbitrary: prose },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(" ", "  ", "    "), prose).map(([i, p]) => i + p) },
  );
  const head = fc.constantFrom(
    "name: a",
    "m:\n  k: v",
    "# c\nname: a",
    'metadata: {\n  "a": [1,\n  2]\n}',
    "e:\n",
  );
  const text = fc
    .tuple(
      head,
      fc.array(line, { minLength: 1, maxLength: 6 }),
      fc.constantFrom("", "\n"),
      fc.constantFrom("\n", "\r\n"),
    )
    .map(([h, lines, end, eol]) => `${[h, ...lines].join("\n")}${end}`.replaceAll("\n", eol));
  let sureOnes = 0;
  fc.assert(
    fc.property(text, (t) => {
      const fast = fastParse(t);
      if (!(fast instanceof SureError)) return;
      sureOnes++;
      expect(firstError(t), t).toStrictEqual({ message: fast.message, line: fast.line, column: 1 });
    }),
    fuzzParams(3000),
  );
  // The generator must reach the verdict often, or the property proves nothing.
  expect(sureOnes).toBeGreaterThan(200);
});

corpusTest("the corpus's two frontmatters of prose get yaml's error without yaml", () => {
  const found: string[] = [];
  for (const file of manifestFiles(corpusRoots())) {
    const split = splitManifest(decodeUtf8(fs.readFileSync(file)) ?? "");
    if (!split.ok) continue;
    const fast = fastParse(split.frontmatter);
    if (!(fast instanceof SureError)) continue;
    found.push(path.basename(path.dirname(file)));
    expect(firstError(split.frontmatter), file).toStrictEqual({
      message: fast.message,
      line: fast.line,
      column: 1,
    });
  }
  // A page of markdown above the closing fence, and a merge conflict's markers.
  expect(found.sort()).toEqual(["molthunt", "obsidian-daily"]);
});

test("discovery reports prose without loading yaml: the built package beside a yaml that tells its load", () => {
  // A copy of dist/ whose `yaml` is a stand-in: loading it writes to stderr, and it parses nothing.
  const pkg = tempDir();
  fs.cpSync(path.resolve(import.meta.dirname, "..", "dist"), path.join(pkg, "dist"), { recursive: true });
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ type: "module" }));
  writeTree(
    {
      "yaml/package.json": JSON.stringify({ name: "yaml", main: "index.js" }),
      "yaml/index.js": 'process.stderr.write("yaml loaded\\n");',
    },
    path.join(pkg, "node_modules"),
  );
  const discover = (tree: Record<string, string>) => {
    const root = writeTree(tree);
    const script = `const m = await import("./dist/index.js");
      const skills = m.createAgentSkills({ roots: [{ path: ${JSON.stringify(root)} }], onWarning: (w) => console.log(w.message) });
      console.log(skills.listSkills().map((s) => s.name).join());`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: pkg,
      encoding: "utf8",
    });
    return { root, out: r.stdout.trim().split("\n"), err: r.stderr };
  };
  const { root, out, err } = discover({
    "conflict/SKILL.md": manifest("name: conflict\n<<<<<<< HEAD\ndescription: d"),
    // Markdown above the closing fence: a heading (a comment to yaml), then a paragraph.
    "prose/SKILL.md": manifest("name: prose\ndescription: d\n\n# Title\n\nThe launchpad for agents."),
    // A value the repair quotes, after the prose: the repaired text is judged by the fast path too.
    "quoted/SKILL.md": manifest("name: quoted\nProse here\n# c\ndescription: Use when: x"),
    "plain/SKILL.md": manifest("name: plain\ndescription: d"),
    // Bold words below the prose: as many `*` as the alias limit, so none can be over it.
    "stars/SKILL.md": manifest(
      `name: stars\ndescription: d\n\nThe launchpad.\n\n${"**b** ".repeat(MAX_ALIASES / 4)}`,
    ),
  });
  expect(err).toBe("");
  const warned = (dir: string, at: string, message: string) =>
    `${path.join(root, dir, "SKILL.md")}:${at}: invalid YAML: ${message}; skipped`;
  expect(out).toEqual([
    warned("conflict", "3:1", MORE),
    warned("prose", "7:1", ONE),
    warned("quoted", "3:1", ONE),
    warned("stars", "5:1", MORE),
    "plain",
  ]);
  // The control: a complex key in JSON metadata needs yaml, and the stand-in tells it.
  const control = discover({
    "key/SKILL.md": manifest('name: key\ndescription: d\nmetadata: {"a": ["b"], ["c"]}'),
  });
  expect(control.err).toBe("yaml loaded\n");
  // One `*` more than the limit: the aliases must be counted, by yaml's lexer (which the stand-in
  // lacks, so the run stops there).
  const stars = discover({
    "stars/SKILL.md": manifest(
      `name: stars\ndescription: d\n\nThe launchpad.\n\n*${"**b** ".repeat(MAX_ALIASES / 4)}`,
    ),
  });
  expect(stars.err).toMatch(/^yaml loaded\n.*Lexer is not a constructor/s);
});
