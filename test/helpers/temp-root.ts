// Global setup: one folder for the temp folders of a whole run (test/helpers/fixture.ts `tempDir`),
// removed at its end whatever happened, so that a run leaves nothing in the system's temp folder.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The variable through which the run's folder reaches the test workers, which inherit the environment. */
export const TEMP_ROOT_VARIABLE = "AGENT_SKILLS_TEST_TMP";

const PREFIX = "agent-skills-run-";
const OF_PROCESS = new RegExp(`^${PREFIX}(\\d+)-`);

/** Whether the process `pid` is gone: its run can no longer remove its folder. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Vitest global setup: make the run's folder (named after this process), after removing those of runs
 * whose process is gone without its teardown (Stryker's workers end that way); the teardown it
 * returns removes the folder.
 */
export default function setup(): () => void {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    const pid = Number(OF_PROCESS.exec(name)?.[1]);
    if (pid > 0 && gone(pid)) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
  }
  const root = fs.realpathSync(fs.mkdtempSync(path.join(tmp, `${PREFIX}${process.pid}-`)));
  // Reachable by all, as the system's temp folder is: the folders inside stay private to their owner,
  // and a test that runs a child as another user opens its own to it (test/faults-privileges.test.ts).
  fs.chmodSync(root, 0o755);
  process.env[TEMP_ROOT_VARIABLE] = root;
  return () => {
    const left = fs.readdirSync(root);
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 2 });
    // Each test file removes its folders when it ends (test/helpers/setup.ts). Under Stryker a failing
    // test stops the run and its other files mid-way, so folders are left by design; its workers end
    // without this teardown, and the next run's setup removes their folders.
    if (left.length > 0 && process.env.STRYKER_MUTATOR_WORKER === undefined) {
      // Vitest reports an error thrown here but still exits 0: the exit code is set instead.
      process.stderr.write(
        `\nerror: the test files left ${left.length} temp folders (${left.slice(0, 3).join(", ")}, …)\n`,
      );
      process.exitCode = 1;
    }
  };
}
