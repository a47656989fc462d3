import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { ptPT } from '../support/messages';

const CAMT = '/work/shared/fixtures/banking/samples/synthetic-statement-pt.camt.053.001.02.xml';

/** The fixture's three transfers (net cents) by their EndToEndId; the third one is returned (AC04). */
const FIXTURE_TRANSFERS: Record<string, number> = {
  'STL-2026-04-DOC0042': 125_000,
  'STL-2026-04-DOC0107': 321_085,
  'STL-2026-04-DOC0311': 12_050,
};

/** A case price whose net (after the 16 % fee) is `net`. */
function grossFor(net: number): number {
  for (let gross = Math.floor(net / 0.84) - 3; ; gross++)
    if (gross - Math.round(gross * 0.16) === net) return gross;
}

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

  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

  /** The account picker has the focus when a file names no account: the IBAN typed, then Enter. */
  const giveAccount = async (iban: string) => {
    const field = page.getByRole('combobox', { name: ptPT.statements.account.label });
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(iban);
    await page.keyboard.press('Enter');
  };

  /** `g b` from anywhere, then the file given to the picker (the one thing a keyboard cannot type). */
  const upload = async (path: string) => {
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    await page.getByTestId('statement-file').setInputFiles(path);
  };

  it('matches the statement of a SEPA file we generated: three transfers, the file PAID, the AC04 return blocking the doctor; a, u and z on a suggestion', async () => {
    const { db } = suite.server;
    const customer = await db.query<{ id: string }>(
      "SELECT id FROM users WHERE role = 'CUSTOMER' ORDER BY created_at LIMIT 1",
    );
    const doctors: Record<string, string> = {};
    for (const [e2e, net] of Object.entries(FIXTURE_TRANSFERS)) {
      const doctor = await insertDoctor(db);
      doctors[e2e] = doctor.id;
      await insertSettlements(db, customer.rows[0]!.id, doctor.id, [
        { grossCents: grossFor(net), month: '2026-03' },
      ]);
    }
    // The SEPA file of exactly these doctors, through the API the SEPA screen uses.
    const generated = await page.evaluate(async (professionalIds) => {
      // The browser sends the session cookie (HttpOnly, the page cannot read it) and its Origin.
      const headers = { 'Content-Type': 'application/json' };
      const made = await fetch('/v2/admin/settlement/sepa/', {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ referenceMonth: '2026-03', professionalIds }),
      });
      const { file } = (await made.json()) as { file: { id: string } };
      return (await (await fetch(`/v2/admin/settlement/sepa/${file.id}`, { headers })).json()) as {
        id: string;
        msgId: string;
        paymentInfoId: string;
        transfers: { endToEndId: string; professionalId: string; amountCents: number }[];
      };
    }, Object.values(doctors));
    expect(generated.transfers).toHaveLength(3);
    // The bank's statement of that file: the fixture with our file's references.
    let xml = readFileSync(CAMT, 'utf8')
      .replaceAll('PAYOUT-2026-04-0001-B1', generated.paymentInfoId)
      .replaceAll('PAYOUT-2026-04-0001', generated.msgId);
    for (const [e2e, doctorId] of Object.entries(doctors)) {
      const transfer = generated.transfers.find((t) => t.professionalId === doctorId);
      expect(transfer?.amountCents).toBe(FIXTURE_TRANSFERS[e2e]);
      xml = xml.replaceAll(e2e, transfer!.endToEndId);
    }
    const dir = mkdtempSync(join(tmpdir(), 'statement-e2e-'));
    const path = join(dir, 'extrato-sepa.camt.053.xml');
    writeFileSync(path, xml);
    // Preview, in the browser: format, lines, balances, what the server already holds.
    await upload(path);
    const summary = page.getByTestId('statement-summary');
    await expect.poll(() => summary.textContent()).toContain('camt.053');
    expect(await summary.textContent()).toContain('6 linhas');
    expect(await page.getByTestId('statement-balance').textContent()).toContain('consistente');
    await expect.poll(() => page.getByTestId('statement-known').textContent()).toContain('Linhas novas: 6');
    expect(await page.getByTestId('statement-preview').locator('tbody tr').count()).toBe(6);
    const filesBefore = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_files');
    await tabTo(page, ptPT.statements.import.submitNew.other.replace('{{count}}', '6'));
    // A second Enter while the upload is on its way sends nothing.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('statement-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(ptPT.statements.result.newLines.replace('{{count}}', '6'));
    const filesAfter = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_files');
    expect(filesAfter.rows[0]?.n).toBe((filesBefore.rows[0]?.n ?? 0) + 1);

    const sepa = await db.query<{ status: string }>('SELECT status FROM sepa_files WHERE id = $1', [
      generated.id,
    ]);
    expect(sepa.rows[0]?.status).toBe('PAID');
    const returned = doctors['STL-2026-04-DOC0311'] as string;
    const blocks = await db.query<{ reason_code: string }>(
      'SELECT reason_code FROM payout_blocks WHERE professional_id = $1',
      [returned],
    );
    expect(blocks.rows.map((b) => b.reason_code)).toEqual(['AC04']);

    // The lines of this file, as the table shows them.
    const status = (description: string) =>
      page.locator('.statement-lines tbody tr', { hasText: description }).first().getAttribute('data-status');
    await expect.poll(() => page.locator('.statement-lines tbody tr').count()).toBe(6);
    const statuses = await page
      .locator('.statement-lines tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    // Three transfers and the return linked; the bank fee and the unrelated credit left to the admin.
    expect(statuses.filter((s) => s === 'MATCHED')).toHaveLength(4);
    expect(await status('LIQUIDACAO TPA 2026-05-04')).toBe('UNMATCHED');
    expect(await status('1,50')).toBe('UNMATCHED');

    // A later CSV statement: the provider's payout arriving, which the import can only suggest.
    await db.query(
      "INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ('po_e2e_suggestion', 87530, '2026-05-11')",
    );
    const csv = join(dir, 'extrato-maio.csv');
    writeFileSync(
      csv,
      'Data Mov.;Descrição;Montante\r\n12-05-2026;TRF RECEBIDA PRESTADOR PAGAMENTOS;875,30\r\n',
    );
    // Chosen by keyboard this time (Tab to the file input, Space): once the file is read, the focus is on the
    // step the import is at — the mapping's accept — not left on the file input.
    await tabUntil(page, (el) => el.getAttribute('data-testid') === 'statement-file');
    await chooseFileByKeyboard(page, {
      name: 'extrato-maio.csv',
      mimeType: 'text/csv',
      buffer: readFileSync(csv),
    });
    await page.getByRole('heading', { name: ptPT.statements.mapping.title }).waitFor();
    await expect.poll(focusedText).toBe(ptPT.statements.mapping.accept);
    await page.keyboard.press('Enter');
    // The CSV names no account: the camt.053's account, typed (decision 0124).
    await giveAccount('PT50 0035 0001 0001 2345 6780 5');
    await expect.poll(focusedText).toBe(ptPT.statements.import.submitNew.one.replace('{{count}}', '1'));
    await page.keyboard.press('Enter');
    await page.getByTestId('statement-result').waitFor();
    const credit = 'PRESTADOR PAGAMENTOS';
    await expect.poll(() => status(credit)).toBe('SUGGESTED');

    // `?` lists the reconciliation keys the table answers to, from the same table as its handler.
    await page.locator('body').focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: ptPT.shortcuts.title });
    await help.waitFor();
    for (const label of Object.values(ptPT.statements.keys))
      expect(await help.textContent()).toContain(label);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // Keyboard: Tab into the lines table (the import's Close button kept the focus), j to the suggested
    // line, a accepts, u unmatches, z undoes the unmatch.
    await tabUntil(page, (el) => el.closest('.statement-lines') !== null);
    await page.keyboard.press('j');
    await page.keyboard.press('a');
    await expect.poll(() => status(credit)).toBe('MATCHED');
    await page.keyboard.press('u');
    await expect.poll(() => status(credit)).not.toBe('MATCHED');
    await page.keyboard.press('z');
    await expect.poll(() => status(credit)).toBe('MATCHED');

    // z again undoes the accept; x selects the line and Shift+a accepts the selection. The server
    // answers counts only (decision 0108): the row changes because the table reads its page again.
    await page.keyboard.press('z');
    await expect.poll(() => status(credit)).toBe('SUGGESTED');
    await page.keyboard.press('x');
    await page.keyboard.press('Shift+A');
    await expect.poll(() => status(credit)).toBe('MATCHED');
    // Its undo answers a count too; the page is read again.
    await page.keyboard.press('z');
    await expect.poll(() => status(credit)).toBe('SUGGESTED');

    // The same statement again: refused before anything is sent, naming the earlier file.
    await upload(path);
    const refused = page.getByTestId('statement-refused');
    await refused.waitFor();
    expect(await refused.locator('p').textContent()).toBe(
      ptPT.statements.refused.alreadyImported.replace('{{file}}', 'extrato-sepa.camt.053.xml'),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks for the account of a CSV without an account line, refuses a mistyped IBAN, and imports under the one given; the next CSV picks it from the known accounts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'statement-e2e-'));
    const first = join(dir, 'extrato-sem-conta.csv');
    writeFileSync(
      first,
      'Data Mov.;Descrição;Montante\r\n15-05-2026;TRF RECEBIDA E2E SEM CONTA;12,34\r\n16-05-2026;COMISSAO E2E SEM CONTA;-1,20\r\n',
    );
    await upload(first);
    await page.getByRole('heading', { name: ptPT.statements.mapping.title }).waitFor();
    await tabTo(page, ptPT.statements.mapping.accept);
    await page.keyboard.press('Enter');
    // Nothing is asked of the server before the account is given.
    expect(await page.getByTestId('statement-known').textContent()).toBe(ptPT.statements.import.accountFirst);
    expect(await page.getByTestId('statement-statement').textContent()).toContain(
      ptPT.statements.statement.accountMissing,
    );
    // A check digit off: refused here, the field keeps the focus.
    await giveAccount('DE89 3704 0044 0532 0130 01');
    const field = page.getByRole('combobox', { name: ptPT.statements.account.label });
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('DE89 3704 0044 0532 0130 01');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('de89 3704 0044 0532 0130 00');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('statement-statement').textContent())
      .toContain(ptPT.statements.statement.accountGiven.replace('{{iban}}', 'DE89 3704 0044 0532 0130 00'));
    const submit = ptPT.statements.import.submitNew.other.replace('{{count}}', '2');
    await expect.poll(focusedText).toBe(submit);
    await page.keyboard.press('Enter');
    await page.getByTestId('statement-result').waitFor();
    // Filed under that account: the files list and the known accounts say so.
    const row = page.locator('[data-testid="statement-files"] tr[data-file="extrato-sem-conta.csv"]');
    await expect.poll(() => row.textContent()).toContain('DE89 3704 0044 0532 0130 00');
    const accounts = await page.evaluate(async () => {
      // The browser sends the session cookie itself (the page cannot read it).
      const answer = await fetch('/v2/admin/statements/accounts');
      return (await answer.json()) as { items: { accountIban: string }[] };
    });
    expect(accounts.items.map((a) => a.accountIban)).toContain('DE89370400440532013000');

    // The next month's CSV: the account is now a known one, chosen with ↓ and Enter.
    const second = join(dir, 'extrato-sem-conta-junho.csv');
    writeFileSync(second, 'Data Mov.;Descrição;Montante\r\n15-06-2026;TRF RECEBIDA E2E JUNHO;7,00\r\n');
    // Same header: the mapping accepted above is remembered, so the account is the only question.
    await upload(second);
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('DE89');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(focusedText).toBe(ptPT.statements.import.submitNew.one.replace('{{count}}', '1'));
    expect(await page.getByTestId('statement-statement').textContent()).toContain(
      'DE89 3704 0044 0532 0130 00',
    );
    await page.keyboard.press('Enter');
    await page.getByTestId('statement-result').waitFor();
    const june = page.locator('[data-testid="statement-files"] tr[data-file="extrato-sem-conta-junho.csv"]');
    await expect.poll(() => june.textContent()).toContain('DE89 3704 0044 0532 0130 00');
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a statement whose balances do not add up with "import anyway" and its note, then shows the note on the files list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'statement-e2e-'));
    const path = join(dir, 'extrato-diferenca.sta');
    // 1 000,00 − 12,50 + 40,00 = 1 027,50, but the bank states 1 030,00: 2,50 apart.
    writeFileSync(
      path,
      [
        ':20:E2E-MISMATCH-1',
        ':25:PT50000201231234567890154',
        ':28C:42/1',
        ':60F:C260501EUR1000,00',
        ':61:2605040504D12,50NMSCNONREF//E2E-FEE-1',
        ':86:COMISSAO MANUTENCAO CONTA E2E',
        ':61:2605060506C40,00NTRFNONREF//E2E-CR-1',
        ':86:TRF RECEBIDA CLIENTE E2E',
        ':62F:C260531EUR1030,00',
        '',
      ].join('\r\n'),
    );
    await upload(path);
    const balance = page.getByTestId('statement-balance');
    await expect
      .poll(() => balance.textContent())
      .toBe(
        ptPT.statements.balance.inconsistent
          .replace('{{opening}}', '1000,00\u00a0€')
          .replace('{{closing}}', '1030,00\u00a0€')
          .replace('{{difference}}', '2,50\u00a0€'),
      );
    // No error blocks it, and no column-mapping advice for an MT940.
    expect(await page.getByTestId('statement-errors').count()).toBe(0);
    await tabTo(page, ptPT.statements.import.importAnyway);
    // Esc closes the note dialog and gives the focus back.
    await page.keyboard.press('Enter');
    const note = page.getByTestId('statement-mismatch-note');
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await note.waitFor({ state: 'detached' });
    expect(await focusedText()).toBe(ptPT.statements.import.importAnyway);
    // Again, with the note: typed, then the dialog's own button.
    await page.keyboard.press('Enter');
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    const why = 'O banco corrigiu o saldo final no extrato seguinte (e2e)';
    await page.keyboard.type(why);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe(ptPT.statements.mismatch.import);
    await page.keyboard.press('Enter');
    const result = page.getByTestId('statement-result');
    await result.waitFor();
    await expect
      .poll(() => result.locator('button').evaluate((el) => el === document.activeElement))
      .toBe(true);
    const row = page.locator('[data-testid="statement-files"] tr[data-file="extrato-diferenca.sta"]');
    await expect
      .poll(() => row.getByTestId('statement-mismatch-note').textContent())
      .toBe(ptPT.statements.files.mismatchNote.replace('{{note}}', why));
    rmSync(dir, { recursive: true, force: true });
  });
});
