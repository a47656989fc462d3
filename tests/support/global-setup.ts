import { existsSync } from 'node:fs';
import { build } from 'vite';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The browser suites open the console as built for production, so build it once per run. */
export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.warn(`${CHROMIUM_PATH} is missing: the console is not built and the Chromium suites are skipped.`);
    return;
  }
  await build({ logLevel: 'warn', mode: 'production' });
}
