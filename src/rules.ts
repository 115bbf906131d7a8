// The open Agent Skills format's rules (agentskills.io), checked by validation; discovery never drops a skill for them.

/** One broken format rule. */
export interface RuleFinding {
  /** Stable rule id, e.g. `name-format`. */
  readonly rule: string;
  /** The frontmatter key concerned. */
  readonly key: string;
  /** What is wrong, naming the value. */
  readonly message: string;
  /** One line on how to fix it. */
  readonly hint: string;
}

/** Every rule id {@link checkFormatRules} can report. */
export const FORMAT_RULES = [
  "name-format",
  "name-matches-dir",
  "description-length",
  "compatibility-length",
  "metadata-strings",
] as const;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const codePoints = (s: string) => [...s].length;
/** What `name-format` accepts. */
const validName = (s: string) => codePoints(s) <= 64 && NAME.test(s);

/**
 * A name that would pass `name-format`: lower-cased, other characters turned to single hyphens. After
 * that first step no two hyphens touch, so one leading and one trailing hyphen (before or after the cut
 * at 64) are all there is to drop.
 */
function suggestName(name: string): string {
  return (
    name
      // Compatibility forms (ligatures such as ﬁ) spelled out, accents dropped: café → cafe, not caf.
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-/, "")
      .slice(0, 64)
      .replace(/-$/, "")
  );
}

/**
 * Check valid frontmatter (`name` and `description` are strings) against the agentskills.io rules:
 * name of 1–64 of `a-z 0-9 -`, no leading, trailing or double hyphen, equal to the directory name;
 * description at most 1024 characters; compatibility at most 500; `metadata` a map of strings.
 */
export function checkFormatRules(
  frontmatter: Readonly<Record<string, unknown>>,
  dirName: string,
): RuleFinding[] {
  const out: RuleFinding[] = [];
  const name = String(frontmatter.name);
  if (!validName(name)) {
    // Nothing of the name survives (名前): the directory's name, when that would pass.
    const suggested = suggestName(name) || (validName(dirName) ? dirName : "my-skill");
    out.push({
      rule: "name-format",
      key: "name",
      message: `name ${JSON.stringify(name)} must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen`,
      hint: `rename it to ${JSON.stringify(suggested)}${suggested === dirName ? "" : ", and its directory to match"}`,
    });
  }
  if (name !== dirName) {
    // The same text in two Unicode forms (é composed or not) prints alike: say why they differ.
    const forms =
      name.normalize("NFC") === dirName.normalize("NFC")
        ? " (the same letters in different Unicode forms, NFC and NFD)"
        : "";
    out.push({
      rule: "name-matches-dir",
      key: "name",
      message: `name ${JSON.stringify(name)} differs from its directory name ${JSON.stringify(dirName)}${forms}`,
      hint: "give the directory and the name the same value",
    });
  }
  const description = String(frontmatter.description);
  if (codePoints(description) > 1024) {
    out.push({
      rule: "description-length",
      key: "description",
      message: `description is ${codePoints(description)} characters, over the limit of 1024`,
      hint: "keep what tells an agent when to use the skill; move the rest into the body",
    });
  }
  const compatibility = frontmatter.compatibility;
  if (compatibility !== undefined && (typeof compatibility !== "string" || codePoints(compatibility) > 500)) {
    out.push({
      rule: "compatibility-length",
      key: "compatibility",
      message:
        typeof compatibility === "string"
          ? `compatibility is ${codePoints(compatibility)} characters, over the limit of 500`
          : "compatibility must be a string",
      hint:
        typeof compatibility === "string"
          ? "state the environment needs in one short sentence"
          : 'put the value in double quotes (compatibility: "…"), so that YAML reads it as text',
    });
  }
  const metadata = frontmatter.metadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== "object" ||
      metadata === null ||
      Array.isArray(metadata) ||
      Object.values(metadata).some((v) => typeof v !== "string"))
  ) {
    out.push({
      rule: "metadata-strings",
      key: "metadata",
      message: "metadata must be a map of string keys to string values",
      hint: "quote each value, and flatten nested maps into keys such as `author`, `version`",
    });
  }
  return out;
}
