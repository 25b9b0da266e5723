import { defineConfig } from 'vitest/config';

export default defineConfig({
  // node_modules/ink is a link to the vendored Ink (vendor/ink, an npm workspace). Kept as a
  // node_modules path it is loaded by Node like every other dependency, so the app and
  // ink-testing-library share one Ink (one stdin context) instead of a transformed second copy.
  resolve: { preserveSymlinks: true },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Ink reads CI once, at import, and then draws no intermediate frame (only the last, at
    // exit): the UI tests that count frames and the pty tests would test another Ink than a
    // person gets. CI=true comes from the CI runner, not from what is tested.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
    testTimeout: 20000,
    hookTimeout: 20000,
    // pty end-to-end tests spawn real processes; keep parallelism modest on 2-core machines
    maxWorkers: 2,
    pool: 'forks',
  },
});
