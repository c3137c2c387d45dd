// The lint rules of `npm test`: type-aware TypeScript (promises are awaited or handled on purpose),
// React hooks' rules and accessibility in the renderer. Formatting is Biome's (biome.json), not ESLint's.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'data/', 'test-results/', 'tmp/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { rules: { 'no-empty': ['error', { allowEmptyCatch: true }] } },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A `let` read by a closure before its one assignment (a signal handler that may run first)
      // cannot be a `const`: that read would throw in the temporal dead zone.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The renderer is its own TypeScript project (DOM, JSX, bundler resolution), with its unit tests.
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './tsconfig.renderer.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['renderer/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['renderer/**/*.tsx'],
    // A label's words may sit in a span inside a span (a choice's name over its address).
    rules: { 'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }] },
  },
  {
    // Migrations are frozen in time: they name tables by string, not through today's schema types
    // (Kysely's own advice is `Kysely<any>` for them).
    files: ['service/store/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read parsed XML and JSON as `any` on purpose: the assertions are the type check.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    // The benchmark's fixture pages run in Chromium, bundled by esbuild.
    files: ['test/bench/scenarios/*-fixture.mjs', 'test/bench/scenarios/*-stub.mjs'],
    languageOptions: { globals: globals.browser },
  },
);
