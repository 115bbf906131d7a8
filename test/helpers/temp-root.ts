// Global setup: one folder for the temp folders of a whole run (test/helpers/fixture.ts `tempDir`),
// removed at its end whatever happened, so that a run leaves nothing in the system's temp folder.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The variable through which the run's folder reaches the test workers, which inherit the environment. */
export const TEMP_ROOT_VARIABLE = "AGENT_SKILLS_TEST_TMP";

/** Vitest global setup: make the run's folder; the teardown it returns removes it. */
export default function setup(): () => void {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-skills-run-")));
  // Reachable by all, as the system's temp folder is: the folders inside stay private to their owner,
  // and a test that runs a child as another user opens its own to it (test/faults-privileges.test.ts).
  fs.chmodSync(root, 0o755);
  process.env[TEMP_ROOT_VARIABLE] = root;
  return () => {
    const left = fs.readdirSync(root);
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 2 });
    // Each test file removes its folders when it ends (test/helpers/setup.ts). Under Stryker a failing
    // test stops the run and its other files mid-way, so folders are left there, and removed here.
    if (left.length > 0 && process.env.STRYKER_MUTATOR_WORKER === undefined) {
      // Vitest reports an error thrown here but still exits 0: the exit code is set instead.
      process.stderr.write(
        `\nerror: the test files left ${left.length} temp folders (${left.slice(0, 3).join(", ")}, …)\n`,
      );
      process.exitCode = 1;
    }
  };
}
