import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/redis.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most test files wait on Redis, child processes and the browser rather than the CPU: three workers on
    // this project's 2-core CI machines take the full run from about 7 minutes (the default, cores − 1) to 4.
    maxWorkers: 3,
  },
});
