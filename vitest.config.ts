import { defineConfig } from 'vitest/config';

// Two projects: fast tests beside the code, and browser tests against a built SPA in e2e/.
export default defineConfig({
  test: {
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{server,common,connectors,app,bench}/**/*.test.{ts,tsx}'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          setupFiles: ['e2e/setup.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
