// House rules (DESIGN §2) are enforced here: restricted imports per folder and no import cycles.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'server/db/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      // Only our own modules can form cycles; never parse packages.
      'import/ignore': ['node_modules'],
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['app/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(['**/server/**', '**/connectors/**'], 'app/ never imports server/ or connectors/.'),
    },
  },
  {
    files: ['common/**'],
    rules: restrict(['**/app/**', '**/server/**', '**/connectors/**'], 'common/ imports nothing of ours.'),
  },
  {
    files: ['connectors/**'],
    rules: restrict(['**/app/**', '**/server/**'], 'a connector imports only connectors/sdk and common/.'),
  },
  {
    files: ['bin/**', 'bench/**', 'e2e/**', 'server/cli.ts'],
    rules: { 'no-console': 'off' },
  },
);
