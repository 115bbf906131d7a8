// The published package (`npm run test:package`, run by .ci/run): pack, install, import and require the
// tarball on this Node.js, Node.js 22 and 24, Bun 1.4 and Deno 2.9 from the registry. Kept out of `npm test`:
// it needs the network.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/package.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
