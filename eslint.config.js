import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.test-env/**', 'web/public/sw.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // One owner per outside system: only server/src/docker imports dockerode, only db/ touches SQLite,
    // only compose/ spawns processes, only config.ts reads the environment.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/docker/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'dockerode', message: 'Only server/src/docker may import dockerode.' }] }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '@berth/server'], message: 'web never imports server.' }] }] },
  },
);
