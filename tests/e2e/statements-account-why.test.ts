import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { camt053 } from '../api/sepa-statement-support';
import { insertDoctor, insertSettlements } from '../api/sepa-support';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { ptPT } from '../support/messages';
import { filterLinesByText } from './statement-lines';
import { importFromPage } from './statement-upload';

const ACCOUNT = 'PT50003506510000088888888';

/**
 * Decision 0177 in the table: Joaquim Quintela pays a 41 € invoice in his full name and a 23 € one as
 * "J QUINTELA" from the same account; Joana Quintela has a 23 € invoice of the same day. The "J QUINTELA"
 * line is suggested Joaquim's invoice at 95, and its row says the account is why.
 */
describe.skipIf(!hasChromium)('the payer’s account in a suggestion’s why, in Chromium', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  it('lists the line printed alike with its account’s customer at 95 and says why, keyboard only', async () => {
    const { db } = suite.server;
    const doctor = await insertDoctor(db);
    /** A customer of this name with a sales document of `cents` for each amount, dated Monday 11 May. */
    const customerWith = async (fullName: string, amounts: number[]) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO users (role, email, password_hash, name, full_name)
         VALUES ('CUSTOMER', $1, 'x', $2, $2) RETURNING id`,
        [`${fullName.replace(' ', '.').toLowerCase()}@demo.pt`, fullName],
      );
      const settlements = await insertSettlements(
        db,
        rows[0]!.id,
        doctor.id,
        amounts.map((grossCents) => ({ grossCents })),
      );
      for (const [k, settlementId] of settlements.entries())
        await db.query(
          `INSERT INTO provider_invoices (provider_invoice_id, invoice_no, document_type, amount_cents, invoice_date, settlement_id)
           VALUES ($1, $1, 'FT', $2, '2026-05-11', $3)`,
          [`FT ${fullName} ${k}`, amounts[k], settlementId],
        );
    };
    await customerWith('Joaquim Quintela', [4_100, 2_300]);
    await customerWith('Joana Quintela', [2_300]);
    const xml = camt053([
      { cents: 4_100, date: '2026-05-12', text: 'TRF SEPA JOAQUIM QUINTELA', counterpartyIban: ACCOUNT },
      { cents: 2_300, date: '2026-05-12', text: 'TRF SEPA J QUINTELA', counterpartyIban: ACCOUNT },
    ]);
    await importFromPage(page, 'extrato-conta.xml', xml);

    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.locator('.statement-lines .data-table-body-row').first().waitFor();
    await filterLinesByText(page, 'J QUINTELA');
    const rows = page.locator('.statement-lines .data-table-body-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getByTestId('suggestion').textContent()).toContain(
      ptPT.statements.lines.score.replace('{{score}}', '95'),
    );
    expect(await rows.first().getByTestId('suggestion-why').textContent()).toContain(
      ptPT.statements.dialog.sameAccount.trim(),
    );
  });
});
