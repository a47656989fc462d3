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
  requireNode24();
  requireEverySuiteInCi();
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

/** The project runs on Node 24 LTS (the `node` devDependency puts it first on npm scripts' PATH). */
function requireNode24(): void {
  console.log(`Tests run on Node ${process.version}`);
  if (process.versions.node.split('.')[0] !== '24') {
    throw new Error(
      `Node 24.x is required, this is ${process.version}: run the tests through npm (npm test).`,
    );
  }
}

/** In CI nothing may be left out quietly: the PostgreSQL server and Chromium suites must run. */
function requireEverySuiteInCi(): void {
  if (process.env.CI !== 'true') return;
  const missing = [
    process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL (the PostgreSQL server suites)',
    existsSync(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} (the Chromium suites)`,
  ].filter((what) => what !== undefined);
  if (missing.length > 0) throw new Error(`CI=true but missing: ${missing.join(', ')}.`);
}
