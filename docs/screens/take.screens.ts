// Screenshots of every screen at 1440×900 in both languages, into docs/screens/<locale>/, so a reviewer
// sees the console without running it (issue 14). Run with `npm run screenshots` (vitest with
// vitest.screens.config.ts: it builds the console and starts the product on the demo seed like the
// Chromium suites; the normal test run never includes this file).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { chromiumSuite, signInByKeyboard } from '../../tests/support/browser';
import { FIXED_PATHS, recordPaths } from '../../tests/support/screens';
import type { TestServer } from '../../tests/support/server';

const OUT = join(import.meta.dirname);

/** `/professionals/verification` → `professionals-verification`; a record's id becomes its kind. */
function fileName(path: string, recordKinds: Map<string, string>): string {
  return recordKinds.get(path) ?? (path === '/' ? 'home' : path.slice(1).replaceAll('/', '-'));
}

/** A synthetic camt.053 of the shared fixtures: the statement upload's preview is shot with it. */
const CAMT = '/work/shared/fixtures/banking/samples/synthetic-statement-pt.camt.053.001.02.xml';

/**
 * The money screens in the states an operator meets them (issue 29), beyond each route's first view:
 * every tab, a doctor's month, a paid file and a returned one, the lines to reconcile with one active.
 */
async function moneyPaths(server: TestServer): Promise<[name: string, path: string, showFirst?: string][]> {
  const row = async <R>(sql: string) => (await server.db.query<R & Record<string, unknown>>(sql)).rows[0]!;
  const month = await row<{ professional_id: string; reference_month: string }>(
    `SELECT professional_id, reference_month FROM settlements WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE')
      ORDER BY reference_month DESC, professional_id LIMIT 1`,
  );
  const file = (status: string) =>
    row<{ id: string }>(
      `SELECT id FROM sepa_files WHERE status = '${status}' ORDER BY created_at DESC LIMIT 1`,
    );
  return [
    ['settlement-manage', '/settlement?tab=manage'],
    ['settlement-reports', '/settlement?tab=reports'],
    [
      'settlement-doctor-month',
      `/settlement?tab=process&doctor=${month.professional_id}&month=${month.reference_month}`,
    ],
    ['sepa-history', '/sepa?tab=history'],
    ['sepa-blocked', '/sepa?tab=blocked'],
    ['sepa-detail-paid', `/sepa/${(await file('PAID')).id}`],
    ['sepa-detail-returned', `/sepa/${(await file('UNAVAILABLE')).id}`],
    ['statements-unmatched', '/statements?status=UNMATCHED', LINES],
    ['statements-returns', '/statements?kind=return', LINES],
  ];
}

/** The statement lines' toolbar: below the files list, so the lines' shots scroll it to the top. */
const LINES = 'statement-lines-total';

/** Waits for the screen's heading and its reads, brings `showFirst` (a test id) to the top, shoots. */
async function shoot(page: Page, path: string, showFirst?: string) {
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
  if (showFirst) await page.getByTestId(showFirst).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path });
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
          await shoot(page, join(folder, `${fileName(path, kinds)}.png`));
        }
        for (const [name, path, showFirst] of await moneyPaths(suite.server)) {
          await page.goto(`${suite.server.url}${path}`);
          await shoot(page, join(folder, `${name}.png`), showFirst);
        }
        // Reconciliation: the suggested lines, the first one active with its candidates.
        await page.goto(`${suite.server.url}/statements?status=SUGGESTED`);
        await page.locator('tr[data-status="SUGGESTED"]').first().waitFor();
        await page.keyboard.press('j');
        await shoot(page, join(folder, 'statements-reconcile.png'), LINES);
        // A statement file read in the browser, before it is imported: its statements, lines and balances.
        await page.goto(`${suite.server.url}/statements`);
        await page.getByTestId('statement-file').setInputFiles(CAMT);
        await page.getByTestId('statement-summary').waitFor();
        await page.getByTestId('statement-preview').locator('tbody tr').first().waitFor();
        await shoot(page, join(folder, 'statements-preview.png'));
      } finally {
        await context.close();
      }
    },
    300_000,
  );
});
