import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 600 },
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
