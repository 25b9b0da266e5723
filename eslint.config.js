// Lint for the whole tree. Layer order and import cycles are checked by dependency-cruiser
// (.dependency-cruiser.cjs), which also sees type-only imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', 'vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // A closure that reads a binding assigned after it is declared (renderApp's instance).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests and benchmarks poke at internals and at JSON from the wire; `any` there is a
    // convenience, not a hole in the app's types.
    files: ['test/**', 'bench/**'],
    // Tests also match the escape sequences arbor writes and must never pass through.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
  },
);
