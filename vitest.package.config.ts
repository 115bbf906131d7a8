// The published package (`npm run test:package`, run by .ci/run): pack, install, import and require the
// tarball on this Node.js and on Node.js 22 from the registry. Kept out of `npm test`: it needs the network.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/package.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
