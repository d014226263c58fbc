import { configDefaults, defineConfig } from 'vitest/config';
import { SlowTiersFirst } from './test/setup/sequencer.js';

/** test/node22 drives @modelcontextprotocol/conformance 0.2.0-alpha.12, whose CLI needs Node 22 or newer. */
const nodeMajor = Number(process.versions.node.split('.')[0]);
// `npm test` on Node 20 leaves test/node22 to `npm run test:node22`, which runs it on the registry's node@22.
const exclude = nodeMajor >= 22 ? configDefaults.exclude : [...configDefaults.exclude, 'test/node22/**'];

/**
 * Files that assert the process holds no socket or timer of theirs once they close (test/support/handles.ts):
 * they read the whole process's handles, so each runs in a process of its own, where no other file's can be.
 */
const OWN_PROCESS = [
  'test/store/close.test.ts',
  'test/store/orphan-sweep.test.ts',
  'test/slack/outbox-queue.test.ts',
];

export default defineConfig({
  test: {
    // include and exclude are each project's own: a project that extends this config appends to its arrays.
    globalSetup: ['test/setup/redis.ts', 'test/setup/compile.ts'],
    // 40 s: above the system harness's 30 s wait for a first card (test/system/harness.ts), so a slow spawn
    // under CI's load fails with the wait's own message rather than a bare timeout.
    testTimeout: 40_000,
    hookTimeout: 20_000,
    // Most test files wait on Redis, child processes and the browser rather than the CPU: three workers on
    // this project's 2-core CI machines take the full run from about 7 minutes (the default, cores − 1) to 4.
    maxWorkers: 3,
    // A fresh clone has no record of which files are slow: start the slow tiers first (test/setup/sequencer.ts).
    sequence: { sequencer: SlowTiersFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...exclude, ...OWN_PROCESS],
          // A worker runs its test files one after another in one module graph instead of a fresh one per file:
          // the suite's import time (SDKs, Bolt, ajv, BullMQ loaded again for each of 430 files) fell from ~610 s
          // to ~30 s summed over workers. Tests take their collaborators as arguments (no module patching), spies
          // are on instances and restored, and no test file leaves module state another reads.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
