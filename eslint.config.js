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
    files: ['test/**', 'bench/**', 'examples/**', 'scripts/**', '*.config.*'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
