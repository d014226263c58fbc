// Type-aware lint: the rule that matters most here is no-floating-promises
// (an un-awaited ack() or queue.add() is this project's likeliest bug).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-artifacts/', 'src/sandbox/page/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': 'error',
    },
  },
  {
    // One connection factory (src/redis) builds every Redis connection, so topologies plug in at one place.
    files: ['src/**/*.ts'],
    ignores: ['src/redis/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'ioredis', message: 'Use src/redis (RedisConnections, RedisClient) instead.' }] },
      ],
    },
  },
  {
    // blocks/ is the pure form engine (Slack JSON in and out): nothing of the bot but the relay's vocabulary,
    // no I/O and no runtime Slack or Redis clients. Type-only imports (e.g. @slack/types) are erased.
    files: ['blocks/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['@slack/bolt', '@slack/web-api', '@slack/socket-mode', '@slack/oauth'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'blocks/ builds Slack JSON; the Slack side (src/slack) makes the calls.',
          })),
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!relay/types\\.js$)',
              message: 'blocks/ may import only src/relay/types.js from src/.',
            },
            {
              regex:
                '^(node:)?(fs|net|http|https|http2|child_process|dgram|dns|tls|cluster|worker_threads|readline)(/.*)?$',
              message: 'blocks/ does no I/O.',
            },
            {
              regex: '^(ioredis|bullmq)(/.*)?$',
              message: 'blocks/ keeps no state; Redis is src/redis and src/store.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**', 'bench/**', 'examples/**', 'scripts/**', '*.config.*'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
