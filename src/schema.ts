// The zod schema that decides which parsed frontmatter is a skill, and the normalisation of its fields.
import type * as Zod from "zod";
import loadZod from "./loadzod.cjs";

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  false: false,
  no: false,
  off: false,
};

/** Build the schema with the given zod: called once, on first need. */
function buildSchema(z: typeof Zod) {
  const nonEmptyString = z.string().refine((s) => s.trim() !== "", { message: "must not be empty" });
  const toolList = z.union([z.string(), z.array(z.string())]);
  const booleanish = z.preprocess((v) => {
    if (typeof v !== "string") return v;
    const word = BOOLEAN_WORDS[v.trim().toLowerCase()];
    return word ?? v;
  }, z.boolean());
  return z.looseObject({
    name: nonEmptyString,
    description: nonEmptyString,
    "allowed-tools": toolList.optional(),
    tools: toolList.optional(),
    "user-invocable": booleanish.optional(),
  });
}

type FrontmatterSchema = ReturnType<typeof buildSchema>;

let built: FrontmatterSchema | undefined;

/** The real schema, built (and `zod` loaded) on the first call. */
function schema(): FrontmatterSchema {
  built ??= buildSchema(loadZod());
  return built;
}

/**
 * The frontmatter schema: `name` and `description` are required non-empty strings; `allowed-tools`
 * and `tools` are a string or a list of strings; `user-invocable` is a boolean (the strings
 * true/false/yes/no/on/off in any case count as one). Every other key passes through untouched.
 *
 * It is a real zod object schema (`instanceof`, `safeParse`, `extend`, `shape` and use inside other
 * schemas all work), built on first use: the object exported stands in for it and forwards every
 * operation, so that importing the package does not load `zod` (about 60 ms) for the many programs
 * that never need it.
 * @example skillFrontmatterSchema.safeParse({ name: "pdf", description: "Read PDFs" }).success // true
 */
export const skillFrontmatterSchema: FrontmatterSchema = new Proxy(Object.create(null) as FrontmatterSchema, {
  get: (_, key) => Reflect.get(schema(), key),
  set: (_, key, value) => Reflect.set(schema(), key, value),
  has: (_, key) => Reflect.has(schema(), key),
  ownKeys: () => Reflect.ownKeys(schema()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(schema(), key);
    // A proxy may not report a property as non-configurable unless its own target has it so.
    return d === undefined ? d : { ...d, configurable: true };
  },
  defineProperty: (_, key, d) => Reflect.defineProperty(schema(), key, d),
  deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
  getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
});

/** The frontmatter type, derived from {@link skillFrontmatterSchema}. */
export type SkillFrontmatter = Zod.infer<FrontmatterSchema>;

/** The fields a catalog entry takes from valid frontmatter. */
export interface ValidFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly allowedTools: readonly string[] | undefined;
  readonly userInvocable: boolean;
  /** `tools` was given in another shape (e.g. MCP tool declarations) and so does not count as allowed tools. */
  readonly toolsIgnored: boolean;
}

/** Validation result: the fields, or one line per problem naming the key. */
export type ValidatedFrontmatter =
  | { readonly ok: true; readonly value: ValidFrontmatter }
  | {
      readonly ok: false;
      readonly message: string;
      readonly key: string;
      /** The `typeof` of the value the key holds ("undefined" when it is missing). */
      readonly received: string;
    };

/**
 * Split an `allowed-tools` string on commas and white space that stand outside parentheses:
 * `"Bash(git add:*) Read"` gives `["Bash(git add:*)", "Read"]`. Empty items are dropped.
 */
export function splitTools(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  // By index and slice, testing char codes: a string and a regexp test a character cost ~1 µs a skill.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x28) depth++;
    else if (c === 0x29) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === 0x2c || isSpace(c))) {
      if (i > start) out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (s.length > start) out.push(s.slice(start));
  return out;
}

/** Whether UTF-16 unit `c` is white space as the regexp `\s` reads it. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function toolsOf(value: string | string[] | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const items =
    typeof value === "string" ? splitTools(value) : value.map((t) => t.trim()).filter((t) => t !== "");
  return Object.freeze(items);
}

/**
 * Freeze `value` and every object below it. Recursive: frontmatter nests at most MAX_DEPTH levels. Each
 * object is frozen before its children are visited, so an object met twice (a `yaml` alias) is walked
 * once. Objects by `for…in`, not `Object.values` and a stack of pending values: the copies and the
 * stack made the walk cost 0.7 µs a synthetic frontmatter, an eighth of its parse. An inherited key
 * (a polluted prototype) is never followed.
 */
function deepFreeze<T extends object>(value: T): T {
  Object.freeze(value);
  // Object.isFrozen is true for null (and every primitive): `typeof` only spares strings the call.
  if (Array.isArray(value)) {
    // By index: a for-of loop's iterator results are allocated in the unoptimized code a scan mostly runs.
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === "object" && !Object.isFrozen(child)) deepFreeze(child as object);
    }
  } else {
    for (const key in value) {
      const child: unknown = value[key];
      if (typeof child === "object" && !Object.isFrozen(child) && Object.hasOwn(value, key))
        deepFreeze(child as object);
    }
  }
  return value;
}

/**
 * Validate parsed frontmatter by the rules of {@link skillFrontmatterSchema} and derive the catalog
 * fields. The rules are checked directly, in the schema's key order, so that discovery never loads
 * `zod` nor pays for a zod parse; a property test holds the two to the same verdicts, failing key and
 * fields. `data` is taken over: when valid it becomes the frozen `metadata`, its `user-invocable` converted.
 */
export function validateFrontmatter(data: Record<string, unknown>): ValidatedFrontmatter {
  // `tools` is only a fallback spelling of `allowed-tools`; other ecosystems use the key for other
  // things (lists of MCP tool objects), which must not make an otherwise good skill invalid.
  const toolsIgnored = data.tools !== undefined && !isToolList(data.tools);
  const tools = toolsIgnored ? undefined : (data.tools as string | string[] | undefined);
  const { name, description } = data;
  const allowed = data["allowed-tools"];
  if (!nonEmpty(name)) return refused("name", name);
  if (!nonEmpty(description)) return refused("description", description);
  if (allowed !== undefined && !isToolList(allowed)) return refused("allowed-tools", allowed);
  const written = data["user-invocable"];
  const invocable = booleanish(written);
  if (invocable === NOT_BOOLEAN) return refused("user-invocable", written);
  return accept(
    data,
    name,
    description,
    (allowed as string | string[] | undefined) ?? tools,
    invocable,
    toolsIgnored,
  );
}

/** What {@link booleanish} gives for a value the schema does not take as a boolean. */
const NOT_BOOLEAN: unique symbol = Symbol("not a boolean");

/** `user-invocable` as the schema reads it: absent, a boolean, or one of its words in any case (trimmed). */
function booleanish(v: unknown): boolean | undefined | typeof NOT_BOOLEAN {
  if (v === undefined || typeof v === "boolean") return v;
  if (typeof v !== "string") return NOT_BOOLEAN;
  // The lookup reads inherited keys too ("constructor"), as the schema's does: such a word is refused.
  const word: unknown = BOOLEAN_WORDS[v.trim().toLowerCase()];
  return typeof word === "boolean" ? word : NOT_BOOLEAN;
}

/** The refusal of `key`, which holds `value`: the message says what the key must be and what it holds. */
function refused(key: keyof typeof EXPECTED, value: unknown): ValidatedFrontmatter {
  const problem =
    value === undefined ? "is missing" : `must be ${EXPECTED[key]}, received ${describe(value)}`;
  return { ok: false, key, received: typeof value, message: `frontmatter "${key}" ${problem}` };
}

/** What `toolList` accepts. */
function isToolList(v: unknown): boolean {
  return typeof v === "string" || (Array.isArray(v) && v.every((t) => typeof t === "string"));
}

const nonEmpty = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

function accept(
  data: Record<string, unknown>,
  name: string,
  description: string,
  tools: string | string[] | undefined,
  userInvocable: boolean | undefined,
  toolsIgnored: boolean,
): ValidatedFrontmatter {
  // The parsed mapping itself, not zod's output, keeps every own key (zod drops "__proto__"); it is the
  // caller's to give away, so it is frozen in place rather than copied (a copy cost ~1 µs a skill).
  const metadata = data;
  if (userInvocable !== undefined) metadata["user-invocable"] = userInvocable;
  return {
    ok: true,
    value: {
      name,
      description,
      metadata: deepFreeze(metadata),
      allowedTools: toolsOf(tools),
      userInvocable: userInvocable ?? true,
      toolsIgnored,
    },
  };
}

// No entry for `tools`: a value of another shape is set aside before the checks (toolsIgnored), so the
// schema never refuses it.
const EXPECTED: Readonly<Record<"name" | "description" | "allowed-tools" | "user-invocable", string>> = {
  name: "a non-empty string",
  description: "a non-empty string",
  "allowed-tools": "a string or a list of strings",
  "user-invocable": "a boolean",
};

/** What a present (never undefined) value is, for a problem message. */
function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") {
    return v === "" ? "an empty string" : v.trim() === "" ? "a string of white space only" : "a string";
  }
  return typeof v === "object" ? "a mapping" : `${typeof v} ${String(v)}`;
}
