import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import firstLoadPtPT from '../../locales/pt-PT.json';
import lazyPtPT from '../../locales/statements.pt-PT.json';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';

const ptPT = { ...firstLoadPtPT, ...lazyPtPT };
const CAMT = '/work/shared/fixtures/banking/samples/synthetic-statement-pt.camt.053.001.02.xml';

/** Keyboard only: Tab (bounded) until the focused control reads `text`. */
async function tabTo(page: Page, text: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.textContent?.trim() === wanted, text)) return;
  }
  throw new Error(`no control reading "${text}" within ${limit} Tab presses`);
}

describe.skipIf(!hasChromium)('bank statements in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  /** `g b` from anywhere, then the file given to the picker (the one thing a keyboard cannot type). */
  const upload = async (path: string) => {
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.getByTestId('statement-file').setInputFiles(path);
  };

  it('previews the synthetic camt.053 in the browser, imports it once, and refuses it the second time', async () => {
    await upload(CAMT);
    const summary = page.getByTestId('statement-summary');
    await expect.poll(() => summary.textContent()).toContain('camt.053');
    expect(await summary.textContent()).toContain('6 linhas');
    expect(await page.getByTestId('statement-balance').textContent()).toContain('consistente');
    await expect.poll(() => page.getByTestId('statement-known').textContent()).toContain('Linhas novas: 6');
    expect(await page.getByTestId('statement-preview').locator('tbody tr').count()).toBe(6);

    const before = await suite.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM statement_files',
    );
    await tabTo(page, ptPT.statements.import.submitNew.replace('{{count}}', '6'));
    // A second Enter while the upload is on its way sends nothing.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('statement-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(ptPT.statements.result.newLines.replace('{{count}}', '6'));
    const after = await suite.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM statement_files',
    );
    expect(after.rows[0]?.n).toBe((before.rows[0]?.n ?? 0) + 1);

    await upload(CAMT);
    const refused = page.getByTestId('statement-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(
      ptPT.statements.refused.alreadyImported.replace(
        '{{file}}',
        'synthetic-statement-pt.camt.053.001.02.xml',
      ),
    );
  });
});
