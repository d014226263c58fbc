import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/redis.ts', 'test/setup/compile.ts'],
    // 40 s: above the system harness's 30 s wait for a first card (test/system/harness.ts), so a slow spawn
    // under CI's load fails with the wait's own message rather than a bare timeout.
    testTimeout: 40_000,
    hookTimeout: 20_000,
    // Most test files wait on Redis, child processes and the browser rather than the CPU: three workers on
    // this project's 2-core CI machines take the full run from about 7 minutes (the default, cores − 1) to 4.
    maxWorkers: 3,
  },
});
