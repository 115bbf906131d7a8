// Frontmatter keys and client rules: unknown-field (every run) and the rules a --target client is documented or coded to enforce.
import * as path from "node:path";
import type { RuleFinding } from "./rules.js";
import { speller } from "./spelling.js";

/** The clients `validateSkills` can check for, beyond the open format's rules. */
export const VALIDATION_TARGETS = ["agentskills", "claude", "codex"] as const;

/** A client whose own rules `validateSkills({ target })` adds; see the README's rule table for each rule's source. */
export type ValidationTarget = (typeof VALIDATION_TARGETS)[number];

/** Every rule id a target can add; each is an error, and only under its target. */
export const TARGET_RULES = [
  "agentskills-fields",
  "agentskills-yaml",
  "claude-reserved-word",
  "claude-xml-tags",
  "codex-manifest-name",
  "codex-short-description",
] as const;

/** The top-level keys of the Agent Skills specification (agentskills.io/specification). */
const SPEC_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/**
 * Keys major clients document on top of the specification: Claude Code's skills reference
 * (code.claude.com/docs/en/skills), and `tools`, which this library reads (it feeds `allowedTools`).
 */
const EXTENSION_FIELDS = [
  "argument-hint",
  "arguments",
  "when_to_use",
  "disable-model-invocation",
  "user-invocable",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "paths",
  "shell",
  "tools",
];

const KNOWN: readonly string[] = [...SPEC_FIELDS, ...EXTENSION_FIELDS];
const NEAR_SPEC = speller(SPEC_FIELDS);
const NEAR_KNOWN = speller(KNOWN);

function unknownField(key: string, rule: string, near: string | undefined, why: string): RuleFinding {
  return {
    rule,
    key,
    message: `top-level key ${JSON.stringify(key)} ${why}${near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`}`,
    hint:
      near === undefined
        ? "move it under metadata: (a map of strings), or remove it"
        : `rename it to ${near}, or move it under metadata:`,
  };
}

const XML_TAG = /<\/?[A-Za-z][^<>]*>/;
/** The text as on one line: each run of whitespace one space, none at the ends. */
const fold = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The key rules for `frontmatter`: `unknown-field` (a warning) for a key neither the specification nor
 * a major client documents, `manifest-name` (a warning) for a manifest not named exactly SKILL.md;
 * under `target`, that client's own rules (errors). `manifest` is the path of the file.
 */
export function checkClientRules(
  frontmatter: Readonly<Record<string, unknown>>,
  manifest: string,
  target: ValidationTarget | undefined,
): RuleFinding[] {
  const out: RuleFinding[] = [];
  for (const key of Object.keys(frontmatter)) {
    if (target === "agentskills" && !SPEC_FIELDS.includes(key)) {
      out.push(
        unknownField(
          key,
          "agentskills-fields",
          NEAR_SPEC(key),
          "is not a field of the Agent Skills specification",
        ),
      );
    } else if (!KNOWN.includes(key)) {
      out.push(
        unknownField(
          key,
          "unknown-field",
          NEAR_KNOWN(key),
          "is not a field of the specification or of a major client",
        ),
      );
    }
  }
  const name = String(frontmatter.name);
  const description = String(frontmatter.description);
  if (target === "claude") {
    const reserved = /anthropic|claude/i.exec(name)?.[0];
    if (reserved !== undefined) {
      out.push({
        rule: "claude-reserved-word",
        key: "name",
        message: `name ${JSON.stringify(name)} contains the reserved word ${JSON.stringify(reserved.toLowerCase())}`,
        hint: "choose a name without anthropic or claude",
      });
    }
    for (const [key, value] of [
      ["name", name],
      ["description", description],
    ] as const) {
      const tag = XML_TAG.exec(value)?.[0];
      if (tag === undefined) continue;
      out.push({
        rule: "claude-xml-tags",
        key,
        message: `${key} contains the XML tag ${JSON.stringify(tag)}`,
        hint: "write the text without <tags>; describe the format in words",
      });
    }
  }
  const file = path.basename(manifest);
  if (file !== "SKILL.md") {
    // The file's name, not a key: no line to point at. Under Codex, which reads no other name, an error.
    const [rule, why] =
      target === "codex"
        ? ["codex-manifest-name", "Codex reads only a file named exactly SKILL.md"]
        : [
            "manifest-name",
            "the specification names it SKILL.md, and some clients (Codex) read no other name",
          ];
    out.push({
      rule,
      key: "",
      message: `the manifest is named ${JSON.stringify(file)}; ${why}`,
      hint: `rename ${file} to SKILL.md`,
    });
  }
  if (target === "codex") {
    const metadata = frontmatter.metadata;
    const short =
      typeof metadata === "object" && metadata !== null
        ? ["short-description", "shortDescription", "short_description"]
            .map((k) => (metadata as Record<string, unknown>)[k])
            .find((v) => typeof v === "string")
        : undefined;
    if (typeof short === "string" && [...fold(short)].length > 500) {
      out.push({
        rule: "codex-short-description",
        key: "metadata",
        message: `metadata.short-description is ${[...fold(short)].length} characters, over Codex's limit of 500`,
        hint: "shorten it to one line of at most 500 characters",
      });
    }
  }
  return out;
}
