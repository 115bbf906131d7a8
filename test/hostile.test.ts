// SPEC §4 and §10: hostile files never hang, crash, exhaust memory, pollute prototypes or escape.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createAgentSkills, SkillError } from "../src/index.js";
import { manifest, skill, writeTree } from "./helpers/fixture.js";

function lenient(tree: Parameters<typeof writeTree>[0]) {
  const root = writeTree({ ...tree, "ok/SKILL.md": skill("ok") });
  const s = createAgentSkills({ roots: [{ path: root }] });
  // The healthy neighbour always survives.
  expect(s.getSkill("ok")?.name).toBe("ok");
  return { root, s, messages: s.warnings.map((w) => `${w.code}: ${w.message.replace(root, "<root>")}`) };
}

function strictCode(tree: Parameters<typeof writeTree>[0]): string {
  const root = writeTree(tree);
  try {
    createAgentSkills({ roots: [{ path: root }], strict: true });
    return "none";
  } catch (e) {
    expect(e).toBeInstanceOf(SkillError);
    return (e as SkillError).code;
  }
}

describe("manifests that are not regular files, or too large", () => {
  test.each([
    [
      "a FIFO",
      { "x/SKILL.md": { fifo: true } },
      "invalid_skill: <root>/x/SKILL.md: is a FIFO, not a regular file; skipped",
    ],
    [
      "a link to /dev/zero",
      { "x/SKILL.md": { symlink: "/dev/zero" } },
      "invalid_skill: <root>/x/SKILL.md: is a character device, not a regular file; skipped",
    ],
    [
      "a link to /dev/null",
      { "x/SKILL.md": { symlink: "/dev/null" } },
      "invalid_skill: <root>/x/SKILL.md: is a character device, not a regular file; skipped",
    ],
    [
      "a directory",
      { "x/SKILL.md/inner.txt": "x" },
      "invalid_skill: <root>/x/SKILL.md: is a directory, not a regular file; skipped",
    ],
    [
      "1 MiB + 1 byte",
      { "x/SKILL.md": manifest("name: x\ndescription: d", "a".repeat(1024 * 1024)) },
      /^invalid_skill: <root>\/x\/SKILL\.md: is 104860\d bytes, over the 1 MiB limit; skipped$/,
    ],
  ] as const)("%s is invalid_skill without blocking", (_, tree, expected) => {
    const { messages } = lenient(tree);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      typeof expected === "string"
        ? new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)
        : expected,
    );
    expect(strictCode(tree)).toBe("invalid_skill");
  });

  test("files whose size stat reports as 0 are read to their end, and bounded", () => {
    // /proc files claim size 0: the reader must grow its buffer, and stop past 1 MiB.
    const { messages } = lenient({
      "small/SKILL.md": { symlink: "/proc/self/status" },
      "large/SKILL.md": { symlink: "/proc/kallsyms" },
    });
    expect(messages).toEqual([
      "invalid_skill: <root>/large/SKILL.md: is 1048577 bytes, over the 1 MiB limit; skipped",
      "invalid_skill: <root>/small/SKILL.md:1: does not start with a --- frontmatter fence; skipped",
    ]);
  });

  test("exactly 1 MiB loads", () => {
    const head = "---\nname: x\ndescription: d\n---\n";
    const text = head + "b".repeat(1024 * 1024 - head.length);
    expect(Buffer.byteLength(text)).toBe(1024 * 1024);
    const { s } = lenient({ "x/SKILL.md": text });
    expect(s.loadSkill("x")?.body).toHaveLength(1024 * 1024 - head.length);
  });

  // The kernel's count of bytes read is Linux's /proc/self/io; elsewhere the test is skipped, saying so.
  const proc = fs.existsSync("/proc/self/io");
  const title = "a 50 MB manifest is refused by the size fstat gives, none of it read";
  (proc ? test : test.skip)(proc ? title : `${title} [skipped: no /proc/self/io]`, () => {
    const root = writeTree({ "ok/SKILL.md": skill("ok") });
    fs.mkdirSync(path.join(root, "big"));
    const fd = fs.openSync(path.join(root, "big", "SKILL.md"), "w");
    fs.writeSync(fd, "---\nname: big\ndescription: d\n---\n");
    fs.ftruncateSync(fd, 50 * 1024 * 1024);
    fs.closeSync(fd);
    // The bytes this process read (read(2) and the like, files and pipes alike), from the kernel's own
    // count. Nothing else reads while the synchronous discovery runs; the read of the count itself is
    // counted in the next one, so it is taken off.
    const readSoFar = () => {
      const io = fs.readFileSync("/proc/self/io", "latin1");
      return { rchar: Number(/^rchar: (\d+)$/m.exec(io)?.[1]), length: io.length };
    };
    const before = readSoFar();
    const s = createAgentSkills({ roots: [{ path: root }] });
    const after = readSoFar();
    expect(s.warnings.map((w) => w.message)).toEqual([
      `${path.join(root, "big", "SKILL.md")}: is 52428800 bytes, over the 1 MiB limit; skipped`,
    ]);
    // fstat gave its size: nothing of it was read, only the healthy neighbour.
    expect(after.rchar - before.rchar - before.length).toBe(Buffer.byteLength(skill("ok")));
  });
});

describe("hostile YAML", () => {
  test("an alias bomb is invalid_skill, quickly", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    const tree = { "x/SKILL.md": manifest(`name: x\ndescription: d\n${lines.join("\n")}`) };
    const { messages } = lenient(tree);
    expect(messages).toEqual([
      "invalid_skill: <root>/x/SKILL.md: frontmatter uses 110 YAML aliases, over the limit of 32; skipped",
    ]);
    expect(strictCode(tree)).toBe("invalid_skill");
  });

  test.each([
    // As deep as the full parser's length limit allows (4 KiB); deeper text is refused for its length.
    ["flow lists", 2_000, `${"[".repeat(2_000)}${"]".repeat(2_000)}`],
    ["flow maps", 800, `${"{a: ".repeat(800)}1${"}".repeat(800)}`],
  ])("%s nested %i deep are invalid_skill, not a crash", (_, _depth, deep) => {
    // Under a nested key, so the top-level repair is not even tempted.
    const tree = { "x/SKILL.md": manifest(`name: x\ndescription: d\nnest:\n  deep: ${deep}`) };
    expect(lenient(tree).messages).toEqual([
      "invalid_skill: <root>/x/SKILL.md: frontmatter nests deeper than 64 levels; skipped",
    ]);
    expect(strictCode(tree)).toBe("invalid_skill");
  });

  test("frontmatter over 16 KiB is invalid_skill", () => {
    const tree = { "x/SKILL.md": manifest(`name: x\ndescription: ${"d".repeat(70_000)}`) };
    expect(lenient(tree).messages).toEqual([
      "invalid_skill: <root>/x/SKILL.md: frontmatter is 70022 characters long, over the limit of 16384; skipped",
    ]);
  });

  test("65 levels of mappings (the top one included) are refused, 64 accepted", () => {
    // One-space indentation keeps 65 levels within the full parser's 4 KiB.
    const nest = (n: number) =>
      `${Array.from({ length: n }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} leaf`;
    expect(lenient({ "x/SKILL.md": manifest(`name: x\ndescription: d\n${nest(64)}`) }).messages).toEqual([]);
    expect(lenient({ "x/SKILL.md": manifest(`name: x\ndescription: d\n${nest(65)}`) }).messages).toEqual([
      "invalid_skill: <root>/x/SKILL.md: frontmatter nests deeper than 64 levels; skipped",
    ]);
  });

  test("__proto__ and constructor keys are kept as data and pollute nothing", () => {
    const { s } = lenient({
      "x/SKILL.md": manifest(
        "name: x\ndescription: d\n__proto__:\n  polluted: yes\nconstructor:\n  prototype:\n    polluted: yes",
      ),
    });
    const meta = s.getSkill("x")?.metadata as Record<string, unknown>;
    expect(Object.keys(meta)).toEqual(["name", "description", "__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(meta, "__proto__")?.value).toEqual({ polluted: "yes" });
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((meta as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(meta)).toContain('"__proto__":{"polluted":"yes"}');
  });

  test("a NUL byte and control characters in values are data", () => {
    const { s } = lenient({ "x/SKILL.md": manifest('name: x\ndescription: "a\\0b\\x1b[2J"') });
    expect(s.getSkill("x")?.description).toBe("a\0b\x1b[2J");
  });
});
