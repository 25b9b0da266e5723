import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20000,
    hookTimeout: 20000,
    // pty end-to-end tests spawn real processes; keep parallelism modest on 2-core machines
    maxWorkers: 2,
    pool: 'forks',
  },
});
