// An agent loop with skills, end to end and offline. Progressive disclosure in three tiers: the catalog
// (names and descriptions) goes into the system prompt; the model activates a skill by name through a
// tool and gets its body and file list; it reads a file of that skill through a second tool, confined to
// the skill's folder. When the store is larger than the prompt's budget, the catalog keeps the skills most
// relevant to the request, and a third tool lets the model search for the others. A scripted stand-in
// plays the model, so nothing here calls a network or a model.
// `liveSession` keeps one instance for a whole session with `watch()`: a skill installed mid-session is
// offered from the next request on, without a restart.
//
// In your own code, import from "@clarvis/agent-skills". This file imports the source so that CI
// type-checks it (and test/example.test.ts runs it) against the current API. To watch it run:
// `npx tsx examples/agent-loop.ts`.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import {
  type AgentSkills,
  clarvisSkillRoots,
  createAgentSkills,
  type RefreshResult,
  renderCatalog,
  SkillError,
} from "../src/index.js";

/** A string parameter of a tool, as JSON Schema. */
export interface StringParameter {
  readonly type: "string";
  readonly description: string;
  /** The only values the model may send. */
  readonly enum?: readonly string[];
}

/** A tool offered to the model, in the JSON Schema shape model APIs take. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, StringParameter>>;
    readonly required: readonly string[];
    readonly additionalProperties: false;
  };
}

/** A tool call as the model emits it: the input is whatever the model wrote, checked by {@link runTool}. */
export interface ToolCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** One message of the conversation. */
export type Message =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string }
  | { readonly role: "call"; readonly call: ToolCall }
  | { readonly role: "tool"; readonly tool: string; readonly content: string };

/** The model's side of the loop: from the conversation and the tools, the next tool call or the answer. */
export type Model = (
  messages: readonly Message[],
  tools: readonly ToolSpec[],
) => { readonly call: ToolCall } | { readonly answer: string };

/** Resource text beyond this is cut: a prompt is no place for a large file. */
const MAX_RESOURCE_CHARS = 16_000;

/**
 * The tools of progressive disclosure: two take a `name` constrained to the skills offered; the third,
 * `search_skills`, finds offered skills the catalog had no room for.
 */
export function skillTools(names: readonly string[]): ToolSpec[] {
  const name: StringParameter = {
    type: "string",
    description: "The skill's name, as in the catalog.",
    enum: names,
  };
  return [
    {
      name: "activate_skill",
      description: "Load a skill's instructions and the list of its files. Call it before following a skill.",
      parameters: { type: "object", properties: { name }, required: ["name"], additionalProperties: false },
    },
    {
      name: "read_skill_resource",
      description: "Read one file of an activated skill, by its path relative to the skill's folder.",
      parameters: {
        type: "object",
        properties: { name, path: { type: "string", description: "e.g. scripts/extract.py" } },
        required: ["name", "path"],
        additionalProperties: false,
      },
    },
    {
      name: "search_skills",
      description:
        "Find skills for a task when none in the catalog fits: returns up to five names with descriptions.",
      parameters: {
        type: "object",
        properties: { query: { type: "string", description: "The task, in your own words." } },
        required: ["query"],
        additionalProperties: false,
      },
    },
  ];
}

/** Up to this many skills come back from search_skills. */
const SEARCH_LIMIT = 5;

/**
 * Run one tool call. A model can send anything, whatever the schema says, so the input is checked
 * here; every failure comes back as text for the model to read, never as an exception.
 */
export function runTool(skills: AgentSkills, names: readonly string[], call: ToolCall): string {
  const { name, path: rel, query } = call.input;
  if (call.tool === "search_skills") {
    if (typeof query !== "string") return "error: query must be a string";
    // Only skills offered to the model may come back: the others are not invocable by it.
    const all = skills.search(query, { limit: Math.max(1, skills.listSkills().length) });
    const found = all.filter((m) => names.includes(m.skill.name));
    const lines = found.slice(0, SEARCH_LIMIT).map((m) => `- ${m.skill.name}: ${m.skill.description}`);
    return lines.length === 0 ? "no skill fits this request" : lines.join("\n");
  }
  if (typeof name !== "string" || !names.includes(name))
    return `error: unknown skill ${JSON.stringify(name)}`;
  if (call.tool === "activate_skill") {
    const content = skills.loadSkill(name);
    if (content === undefined) return `error: skill ${name} is gone`;
    const files = content.resources.map((r) => `- ${r}`).join("\n") || "(none)";
    return `${content.body}\n\nFiles of this skill (read them with read_skill_resource):\n${files}`;
  }
  if (call.tool === "read_skill_resource") {
    if (typeof rel !== "string") return "error: path must be a string";
    try {
      // resourcePath confines `rel` to the skill's folder: `..`, absolute paths and escaping links throw.
      const text = fs.readFileSync(skills.resourcePath(name, rel), "utf8");
      return text.length > MAX_RESOURCE_CHARS ? `${text.slice(0, MAX_RESOURCE_CHARS)}\n[cut]` : text;
    } catch (e) {
      if (e instanceof SkillError) return `error: ${e.code}`;
      throw e;
    }
  }
  return `error: unknown tool ${JSON.stringify(call.tool)}`;
}

/**
 * A scripted stand-in for a model. It reads the catalog from the system prompt, activates the skill
 * whose description mentions PDF, reads the script the body names, tries a path outside the skill
 * (and is refused), then answers.
 */
export const scriptedModel: Model = (messages) => {
  const system = messages.find((m) => m.role === "system");
  const results = messages.filter((m) => m.role === "tool");
  const chosen = /<name>([^<]+)<\/name>\s*<description>[^<]*PDF/.exec(system?.content ?? "")?.[1];
  if (chosen === undefined) return { answer: "No skill fits this request." };
  const script = /scripts\/[\w.-]+/.exec(results[0]?.content ?? "")?.[0] ?? "";
  const steps: ToolCall[] = [
    { tool: "activate_skill", input: { name: chosen } },
    { tool: "read_skill_resource", input: { name: chosen, path: script } },
    { tool: "read_skill_resource", input: { name: chosen, path: "../../../.ssh/id_rsa" } },
  ];
  const next = steps[results.length];
  return next === undefined
    ? { answer: `Following the ${chosen} skill: run ${script} on report.pdf.` }
    : { call: next };
};

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  /** The project folder: its `.agents/skills` and `.clarvis/skills` are searched. */
  readonly workspace: string;
  /** The user's home: its `.agents/skills` and `.clarvis/skills` are searched. */
  readonly home: string;
  /** What the user asks. */
  readonly request: string;
  /** @default scriptedModel */
  readonly model?: Model;
  /** Tool calls allowed before the loop gives up. @default 8 */
  readonly maxSteps?: number;
  /** The instance to serve skills from, e.g. one a watcher keeps current. @default a new one over workspace and home */
  readonly skills?: AgentSkills;
}

/** Run the loop until the model answers; returns the whole conversation. */
export function runAgentLoop(options: AgentLoopOptions): Message[] {
  const { workspace, home, request, model = scriptedModel, maxSteps = 8 } = options;
  const skills =
    options.skills ?? createAgentSkills({ roots: clarvisSkillRoots({ workspace, home }), workspace });
  // Skills that ask not to be invoked by the model stay out of both the catalog and the tool's enum.
  const offered = skills.listSkills().filter((s) => s.metadata["disable-model-invocation"] !== true);
  // With the request as query, a budget too small for every skill keeps the ones that fit it.
  const { text: catalog } = renderCatalog(offered, { format: "xml", budget: 8_000, query: request });
  const names = offered.map((s) => s.name);
  const tools = skillTools(names);
  const messages: Message[] = [
    {
      role: "system",
      content: `You can use skills. When a request matches a skill's description, call activate_skill first.\n${catalog}`,
    },
    { role: "user", content: request },
  ];
  for (let calls = 0; ; calls++) {
    const turn = model(messages, tools);
    if ("answer" in turn) {
      messages.push({ role: "assistant", content: turn.answer });
      return messages;
    }
    if (calls === maxSteps) break;
    messages.push({ role: "call", call: turn.call });
    messages.push({ role: "tool", tool: turn.call.tool, content: runTool(skills, names, turn.call) });
  }
  messages.push({ role: "assistant", content: `Stopped after ${maxSteps} tool calls.` });
  return messages;
}

/** What {@link liveSession} saw: the conversation before the install, the names it added, the one after. */
export interface LiveSession {
  readonly before: Message[];
  readonly added: readonly string[];
  readonly after: Message[];
}

/**
 * One instance for a whole session, kept current by `watch()`: `request` is run, then `install` puts a
 * skill on disk (as `npx skills add` would), and once the watcher reports it the same request is run
 * again on the same instance, which now offers the new skill. `persistent: true` because the session
 * itself is what this process waits for; the watcher is closed when it ends.
 */
export async function liveSession(options: {
  readonly workspace: string;
  readonly home: string;
  readonly request: string;
  readonly install: () => void;
}): Promise<LiveSession> {
  const { workspace, home, request, install } = options;
  const skills = createAgentSkills({ roots: clarvisSkillRoots({ workspace, home }), workspace });
  let changed: (result: RefreshResult) => void = () => {};
  const seen = new Promise<RefreshResult>((resolve) => {
    changed = resolve;
  });
  const watcher = skills.watch({ persistent: true, onChange: (result) => changed(result) });
  try {
    await watcher.ready;
    const before = runAgentLoop({ workspace, home, request, skills });
    install();
    const { added } = await seen;
    return { before, added, after: runAgentLoop({ workspace, home, request, skills }) };
  } finally {
    await watcher.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const conversation = runAgentLoop({
    workspace: path.join(import.meta.dirname, "workspace"),
    home: path.join(import.meta.dirname, "home"),
    request: "Pull the tables out of report.pdf.",
  });
  const show = (messages: readonly Message[]) => {
    for (const m of messages) {
      const text = m.role === "call" ? `${m.call.tool} ${JSON.stringify(m.call.input)}` : m.content;
      process.stdout.write(`--- ${m.role}\n${text}\n`);
    }
  };
  show(conversation);
  // Mid-session: an empty workspace, then the pdf skill installed into its .clarvis/skills (created now).
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-loop-"));
  try {
    const live = await liveSession({
      workspace,
      home: path.join(import.meta.dirname, "home"),
      request: "Pull the tables out of report.pdf.",
      install: () =>
        fs.cpSync(
          path.join(import.meta.dirname, "workspace", ".clarvis", "skills", "pdf"),
          path.join(workspace, ".clarvis", "skills", "pdf"),
          { recursive: true },
        ),
    });
    process.stdout.write(`\n=== live session: before the install\n`);
    show(live.before.slice(-1));
    process.stdout.write(`=== the watcher reported added: ${live.added.join(", ")}\n`);
    show(live.after.slice(1));
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}
