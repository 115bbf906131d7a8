// The published package: pack it, install the tarball into a fresh project, then import, require and type-check it.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { manifest, writeTree } from "./helpers/fixture.js";

const REPO = path.resolve(import.meta.dirname, "..");
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");

interface Packed {
  filename: string;
  size: number;
  files: { path: string }[];
}

/** What each consumer prints: how it resolved the package and what the package did. */
interface Report {
  resolved: string;
  names: string[];
  warnings: string[];
  code: string | undefined;
  catalog: string;
}

// The two consumers share one body; only the module system and the way to ask for the resolved file differ.
const BODY = `
const skills = createAgentSkills({ roots: [{ path: process.argv[2] ?? "" }] });
const list: readonly SkillInfo[] = skills.listSkills();
const format: CatalogFormat = "markdown";
let code: string | undefined;
try {
  skills.resourcePath("pdf", "../outside");
} catch (e) {
  if (e instanceof SkillError) code = e.code;
}
const report = {
  resolved: RESOLVED,
  names: list.map((s) => s.name),
  warnings: skills.warnings.map((w) => w.code),
  code,
  catalog: renderCatalog(list, { format }).text,
};
console.log(JSON.stringify(report));
`;
const IMPORTS = `import { type CatalogFormat, createAgentSkills, renderCatalog, SkillError, type SkillInfo } from "@clarvis/agent-skills";`;

let project = "";
let packed: Packed;
let tscOutput = "";
/** A Node.js 22 binary: the registry ships each platform's build as an ordinary package. */
let node22 = "";

function run(file: string, args: string[], cwd: string): string {
  return execFileSync(file, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  for (const built of ["dist/index.js", "dist/cjs/index.js", "dist/cjs/package.json"])
    if (!fs.existsSync(path.join(REPO, built)))
      throw new Error(`${built} is missing: run \`npm run build\` first`);
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-skills-consumer-")));
  // --ignore-scripts: `npm test` has just built dist/, and prepack would build it again.
  const out = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], REPO);
  packed = (JSON.parse(out) as Packed[])[0] as Packed;
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  // The runtime dependencies come from npm's cache when it has them, as after `npm ci`.
  const install = [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--no-package-lock",
  ];
  run("npm", [...install, `./${packed.filename}`], project);
  // In its own folder, so the consumer's node_modules holds only what a user's would.
  const runtime = path.join(project, "node22");
  fs.mkdirSync(runtime);
  fs.writeFileSync(path.join(runtime, "package.json"), JSON.stringify({ name: "runtime", private: true }));
  const nodePackage = `node-${process.platform}-${process.arch}`;
  run("npm", [...install, `${nodePackage}@22`], runtime);
  node22 = path.join(runtime, "node_modules", nodePackage, "bin", "node");
  writeTree(
    {
      "consumer.mts": `${IMPORTS}\n${BODY.replace("RESOLVED", 'import.meta.resolve("@clarvis/agent-skills")')}`,
      "consumer.cts": `${IMPORTS}\n${BODY.replace("RESOLVED", 'require.resolve("@clarvis/agent-skills")')}`,
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          // node16, not nodenext: nodenext lets `require` reach ESM types (Node 22's require(esm)), so a
          // CommonJS consumer on Node 20 would not be checked for getting the CommonJS declarations.
          module: "node16",
          target: "es2022",
          strict: true,
          // Checking every library's declarations (zod's alone) takes seconds; the consumers' use of ours is the point.
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [path.join(REPO, "node_modules", "@types")],
        },
        files: ["consumer.mts", "consumer.cts"],
      }),
      // Quoted prose that is not valid YAML: loading it needs the lazily required `yaml` package.
      "skills/pdf/SKILL.md": manifest("name: pdf\ndescription: Use when: the user hands over a PDF"),
    },
    project,
  );
  try {
    tscOutput = run(process.execPath, [TSC, "-p", "tsconfig.json"], project);
  } catch (e) {
    // tsc exits non-zero on any error (under strict, an import it cannot resolve is one) and still emits.
    tscOutput = String((e as { stdout?: unknown }).stdout);
  }
}, 120_000);

afterAll(() => {
  if (project !== "") fs.rmSync(project, { recursive: true, force: true });
});

describe("the tarball", () => {
  test("ships only dist, the README, the LICENSE and the CHANGELOG, without source maps", () => {
    const paths = packed.files.map((f) => f.path);
    const stray = paths.filter(
      (p) => !(p.startsWith("dist/") || ["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(p)),
    );
    expect(stray).toEqual([]);
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    for (const needed of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/package.json",
    ])
      expect(paths).toContain(needed);
  });

  test("stays small: under 100 kB packed", () => {
    expect(packed.size).toBeLessThan(100_000);
  });
});

describe("an installed consumer", () => {
  test("type-checks an ESM and a CommonJS consumer against the shipped declarations", () => {
    expect(tscOutput).toBe("");
    expect(fs.readFileSync(path.join(project, "consumer.cjs"), "utf8")).toContain(
      'require("@clarvis/agent-skills")',
    );
    expect(fs.readFileSync(path.join(project, "consumer.mjs"), "utf8")).toContain(
      'from "@clarvis/agent-skills"',
    );
  });

  test("the second runtime is Node.js 22, beside this Node.js 20 or later", () => {
    expect(run(node22, ["--version"], project)).toMatch(/^v22\./);
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(20);
  });

  test.each([
    ["import", "this Node.js", "consumer.mjs", "dist/index.js"],
    ["require", "this Node.js", "consumer.cjs", "dist/cjs/index.js"],
    ["import", "Node.js 22", "consumer.mjs", "dist/index.js"],
    ["require", "Node.js 22", "consumer.cjs", "dist/cjs/index.js"],
  ])("can %s the package on %s and load, repair, confine and render skills", (_, runtime, file, entry) => {
    const node = runtime === "Node.js 22" ? node22 : process.execPath;
    const report = JSON.parse(run(node, [file, path.join(project, "skills")], project)) as Report;
    expect(report.resolved.endsWith(`node_modules/@clarvis/agent-skills/${entry}`)).toBe(true);
    expect({ ...report, resolved: undefined }).toEqual({
      resolved: undefined,
      names: ["pdf"],
      warnings: ["yaml_repaired"],
      code: "path_escape",
      catalog: `- pdf: Use when: the user hands over a PDF (\`${path.join(project, "skills", "pdf", "SKILL.md")}\`)`,
    });
  });
});
