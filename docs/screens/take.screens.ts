// Screenshots of every screen at 1440×900 in both languages, into docs/screens/<locale>/, so a reviewer
// sees the console without running it (issue 14). Run with `npm run screenshots` (vitest with
// vitest.screens.config.ts: it builds the console and starts the product on the demo seed like the
// Chromium suites; the normal test run never includes this file).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { chromiumSuite, signInByKeyboard } from '../../tests/support/browser';
import { FIXED_PATHS, recordPaths } from '../../tests/support/screens';

const OUT = join(import.meta.dirname);

/** `/professionals/verification` → `professionals-verification`; a record's id becomes its kind. */
function fileName(path: string, recordKinds: Map<string, string>): string {
  return recordKinds.get(path) ?? (path === '/' ? 'home' : path.slice(1).replaceAll('/', '-'));
}

describe('screenshots', () => {
  const suite = chromiumSuite();

  it.each(['pt-PT', 'en-GB'] as const)(
    'of every screen in %s',
    async (locale) => {
      const folder = join(OUT, locale);
      mkdirSync(folder, { recursive: true });
      const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name: 'i18n_redirected', value: locale, url: suite.server.url }]);
      const page = await context.newPage();
      try {
        await page.goto(`${suite.server.url}/login`);
        await page.locator('h1').first().waitFor();
        await page.screenshot({ path: join(folder, 'login.png') });
        await signInByKeyboard(page, suite.server);
        const records = await recordPaths(suite.server);
        const kinds = new Map(records.map((path) => [path, `${path.split('/')[1]}-detail`]));
        for (const path of [...FIXED_PATHS, ...records]) {
          await page.goto(`${suite.server.url}${path}`);
          await page.locator('main h1, main h2').first().waitFor();
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: join(folder, `${fileName(path, kinds)}.png`) });
        }
      } finally {
        await context.close();
      }
    },
    300_000,
  );
});
