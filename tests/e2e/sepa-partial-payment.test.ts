import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/features/finance/format';
import { camt053 } from '../api/sepa-statement-support';
import { insertDoctor, insertSettlements } from '../api/sepa-support';
import {
  chooseFileByKeyboard,
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo as tabUntil,
} from '../support/browser';
import { enGB, ptPT } from '../support/messages';
import { statusReportFor } from '../support/status-report';

// Issue 27: the bank rejects one transfer of a file (pain.002), then its statement debits the accepted
// total once; the file's page shows it PAID, the rejected transfer with its reason, the report and the
// statement line — keyboard only, in both languages.

/** Keyboard only: Tab (bounded) until the focused control reads `text` (or is labelled so). */
async function tabTo(page: Page, text: string, limit = 150): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return [el?.textContent?.trim(), el?.getAttribute('aria-label')];
    });
    if (focused.includes(text)) return;
  }
  throw new Error(`no control reading "${text}" within ${limit} Tab presses`);
}

interface Generated {
  id: string;
  msgId: string;
  paymentInfoId: string;
  executionDate: string;
  transfers: { endToEndId: string; amountCents: number }[];
}

describe.skipIf(!hasChromium)('a partially rejected SEPA file paid by its statement, in Chromium', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;
  let dir: string;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    page = opened.page;
    dir = mkdtempSync(join(tmpdir(), 'sepa-partial-e2e-'));
    await signInByKeyboard(page, suite.server);
  });
  afterEach(async () => {
    await closeTestPage(opened);
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the file PAID, the rejected transfer with its reason, the report and the line that paid it', async () => {
    const { db, url } = suite.server;
    const customer = await db.query<{ id: string }>(
      "SELECT id FROM users WHERE role = 'CUSTOMER' ORDER BY created_at LIMIT 1",
    );
    const doctorIds: string[] = [];
    for (const gross of [7000, 8000, 9000]) {
      const doctor = await insertDoctor(db);
      doctorIds.push(doctor.id);
      await insertSettlements(db, customer.rows[0]!.id, doctor.id, [{ grossCents: gross, month: '2026-02' }]);
    }
    // The file of exactly these doctors, through the API the SEPA screen calls.
    const file = await page.evaluate(async (professionalIds) => {
      const token = decodeURIComponent(document.cookie.match(/authorization=([^;]+)/)?.[1] ?? '');
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const made = await fetch('/v2/admin/settlement/sepa/', {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ referenceMonth: '2026-02', professionalIds }),
      });
      const { file } = (await made.json()) as { file: { id: string } };
      return (await (await fetch(`/v2/admin/settlement/sepa/${file.id}`, { headers })).json()) as Generated;
    }, doctorIds);
    expect(file.transfers).toHaveLength(3);
    const [rejected, ...accepted] = file.transfers as [
      Generated['transfers'][number],
      ...Generated['transfers'],
    ];

    // The bank's answer, uploaded on "SEPA history" by keyboard: one transfer rejected (AC04).
    await page.goto(`${url}/sepa?tab=history`);
    const form = page.getByRole('form', { name: ptPT.sepa.report.title });
    await form.getByText(ptPT.files.choose, { exact: true }).waitFor();
    await tabUntil(page, (el) => el instanceof HTMLInputElement && el.type === 'file');
    await chooseFileByKeyboard(page, {
      name: 'pain002.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(
        statusReportFor(file, [{ endToEndId: rejected.endToEndId, rejectedFor: 'AC04' }, ...accepted]),
      ),
    });
    await tabTo(page, ptPT.sepa.report.upload);
    await page.keyboard.press('Enter');
    await page.getByTestId(`rejected-${rejected.endToEndId}`).waitFor();

    // The statement: one debit of the accepted total for the PmtInfId.
    const acceptedCents = accepted.reduce((sum, t) => sum + t.amountCents, 0);
    const statement = join(dir, 'extrato-lote.camt.053.xml');
    writeFileSync(
      statement,
      camt053([{ cents: -acceptedCents, date: file.executionDate, paymentInfoId: file.paymentInfoId }]),
    );
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.getByTestId('statement-file').setInputFiles(statement);
    await expect.poll(() => page.getByTestId('statement-known').textContent()).toContain('Linhas novas: 1');
    await tabTo(page, ptPT.statements.import.submitNew.one.replace('{{count}}', '1'));
    await page.keyboard.press('Enter');
    await page.getByTestId('statement-result').waitFor();

    const expectFilePage = async (text: typeof ptPT, locale: string) => {
      await page.goto(`${url}/sepa/${file.id}`);
      await page.getByTestId('sepa-file-status').getByText(text.sepa.status.PAID).waitFor();
      await page
        .getByTestId(`transfer-${rejected.endToEndId}`)
        .getByText(`${text.sepa.transfer.rejected}: AC04 — ${text.bankReasons.AC04}`)
        .waitFor();
      const reports = page.getByTestId('sepa-file-reports');
      await reports.getByText(text.sepa.file.outcomes.PARTIAL).waitFor();
      const lines = page.getByTestId('sepa-file-lines');
      await lines.getByText(formatMoney(-acceptedCents, locale)).waitFor();
      await lines.getByText(`${text.sepa.file.roles.PAYMENT}: ${text.sepa.file.wholeFile}`).waitFor();
    };
    await expectFilePage(ptPT, 'pt-PT');
    // The line's statement, reached by keyboard from the file's page.
    await tabTo(page, ptPT.sepa.file.openStatement.replace('{{file}}', 'extrato-lote.camt.053.xml'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/statements\?statementFileId=/);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('English');
    await page.keyboard.press('Enter');
    await expectFilePage(enGB, 'en-GB');
  }, 120_000);
});
