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
    // Node cuts a timeout over 2^31-1 ms to 1 ms: every configured or server-given wait goes
    // through src/timers/timer.ts, which re-arms in steps. Raw timers are left only where the
    // delay is a small constant of arbor's own (flush throttles, polls, key and UI timers).
    files: ['src/**'],
    ignores: [
      'src/timers/**',
      'src/runtime/replyItem.ts', // TEXT_FLUSH_MS
      'src/runtime/sessionEnd.ts', // a 20 ms poll while shutting down
      'src/runtime/delegation/tasks.ts', // heartbeat, AWAIT_POLL_MS, CANCEL_WAIT_MS
      'src/persistence/sessionLog.ts', // flush throttle
      'src/persistence/traceLog.ts', // flush throttle
      'src/cli/idleCollector.ts', // idle checks of a second or so
      'src/cli/shutdown.ts', // SHUTDOWN_BOUND_MS
      'src/tools/processReaper.ts', // POLL_MS while a group dies
      'src/mcp/connection.ts', // the 200 ms bound on close; its timeouts use timers/timer.ts
      'src/ui/**', // frame throttles, tickers, flashes, key timers
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use startTimer/sleep from src/timers/timer.ts (Node clamps long delays to 1 ms).' },
        { name: 'setInterval', message: 'Use startTimer from src/timers/timer.ts, or justify a constant delay in eslint.config.js.' },
      ],
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
