import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'blocks/**/*.test.ts'],
    globalSetup: ['test/setup/redis.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
