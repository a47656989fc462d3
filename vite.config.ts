import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // V8's explicit compile hint (Chromium 136+, ignored elsewhere): compile every function of a chunk
      // on a background thread while it streams in, instead of lazily on the main thread at first call —
      // the code a cold first load runs is nearly all of it (docs/decisions/0052).
      output: { postBanner: '//# allFunctionsCalledOnLoad' },
    },
  },
  server: { proxy: { '/v2': apiTarget } },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup-dom.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    restoreMocks: true,
  },
});
