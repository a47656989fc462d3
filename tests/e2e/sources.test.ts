import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeDemoSourceFiles, writeDemoStripeBalancePayouts } from '../../server/seed/source-files';
import {
  chooseFileByKeyboard,
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo,
} from '../support/browser';
import { ptPT } from '../support/messages';

const text = ptPT.sources;

describe.skipIf(!hasChromium)('payouts and invoices in Chromium, keyboard only', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  const kindPicked = () => page.getByTestId('source-kind').inputValue();
  /** Tab (bounded) until the focused control reads `label`. */
  const tabToText = async (label: string) => {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if ((await focused()) === label) return;
    }
    throw new Error(`no control reading "${label}" within 80 Tab presses`);
  };
  /** Tab to the file input, then its chooser opened with Space and the file given to it. */
  const chooseFile = async (name: string, content: string) => {
    await tabTo(page, (el) => el instanceof HTMLInputElement && el.type === 'file');
    await chooseFileByKeyboard(page, { name, mimeType: 'text/plain', buffer: Buffer.from(content) });
  };
  /** The import: Enter twice on its button (the second sends nothing), the result, Close. */
  const importNewRows = async (count: number) => {
    const label = text.import.submitNew[count === 1 ? 'one' : 'other'].replace('{{count}}', String(count));
    await tabToText(label);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('source-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(text.result.newRows.replace('{{count}}', String(count)));
    await expect.poll(focused).toBe(text.import.close);
    await page.keyboard.press('Enter');
  };

  it("imports the demo month's Stripe payout report and its SAF-T file, and lists both files", async () => {
    const { db } = suite.server;
    // The demo's busiest payout month, as the provider's report and the invoicing program's SAF-T.
    const busiest = await db.query<{ month: string }>(
      `SELECT to_char(payout_date, 'YYYY-MM') AS month FROM provider_payouts
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    );
    const month = busiest.rows[0]?.month as string;
    const files = await writeDemoSourceFiles(db, month);
    const stripeRows = files.payouts.reduce((sum, payout) => sum + payout.rows.length, 0);
    expect(stripeRows).toBeGreaterThan(0);

    await page.keyboard.press('g');
    await page.keyboard.press('o');
    await page.getByRole('heading', { name: ptPT.routes.sources, level: 1 }).waitFor();

    // Stripe's report, its kind picked: the payouts, each checked, its rows all new.
    await tabTo(page, (el) => el.getAttribute('data-testid') === 'source-kind');
    await page.keyboard.press('ArrowDown');
    await expect.poll(kindPicked).toBe('STRIPE_PAYOUTS');
    const stripeName = `stripe-payouts-${month}.csv`;
    await chooseFile(stripeName, files.stripeReport);
    const summary = page.getByTestId('source-summary');
    await expect.poll(() => summary.textContent()).toContain(`Stripe · ${stripeRows} linhas`);
    await expect
      .poll(() => page.getByTestId('source-known').textContent())
      .toBe(text.import.known.replace('{{fresh}}', String(stripeRows)).replace('{{known}}', '0'));
    const payouts = page.getByTestId('source-payouts').locator('tbody tr');
    expect(await payouts.count()).toBe(files.payouts.length);
    await importNewRows(stripeRows);

    // The SAF-T file with Stripe still picked: refused as not this kind, the bytes named; letting the
    // bytes decide reads the same file again as SAF-T.
    const saftName = `saft-${month}.xml`;
    await chooseFile(saftName, files.saft);
    const refused = page.getByTestId('source-refused');
    await refused.waitFor();
    expect(await refused.locator('p').first().textContent()).toBe(ptPT.errorMessages.SOURCE_NOT_THIS_KIND);
    expect(await page.getByTestId('source-refusal-facts').textContent()).toContain(
      text.facts.container.replace('{{container}}', 'xml'),
    );
    await tabTo(page, (el) => el.getAttribute('data-testid') === 'source-kind');
    await page.keyboard.press('ArrowUp');
    await expect.poll(kindPicked).toBe('AUTO');
    await page.getByTestId('source-invoices').waitFor();
    expect(await page.getByTestId('source-control-totals').textContent()).toMatch(
      /^Totais de controlo conferidos — documentos: \d+/,
    );
    const documents = await page.getByTestId('source-preview').getAttribute('aria-rowcount');
    const documentCount = Number(documents) - 1;
    expect(documentCount).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('source-known').textContent())
      .toBe(text.import.known.replace('{{fresh}}', String(documentCount)).replace('{{known}}', '0'));
    await importNewRows(documentCount);

    // Both files in the list, newest first, their control totals checked.
    const list = page.getByTestId('source-files');
    await expect.poll(() => list.locator('tbody tr').count()).toBe(2);
    const rows = await list
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-file'), tr.getAttribute('data-kind')]));
    expect(rows).toEqual([
      [saftName, 'SAFT_INVOICES'],
      [stripeName, 'STRIPE_PAYOUTS'],
    ]);
    const saftRow = list.locator(`tr[data-file="${saftName}"]`);
    expect(await saftRow.textContent()).toContain(text.files.checked);

    // Imported again: every row already there, nothing new to send.
    await chooseFile(saftName, files.saft);
    await refused.waitFor();
    expect(await refused.locator('p').first().textContent()).toBe(ptPT.errorMessages.SOURCE_NOTHING_NEW);
    await tabToText(text.import.close);
    await page.keyboard.press('Enter');
    await page.getByTestId('source-refused').waitFor({ state: 'detached' });
  });
  it("imports Stripe's Balance report of payouts after its itemized report, the bytes deciding: each payout checked, the failed one owing no bank credit", async () => {
    const { db } = suite.server;
    // Another month than the test above: its Stripe report is imported here first, by its bytes.
    const second = await db.query<{ month: string }>(
      `SELECT to_char(payout_date, 'YYYY-MM') AS month FROM provider_payouts
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 OFFSET 1`,
    );
    const month = second.rows[0]?.month as string;
    const files = await writeDemoSourceFiles(db, month);
    const stripeRows = files.payouts.reduce((sum, payout) => sum + payout.rows.length, 0);
    // The Balance report's payouts, as Stripe states them, and one that failed.
    const balance = `${writeDemoStripeBalancePayouts(files.payouts)}txn_e2e_failed,eur,STRIPE PAYOUT,${month}-28 00:00:00,0.00,-41.50,-41.50,${month}-28,po_e2eFailed,failed,payout\n`;
    const stated = files.payouts.length + 1;

    await page.keyboard.press('g');
    await page.keyboard.press('o');
    await page.getByRole('heading', { name: ptPT.routes.sources, level: 1 }).waitFor();
    expect(await kindPicked()).toBe('AUTO');
    await chooseFile(`stripe-payouts-${month}.csv`, files.stripeReport);
    const summary = page.getByTestId('source-summary');
    await expect.poll(() => summary.textContent()).toContain(`Stripe · ${stripeRows} linhas`);
    await expect
      .poll(() => page.getByTestId('source-known').textContent())
      .toBe(text.import.known.replace('{{fresh}}', String(stripeRows)).replace('{{known}}', '0'));
    await importNewRows(stripeRows);

    const balanceName = `stripe-balance-${month}.csv`;
    await chooseFile(balanceName, balance);
    await expect
      .poll(() => summary.textContent())
      .toContain(`${text.kindShort.STRIPE_BALANCE_PAYOUTS} · ${stated} linhas`);
    expect(await page.getByTestId('source-withdrawn').textContent()).toBe(
      text.stated.withdrawn.replace('{{count}}', '1'),
    );
    const withdrawn = page.getByTestId('source-preview').locator('tr[data-withdrawn]');
    await expect.poll(() => withdrawn.count()).toBe(1);
    expect(await withdrawn.textContent()).toContain(text.payoutStatus.failed);
    await expect
      .poll(() => page.getByTestId('source-known').textContent())
      .toBe(text.import.known.replace('{{fresh}}', String(stated)).replace('{{known}}', '0'));
    await importNewRows(stated);

    // Each payout's rows agree with what Stripe states: checked; the failed one recorded as such.
    const checked = await db.query<{
      provider_payout_id: string;
      amount_checked: boolean;
      provider_status: string;
    }>(
      `SELECT provider_payout_id, amount_checked, provider_status FROM provider_payouts
        WHERE provider_payout_id = ANY($1::text[]) ORDER BY provider_payout_id`,
      [[...files.payouts.map((p) => p.id), 'po_e2eFailed']],
    );
    expect(checked.rows.filter((row) => row.amount_checked)).toHaveLength(files.payouts.length);
    expect(checked.rows.find((row) => row.provider_payout_id === 'po_e2eFailed')).toMatchObject({
      amount_checked: false,
      provider_status: 'failed',
    });
    const list = page.getByTestId('source-files');
    await expect
      .poll(() => list.locator(`tr[data-file="${balanceName}"]`).getAttribute('data-kind'))
      .toBe('STRIPE_BALANCE_PAYOUTS');
  });
});
