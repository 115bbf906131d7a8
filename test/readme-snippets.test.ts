// The README's TypeScript examples: every block type-checks against the built package's declarations,
// and the quick start's "same catalog from code" prints the catalog the CLI's table shows.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";
import { EXAMPLE_TABLE, REPO } from "./helpers/cli.js";
import { tempDir } from "./helpers/fixture.js";

const README = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
const DIST = path.join(REPO, "dist", "index.js");

/** Every ```ts block of the README, with the line its code starts on. */
function snippets(): { line: number; code: string }[] {
  const found: { line: number; code: string }[] = [];
  const lines = README.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const end = lines.indexOf("```", i + 1);
    found.push({ line: i + 2, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return found;
}

/**
 * What the fragments take as given, the way the README's prose introduces them: a logger, the
 * caller's roots and request, an instance built earlier, an embedder.
 */
const GIVEN = `
type Lib = typeof import("@clarvis/agent-skills");
declare const logger: { warn(message: string): void };
declare const log: { debug(value: unknown): void; warn(message: string): void };
declare const roots: import("@clarvis/agent-skills").SkillRootInput[];
declare const request: string;
declare const apiKey: string;
declare const skills: import("@clarvis/agent-skills").AgentSkills;
declare const anySkillInfoArray: import("@clarvis/agent-skills").SkillInfo[];
declare const myEmbedder: import("@clarvis/agent-skills").EmbedFunction;
declare function rebuildSystemPrompt(catalog: readonly import("@clarvis/agent-skills").SkillInfo[]): void;
`;

test("the README has its TypeScript examples (the checks below cover each)", () => {
  // Eight blocks today; a block added later is checked too, a block lost is noticed here.
  expect(snippets().length).toBeGreaterThanOrEqual(8);
});

test("every TypeScript block of the README type-checks against the built package, under the repository's strictness", async () => {
  const lib = await import(pathToFileURL(DIST).href);
  const exported = Object.keys(lib);
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "given.d.ts"), GIVEN);
  const files = [path.join(dir, "given.d.ts")];
  for (const { line, code } of snippets()) {
    // A fragment without its own import uses the package's exports by name, as the prose around it does.
    const imports = code.includes('from "@clarvis/agent-skills"')
      ? ""
      : `import { ${exported.filter((name) => new RegExp(`\\b${name}\\b`).test(code)).join(", ")} } from "@clarvis/agent-skills";\n`;
    const file = path.join(dir, `readme-line-${line}.mts`);
    // export {} keeps every block a module (top-level await, its own scope) whatever it imports.
    fs.writeFileSync(file, `${imports}${code}\nexport {};\n`);
    files.push(file);
  }
  const repoOptions = ts.readConfigFile(path.join(REPO, "tsconfig.json"), ts.sys.readFile).config;
  const { options } = ts.convertCompilerOptionsFromJson(
    {
      ...repoOptions.compilerOptions,
      noEmit: true,
      declaration: false,
      sourceMap: false,
      typeRoots: [path.join(REPO, "node_modules", "@types")],
      paths: { "@clarvis/agent-skills": [path.join(REPO, "dist", "index.d.ts")] },
    },
    dir,
  );
  const program = ts.createProgram(files, options);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  expect(problems).toEqual([]);
  // The check reads the blocks: a wrong name in one is an error (the harness is not blind).
  fs.writeFileSync(files[1] as string, 'import { createAgentSkill } from "@clarvis/agent-skills";\n');
  const broken = ts.getPreEmitDiagnostics(ts.createProgram(files, options));
  expect(broken.map((d) => d.code)).toContain(2724);
}, 60_000);

test("the quick start's code prints the catalog of the CLI's table, and the default sink the broken skill's warning", () => {
  const quick = snippets()[0] as { code: string };
  expect(quick.code).toContain(
    'clarvisSkillRoots({ workspace: "examples/workspace", home: "examples/home" })',
  );
  const file = path.join(tempDir(), "quick-start.mjs");
  fs.writeFileSync(
    file,
    quick.code.replace('"@clarvis/agent-skills"', JSON.stringify(pathToFileURL(DIST).href)),
  );
  const result = spawnSync(process.execPath, [file], {
    cwd: REPO,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(result.status).toBe(0);
  // The table's first three columns, one line a skill.
  const rows = EXAMPLE_TABLE.split("\n").slice(1, -2);
  expect(result.stdout).toBe(rows.map((r) => `${r.split(/ +/).slice(0, 3).join(" ")}\n`).join(""));
  expect(result.stdout).toBe(
    "changelog workspace agents\ngit-commit workspace agents\npdf workspace clarvis\nreview user clarvis\n",
  );
  // The library's default sink (SPEC §10: stderr), which names the manifest by its absolute path.
  const broken = path.join(REPO, "examples/workspace/.clarvis/skills/broken/SKILL.md");
  expect(result.stderr).toBe(
    `agent-skills: warning: invalid_skill: ${broken}:4:1: invalid YAML: Missing closing "quote; skipped\n`,
  );
});
