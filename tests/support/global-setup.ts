import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

export const CHROMIUM_PATH = '/usr/bin/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The production console built for this run; absent when Chromium is missing. */
    consoleDir: string | undefined;
  }
}

/**
 * The browser suites open the console as built for production. Each run builds into its own
 * folder so that a rebuild (another run, `npm start`) never swaps files under a running browser.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.warn(
      `${CHROMIUM_PATH} is missing: the console is not built and the Chromium suites are skipped.`,
    );
    project.provide('consoleDir', undefined);
    return () => undefined;
  }
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(process.cwd(), '.tmp', 'console-'));
  await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  project.provide('consoleDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
