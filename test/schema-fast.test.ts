// validateFrontmatter checks plainly valid frontmatter without zod: it must give exactly what zod's path gives.
import fc from "fast-check";
import { expect, test } from "vitest";
import { skillFrontmatterSchema, splitTools, validateFrontmatter } from "../src/schema.js";

/** The zod-only path, as validateFrontmatter was before its direct check: the reference. */
function viaZod(data: Record<string, unknown>) {
  const toolList = (v: unknown) =>
    typeof v === "string" || (Array.isArray(v) && v.every((t) => typeof t === "string"));
  const toolsIgnored = data.tools !== undefined && !toolList(data.tools);
  const result = skillFrontmatterSchema.safeParse(toolsIgnored ? { ...data, tools: undefined } : data);
  if (!result.success) return { ok: false, key: String(result.error.issues[0]?.path[0] ?? "") };
  const fm = result.data as Record<string, unknown>;
  const metadata: Record<string, unknown> = { ...data };
  if (fm["user-invocable"] !== undefined) metadata["user-invocable"] = fm["user-invocable"];
  const tools = (fm["allowed-tools"] ?? fm.tools) as string | string[] | undefined;
  return {
    ok: true,
    value: {
      name: fm.name,
      description: fm.description,
      metadata,
      allowedTools:
        tools === undefined
          ? undefined
          : typeof tools === "string"
            ? splitTools(tools)
            : tools.map((t) => t.trim()).filter((t) => t !== ""),
      userInvocable: fm["user-invocable"] ?? true,
      toolsIgnored,
    },
  };
}

const value = fc.oneof(
  fc.constantFrom(
    "pdf",
    " ",
    "",
    "  padded  ",
    "Read, Bash(git add:*)",
    "yes",
    "Off",
    "true",
    null,
    true,
    false,
    0,
    1.5,
  ),
  fc.array(fc.constantFrom("Read", " Grep ", "", "Bash(x y)"), { maxLength: 3 }),
  fc.array(fc.constantFrom("Read", 3, null, { name: "x" }), { maxLength: 3 }),
  fc.constant({ nested: "map" }),
);
const key = fc.constantFrom("allowed-tools", "tools", "user-invocable", "license", "metadata");
const text = fc.oneof(
  { arbitrary: fc.constantFrom("pdf", "Read PDFs."), weight: 5 },
  { arbitrary: value, weight: 1 },
);
const frontmatter = fc
  .tuple(text, text, fc.dictionary(key, value, { maxKeys: 5 }))
  .map(([name, description, rest]): Record<string, unknown> => ({ name, description, ...rest }));

test("the direct check and the zod path give the same verdicts and fields", () => {
  let plain = 0;
  fc.assert(
    fc.property(frontmatter, (data) => {
      const got = validateFrontmatter(data);
      const want = viaZod(data);
      if (!got.ok) {
        expect({ ok: false, key: got.key }).toEqual(want);
        return;
      }
      expect(got).toEqual(want);
      if (typeof data["user-invocable"] !== "string") plain++;
    }),
    { numRuns: 5000, seed: 11 },
  );
  expect(plain).toBeGreaterThan(200);
});

test("a plainly valid frontmatter keeps every key, frozen", () => {
  const got = validateFrontmatter({
    name: "pdf",
    description: "Read PDFs.",
    "allowed-tools": ["Read"],
    x: { y: [1] },
  });
  expect(got).toEqual({
    ok: true,
    value: {
      name: "pdf",
      description: "Read PDFs.",
      metadata: { name: "pdf", description: "Read PDFs.", "allowed-tools": ["Read"], x: { y: [1] } },
      allowedTools: ["Read"],
      userInvocable: true,
      toolsIgnored: false,
    },
  });
  expect(got.ok && Object.isFrozen((got.value.metadata.x as { y: unknown }).y)).toBe(true);
});

/** splitTools as it was, a character at a time: the reference for the index-and-slice version. */
function splitToolsByChar(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current !== "") out.push(current);
      current = "";
    } else current += ch;
  }
  if (current !== "") out.push(current);
  return out;
}

test("splitTools splits like the character-at-a-time version", () => {
  const unit = fc.constantFrom("Read", "(", ")", ",", " ", "\t", "\u00a0", "\u2028", "😀", "git add:*", "x");
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 16 }), (units) => {
      const s = units.join("");
      expect(splitTools(s)).toEqual(splitToolsByChar(s));
    }),
    { numRuns: 5000, seed: 5 },
  );
});
