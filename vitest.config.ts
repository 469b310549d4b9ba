import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Unpacks the packaged Chromium once when no other browser is there (test/helpers/browser-setup.ts).
    globalSetup: ['test/helpers/browser-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores on CI: keep files parallel but bounded.
    maxWorkers: 2,
    // Every server a test starts checks its answers against the contract with zod too
    // (server/http/answer-json.ts): a handler's answer that drifts from the contract fails the test.
    env: { SELLER_SERVER_CHECK_ANSWERS: '1' },
  },
});
