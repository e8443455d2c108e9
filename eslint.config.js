import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The browser app reaches the server only over HTTP, never by import.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['@cabinet/server*', '@cabinet/idp*', '**/apps/server/**', '**/apps/idp/**'] }],
    },
  },
  {
    // The identity provider stands on its own: it knows nothing of Cabinet's server.
    files: ['apps/idp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@cabinet/server*', '**/apps/server/**'] }] },
  },
  {
    // No product line over 160 characters: Prettier wraps code at that width; this catches the long strings and comments it leaves alone.
    files: ['apps/**/src/**/*.{ts,tsx,js,mjs}', 'packages/**/src/**/*.{ts,tsx,js,mjs}', 'scripts/**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/server/src/testing/**'],
    rules: { 'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true }] },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
);
