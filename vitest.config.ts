import { defineConfig } from 'vitest/config';

export default defineConfig({
  // node_modules/ink is a link to the vendored Ink (vendor/ink, an npm workspace). Kept as a
  // node_modules path it is loaded by Node like every other dependency, so the app and
  // ink-testing-library share one Ink (one stdin context) instead of a transformed second copy.
  resolve: { preserveSymlinks: true },
  test: {
    // Ink reads CI once, at import, and then draws no intermediate frame (only the last, at
    // exit): the UI tests that count frames and the pty tests would test another Ink than a
    // person gets. CI=true comes from the CI runner, not from what is tested.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
    testTimeout: 20000,
    hookTimeout: 20000,
    // pty end-to-end tests spawn real processes; keep parallelism modest on 2-core machines
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['test/ui/**/*.test.ts', 'test/ui/**/*.test.tsx'],
          // The UI files share a worker process instead of a fresh one each: importing Ink,
          // React and the runtime anew for every file was most of their time (77 s, 85 s of it
          // import time summed over both workers; 19 s shared). They restore what they change
          // (the language, real timers, environment variables) and unmount what they mount; a
          // new UI test file must do the same.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/providers/**/*.test.ts'],
          // Unit and provider files share worker processes too, like the UI files: a fresh
          // process per file took about 2.5 times as long. A file restores what it changes
          // (real timers, spies, environment variables, the language). One that did not (a
          // spy on the fake setTimeout, put back by vitest after useRealTimers) left every
          // later timer in its worker dead, and the files after it there timed out: the setup
          // file checks the clock, the working folder, the environment and the language at the
          // start of each file and names the file that ran before it when they changed.
          isolate: false,
          setupFiles: ['test/helpers/sharedWorker.ts'],
        },
      },
      {
        extends: true,
        // Real processes in a pseudo-terminal, the installed package, the MCP conformance
        // suite: each file in a process of its own, as before.
        test: { name: 'processes', include: ['test/e2e/**/*.test.ts', 'test/conformance/**/*.test.ts'] },
      },
    ],
  },
});
