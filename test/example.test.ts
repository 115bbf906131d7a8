// examples/agent-loop.ts, run against the example folders so the README's example cannot rot.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { liveSession, type Message, runAgentLoop, runTool, skillTools } from "../examples/agent-loop.js";
import { clarvisSkillRoots, createAgentSkills } from "../src/index.js";
import { skill, tempDir, writeTree } from "./helpers/fixture.js";

const EXAMPLES = path.resolve(import.meta.dirname, "../examples");
const workspace = path.join(EXAMPLES, "workspace");
const home = path.join(EXAMPLES, "home");

function conversation(): Message[] {
  return runAgentLoop({ workspace, home, request: "Pull the tables out of report.pdf." });
}

describe("runTool refuses what the schema cannot stop", () => {
  test.each([
    [{ tool: "activate_skill", input: { name: "nope" } }, 'error: unknown skill "nope"'],
    [{ tool: "activate_skill", input: {} }, "error: unknown skill undefined"],
    [{ tool: "read_skill_resource", input: { name: "pdf", path: 3 } }, "error: path must be a string"],
    [{ tool: "read_skill_resource", input: { name: "pdf", path: "../../etc/passwd" } }, "error: path_escape"],
    [{ tool: "read_skill_resource", input: { name: "pdf", path: "missing.md" } }, "error: not_found"],
    [{ tool: "read_skill_resource", input: { name: "pdf", path: "/etc/passwd" } }, "error: invalid_input"],
    [{ tool: "delete_skill", input: { name: "pdf" } }, 'error: unknown tool "delete_skill"'],
  ])("%o → %s", (call, expected) => {
    const root = writeTree({ "pdf/SKILL.md": skill("pdf"), "pdf/notes.md": "n" });
    expect(runTool(createAgentSkills({ roots: [{ path: root }] }), ["pdf"], call)).toBe(expected);
  });

  test("a skill without files says so", () => {
    const bare = createAgentSkills({ roots: [{ path: writeTree({ "x/SKILL.md": skill("x", "d", "") }) }] });
    expect(runTool(bare, ["x"], { tool: "activate_skill", input: { name: "x" } })).toBe(
      "Body.\n\nFiles of this skill (read them with read_skill_resource):\n(none)",
    );
  });
});

test("the tools that take a name constrain it to the catalog's names; search_skills takes a query", () => {
  const tools = skillTools(["a", "b"]);
  expect(tools.map((t) => [t.name, t.parameters.properties.name?.enum, t.parameters.required])).toEqual([
    ["activate_skill", ["a", "b"], ["name"]],
    ["read_skill_resource", ["a", "b"], ["name", "path"]],
    ["search_skills", undefined, ["query"]],
  ]);
});

describe("search_skills", () => {
  const root = () =>
    writeTree({
      "pdf/SKILL.md": skill("pdf", "Extract text and tables from PDF files."),
      "slides/SKILL.md": skill("slides", "Build a PowerPoint deck from notes."),
      "hidden/SKILL.md": skill("hidden", "Extract tables from PDF scans, not offered to the model."),
    });

  test("returns the offered skills that fit, best first, with their descriptions", () => {
    const skills = createAgentSkills({ roots: [{ path: root() }] });
    const call = { tool: "search_skills", input: { query: "pull the tables out of a pdf" } };
    expect(runTool(skills, ["pdf", "slides"], call)).toBe("- pdf: Extract text and tables from PDF files.");
  });

  test.each([
    [{ query: "knit a winter scarf" }, "no skill fits this request"],
    [{ query: 7 }, "error: query must be a string"],
  ])("%o → %s", (input, expected) => {
    const skills = createAgentSkills({ roots: [{ path: root() }] });
    expect(runTool(skills, ["pdf", "slides"], { tool: "search_skills", input })).toBe(expected);
  });
});

describe("the scripted loop over the example folders", () => {
  test("the system prompt carries the xml catalog of every skill the preset finds", () => {
    const found = createAgentSkills({
      roots: clarvisSkillRoots({ workspace, home }),
      workspace,
    }).listSkills();
    const system = conversation()[0];
    expect(system?.role).toBe("system");
    const content = system && "content" in system ? system.content : "";
    expect([...content.matchAll(/<name>([^<]+)<\/name>/g)].map((m) => m[1])).toEqual(
      found.map((s) => s.name),
    );
    expect(found.map((s) => s.name)).toEqual(
      expect.arrayContaining(["changelog", "git-commit", "pdf", "review"]),
    );
    expect(content).toContain(
      `<location>${path.join(workspace, ".clarvis", "skills", "pdf", "SKILL.md")}</location>`,
    );
  });

  test("activate, read a file, be refused outside the skill, answer", () => {
    const script = fs.readFileSync(path.join(workspace, ".clarvis/skills/pdf/scripts/extract.py"), "utf8");
    expect(conversation().slice(1)).toEqual([
      { role: "user", content: "Pull the tables out of report.pdf." },
      { role: "call", call: { tool: "activate_skill", input: { name: "pdf" } } },
      {
        role: "tool",
        tool: "activate_skill",
        content:
          "# PDF\n\n1. Run `scripts/extract.py FILE` to get the text.\n2. Summarise the tables it prints.\n\n" +
          "Files of this skill (read them with read_skill_resource):\n- scripts/extract.py",
      },
      {
        role: "call",
        call: { tool: "read_skill_resource", input: { name: "pdf", path: "scripts/extract.py" } },
      },
      { role: "tool", tool: "read_skill_resource", content: script },
      {
        role: "call",
        call: { tool: "read_skill_resource", input: { name: "pdf", path: "../../../.ssh/id_rsa" } },
      },
      { role: "tool", tool: "read_skill_resource", content: "error: path_escape" },
      { role: "assistant", content: "Following the pdf skill: run scripts/extract.py on report.pdf." },
    ]);
  });

  test("a model that never answers is stopped after maxSteps tool calls", () => {
    const messages = runAgentLoop({
      workspace: tempDir(),
      home: tempDir(),
      request: "loop",
      maxSteps: 2,
      model: () => ({ call: { tool: "activate_skill", input: { name: "pdf" } } }),
    });
    expect(messages.filter((m) => m.role === "call")).toHaveLength(2);
    expect(messages.at(-1)).toEqual({ role: "assistant", content: "Stopped after 2 tool calls." });
  });
});

test("a skill installed mid-session is offered from the next request on, without a restart", async () => {
  const live = tempDir();
  const session = await liveSession({
    workspace: live,
    home,
    request: "Pull the tables out of report.pdf.",
    install: () =>
      fs.cpSync(path.join(workspace, ".clarvis/skills/pdf"), path.join(live, ".clarvis/skills/pdf"), {
        recursive: true,
      }),
  });
  expect(session.before.at(-1)).toEqual({ role: "assistant", content: "No skill fits this request." });
  expect(session.added).toEqual(["pdf"]);
  expect(session.after.at(-1)).toEqual({
    role: "assistant",
    content: "Following the pdf skill: run scripts/extract.py on report.pdf.",
  });
});
