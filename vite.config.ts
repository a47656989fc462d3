import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** The code every list screen (customers, professionals, cases) loads: DataTable and its virtualiser. */
const LIST_SCREEN_MODULES =
  /[\\/]src[\\/]components[\\/]DataTable[\\/]DataTable\.tsx$|[\\/]@tanstack[\\/]react-virtual[\\/]/;

/**
 * `<link rel="modulepreload">` in index.html for the list screens' shared chunks: they download and
 * compile while the entry chunk runs, instead of afterwards beside the session check, the list's
 * first page and the screen's own chunk, which Chromium's 6 connections per host over HTTP/1.1 then
 * had to queue (docs/decisions/0052). Screens without a table fetch ~75 kB they do not run.
 */
function preloadListScreenChunks(): Plugin {
  let base = '/';
  return {
    name: 'preload-list-screen-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        return Object.values(ctx.bundle ?? {})
          .filter((file) => file.type === 'chunk' && !file.isEntry)
          .filter(
            (chunk) => chunk.type === 'chunk' && chunk.moduleIds.some((id) => LIST_SCREEN_MODULES.test(id)),
          )
          .map((chunk) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${chunk.fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), preloadListScreenChunks()],
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
    // In CI a failed test runs once more, and .ci/report.mjs prints it as FLAKY with its first failure:
    // a test that fails twice still fails the run (docs/decisions/0137).
    retry: process.env.CI ? 1 : 0,
    // Vitest's default is one file at a time on two cores (CPUs − 1). Most suites wait on PostgreSQL,
    // a server process or Chromium: two at a time ran the whole suite (4,576 tests, 779 s of test time
    // end to end) in 442 s on a 2-core machine (2026-11-27).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
