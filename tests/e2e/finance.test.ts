import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { formatMoney } from '../../src/features/finance/format';
import {
  chooseFileByKeyboard,
  closeTestPage,
  hasChromium,
  launchBrowser,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo as tabUntil,
} from '../support/browser';
import { enGB, ptPT } from '../support/messages';
import { startTestServer, type TestServer } from '../support/server';
import { statusReportFor } from '../support/status-report';

const XSD = '/work/shared/fixtures/banking/xsd/pain.001.001.03.xsd';

interface DoctorMonth {
  professional_id: string;
  reference_month: string;
  n: number;
}

/** Keyboard only: Tab (bounded) until the focused control reads `text`. */
async function tabTo(page: Page, text: string, limit = 150): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.textContent?.trim() === wanted, text)) return;
  }
  throw new Error(`no control reading "${text}" within ${limit} Tab presses`);
}

const TO_SETTLE = `s.status IN ('READY_TO_SETTLE', 'AVAILABLE')`;
const COMPLETE = `u.full_name IS NOT NULL AND u.tax_number IS NOT NULL AND u.iban IS NOT NULL AND u.college_number IS NOT NULL`;

describe.skipIf(!hasChromium)('settling doctors and paying them by SEPA in Chromium, keyboard only', () => {
  let server: TestServer;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;

  const doctorMonth = async (where: string): Promise<DoctorMonth> => {
    const { rows } = await server.db.query<DoctorMonth>(
      `SELECT s.professional_id, s.reference_month, count(*)::int AS n
         FROM settlements s JOIN users u ON u.id = s.professional_id
        WHERE ${where}
        GROUP BY 1, 2 ORDER BY 3, 1, 2 LIMIT 1`,
    );
    if (!rows[0]) throw new Error(`the seed has no doctor's month where ${where}`);
    return rows[0];
  };

  const filesOf = async (month: string) =>
    (
      await server.db.query<{ id: string }>(`SELECT id FROM sepa_files WHERE reference_month = $1`, [month])
    ).rows.map((r) => r.id);
  /** Keyboard only: "All" → dry run → Enter (twice: one file however many Enters); answers the new file's id. */
  const generate = async (month: string): Promise<string> => {
    const known = await filesOf(month);
    await page.goto(`${server.url}/sepa?tab=process&month=${month}`);
    await page.getByTestId('sepa-totals').waitFor();
    await tabTo(page, ptPT.sepa.process.all);
    await page.keyboard.press('Enter');
    await page.getByTestId('sepa-dry-run-summary').waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.getByTestId('sepa-generated').waitFor();
    const created = (await filesOf(month)).filter((id) => !known.includes(id));
    expect(created).toHaveLength(1);
    return created[0] as string;
  };
  /** Keyboard only, on the file's page: handed to the bank through the confirmation. */
  const markAvailable = async (fileId: string) => {
    await page.goto(`${server.url}/sepa/${fileId}`);
    await tabTo(page, ptPT.sepa.file.markAvailable);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('sepa-file-status').getByText(ptPT.sepa.status.AVAILABLE).waitFor();
  };

  /** Keyboard only: a doctor's month, every case included, confirmed with Enter. */
  const settle = async (doctor: DoctorMonth) => {
    await page.goto(
      `${server.url}/settlement?tab=process&doctor=${doctor.professional_id}&month=${doctor.reference_month}`,
    );
    await page.getByTestId('settle-summary').waitFor();
    await page.keyboard.press('c');
    const dialog = page.getByRole('alertdialog');
    await dialog
      .getByTestId('settle-confirm-message')
      .getByText(new RegExp(`^${doctor.n} `))
      .waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
  };
  /** Keyboard only, on "SEPA history": the file input (Space opens the chooser), then the upload button. */
  const uploadReport = async (xml: string, text: typeof ptPT) => {
    await page.goto(`${server.url}/sepa?tab=history`);
    const form = page.getByRole('form', { name: text.sepa.report.title });
    // The file control speaks the console's language, not the browser's ("Choose File").
    await form.getByText(text.files.choose, { exact: true }).waitFor();
    await form.getByTestId('file-picker-name').getByText(text.files.none, { exact: true }).waitFor();
    await tabUntil(page, (el) => el instanceof HTMLInputElement && el.type === 'file');
    await chooseFileByKeyboard(page, {
      name: 'pain002.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(xml),
    });
    await form.getByTestId('file-picker-name').getByText('pain002.xml', { exact: true }).waitFor();
    await tabTo(page, text.sepa.report.upload);
    await page.keyboard.press('Enter');
  };
  const toEnglish = async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('English');
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    opened = await openTestPage(browser, { acceptDownloads: true }, { consoleErrors: true });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterEach(() => closeTestPage(opened));

  it("says 'Select one Doctor ID' before a doctor is chosen, and why a doctor with missing data cannot be settled", async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.waitForURL(`${server.url}/settlement`);
    await page.getByRole('table', { name: ptPT.finance.tabs.process }).getByRole('row').nth(1).waitFor();
    await page.keyboard.press('c');
    await page.getByRole('alert').getByText(ptPT.finance.process.selectDoctor).waitFor();

    const missing = await doctorMonth(`${TO_SETTLE} AND u.iban IS NULL`);
    await page.goto(
      `${server.url}/settlement?tab=process&doctor=${missing.professional_id}&month=${missing.reference_month}`,
    );
    const alert = page.getByTestId('missing-information');
    await alert.getByText(ptPT.errorMessages.PROFESSIONAL_MISSING_DATA).waitFor();
    await alert.getByText(ptPT.finance.missingFields.iban).waitFor();
    await alert.getByRole('link', { name: ptPT.finance.process.openDoctor }).waitFor();
    // `c` cannot confirm anything here: no dialog, nothing settled.
    await page.keyboard.press('c');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM settlements
        WHERE professional_id = $1 AND reference_month = $2 AND status = 'SETTLED'`,
      [missing.professional_id, missing.reference_month],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('pages "Cases to process" as the keyboard goes down: more doctors load, the totals are of every doctor, Enter opens one beyond the first page', async () => {
    const { rows: groups } = await server.db.query<{ professional_id: string; reference_month: string }>(
      `SELECT s.professional_id, s.reference_month FROM settlements s JOIN users u ON u.id = s.professional_id
        WHERE ${TO_SETTLE} GROUP BY 1, 2, u.name ORDER BY 2 DESC, u.name, 1`,
    );
    const { rows: sums } = await server.db.query<{ settlements: number; payable: number }>(
      `SELECT count(*)::int AS settlements, sum(coalesce(adjusted_cents, net_cents))::int AS payable
         FROM settlements s WHERE ${TO_SETTLE}`,
    );
    // Pages small enough that the seed's doctor-months span at least five, whatever the seed's clock and the
    // earlier tests left to settle: the console's own requests, answered by the real API, with a smaller limit.
    expect(groups.length).toBeGreaterThanOrEqual(5);
    const PAGE = Math.floor((groups.length - 1) / 4);
    const requested: string[] = [];
    await page.route('**/v2/admin/settlement/professional?*', async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.has('professionalId')) return route.continue();
      url.searchParams.set('limit', String(PAGE));
      requested.push(url.search);
      await route.continue({ url: url.toString() });
    });
    const target = PAGE * 3 + 1; // on the fourth page
    expect(groups.length).toBeGreaterThan(target);

    await page.goto(`${server.url}/settlement`);
    const table = page.getByRole('table', { name: ptPT.finance.tabs.process });
    await table.getByRole('row').nth(1).waitFor();
    await page
      .getByTestId('settlement-process-total')
      .getByText(
        (groups.length === 1 ? ptPT.table.total.one : ptPT.table.total.other).replace(
          '{{count}}',
          String(groups.length),
        ),
      )
      .waitFor();
    const totals = await page.getByTestId('settlement-process-totals').textContent();
    expect(totals).toContain(`${sums[0]!.settlements} liquidações`);
    expect(totals).toContain(formatMoney(sums[0]!.payable, 'pt-PT'));

    // One row at a time, as an operator sees it move: at the end of what is loaded, `j` asks for the
    // next page and the row follows once it is there (a key pressed before then is not queued).
    for (let i = 0; i <= target; i++) {
      const next = page.locator(`tr[data-active][aria-rowindex="${i + 2}"]`);
      await page.keyboard.press('j');
      const moved = await next.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      // Pressed on the last loaded row: nothing to move to until the next page is in; press again.
      if (!moved) {
        await page.keyboard.press('j');
        await next.waitFor();
      }
    }
    expect(await page.locator('tr[data-active]').getAttribute('aria-rowindex')).toBe(String(target + 2));
    // The first request has no cursor; every later one continues from the page before.
    expect(requested.length).toBeGreaterThan(target / PAGE);
    expect(requested.map((search) => search.includes('cursor='))).toEqual(
      requested.map((_, index) => index > 0),
    );
    await page.keyboard.press('Enter');
    const wanted = groups[target]!;
    await page.waitForURL(
      `${server.url}/settlement?tab=process&doctor=${wanted.professional_id}&month=${wanted.reference_month}`,
    );
    // Its review: the cases to settle, or what the doctor lacks.
    await page
      .locator('[data-testid="settle-summary"], [data-testid="missing-information"]')
      .first()
      .waitFor();
  }, 60_000);

  it('pages "SEPA to process" as the keyboard goes down: the totals are of the whole month, x selects a doctor beyond the first page and the dry run asks for that doctor only', async () => {
    // A month of its own with seven of the seed's doctors waiting (the seed leaves two at most in a month),
    // removed at the end so the other tests find the seed's months as they were.
    const month = '2024-02';
    const { rows: made } = await server.db.query<{ id: string; case_id: string }>(
      `WITH d AS (SELECT u.id FROM users u WHERE u.role = 'PROFESSIONAL' AND ${COMPLETE} ORDER BY u.id LIMIT 7),
            cust AS (SELECT id FROM users WHERE role = 'CUSTOMER' ORDER BY id LIMIT 1),
            c AS (INSERT INTO cases (customer_id, professional_id, status, type, price_cents, closed_at)
                  SELECT cust.id, d.id, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 5000, now() FROM d, cust
                  RETURNING id, professional_id)
       INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
       SELECT professional_id, id, $1, 5000, 800, 4200, 'SETTLED' FROM c RETURNING id, case_id`,
      [month],
    );
    onTestFinished(async () => {
      await server.db.query('DELETE FROM settlements WHERE id = ANY($1::uuid[])', [made.map((r) => r.id)]);
      await server.db.query('DELETE FROM cases WHERE id = ANY($1::uuid[])', [made.map((r) => r.case_id)]);
    });
    const { rows: doctors } = await server.db.query<{
      professional_id: string;
      payable: boolean;
      settlements: number;
      owed: number;
    }>(
      `SELECT m.professional_id, m.settlements, m.payable_cents::int AS owed,
              (${COMPLETE} AND NOT EXISTS (SELECT 1 FROM payout_blocks b WHERE b.professional_id = u.id)
               AND NOT EXISTS (SELECT 1 FROM settlements r WHERE r.professional_id = u.id AND r.status = 'REFUNDED_PAID')) AS payable
         FROM settlement_doctor_months m JOIN users u ON u.id = m.professional_id
        WHERE m.stage = 'WAITING_FOR_FILE' AND m.reference_month = $1
        ORDER BY m.professional_name, m.professional_id`,
      [month],
    );
    expect(doctors.length).toBeGreaterThanOrEqual(4);
    // Pages of a third of the month at most: the console's own requests, answered by the real API.
    const PAGE = Math.max(1, Math.floor((doctors.length - 1) / 3));
    const requested: string[] = [];
    await page.route('**/v2/admin/settlement/sepa/to-process?*', async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', String(PAGE));
      requested.push(url.search);
      await route.continue({ url: url.toString() });
    });
    const dryRuns: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/sepa/dry-run')) dryRuns.push(request.postDataJSON());
    });
    // The last payable doctor of the month: on the last page.
    const target = doctors.map((d) => d.payable).lastIndexOf(true);
    expect(target).toBeGreaterThanOrEqual(PAGE);

    await page.goto(`${server.url}/sepa?tab=process&month=${month}`);
    const totals = await page.getByTestId('sepa-totals').textContent();
    expect(totals).toContain(
      ptPT.sepa.process.totals_other.replace('{{doctors}}', String(doctors.length)).replace(
        '{{amount}}',
        formatMoney(
          doctors.reduce((sum, d) => sum + d.owed, 0),
          'pt-PT',
        ),
      ),
    );
    const table = page.getByRole('table', { name: ptPT.sepa.tabs.process });
    await table.getByRole('row').nth(1).waitFor();
    for (let i = 0; i <= target; i++) {
      const next = page.locator(`tr[data-active][aria-rowindex="${i + 2}"]`);
      await page.keyboard.press('j');
      const moved = await next.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      // Pressed on the last loaded row: nothing to move to until the next page is in; press again.
      if (!moved) {
        await page.keyboard.press('j');
        await next.waitFor();
      }
    }
    await page.keyboard.press('x');
    await tabTo(page, ptPT.sepa.process.dryRun_one.replace('{{count}}', '1'));
    await page.keyboard.press('Enter');
    await page.getByTestId('sepa-dry-run-summary').waitFor();
    expect(dryRuns).toEqual([{ referenceMonth: month, professionalIds: [doctors[target]!.professional_id] }]);
    // The first request has no cursor; every later one continues from the page before.
    expect(requested.length).toBeGreaterThan(target / PAGE);
    expect(requested.map((search) => search.includes('cursor='))).toEqual(
      requested.map((_, index) => index > 0),
    );
    await page.keyboard.press('Escape');
  }, 60_000);

  it('settles a complete doctor: x leaves one case out, the confirmation shows count and total, Enter settles', async () => {
    const doctor = await doctorMonth(`${TO_SETTLE} AND ${COMPLETE}`);
    await page.goto(
      `${server.url}/settlement?tab=process&doctor=${doctor.professional_id}&month=${doctor.reference_month}`,
    );
    await page.getByTestId('settle-summary').waitFor();
    const { rows: cases } = await server.db.query<{ id: string }>(
      `SELECT id FROM settlements s WHERE professional_id = $1 AND reference_month = $2 AND ${TO_SETTLE}
        ORDER BY created_at, id`,
      [doctor.professional_id, doctor.reference_month],
    );
    const keys: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/v2/admin/settlement/')
        keys.push(r.headers()['idempotency-key']);
    });
    const leftOut = doctor.n > 1 ? cases[0]?.id : undefined;
    if (leftOut) await page.keyboard.press('x');
    await page.keyboard.press('c');
    const dialog = page.getByRole('alertdialog');
    await dialog
      .getByTestId('settle-confirm-message')
      .getByText(new RegExp(`^${cases.length - (leftOut ? 1 : 0)} `))
      .waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // a second Enter while settling sends nothing more
    await dialog.waitFor({ state: 'detached' });
    // One confirmation, sent with the key the settlement machine holds for it.
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await server.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM settlement_statuses WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [cases.map((c) => c.id)],
    );
    for (const row of rows) {
      if (row.id === leftOut) expect(row.status).not.toBe('SETTLED');
      else expect(row.status).toBe('SETTLED');
    }
  });

  it('generates a SEPA file that validates against the XSD, deletes it (settlements back), generates again, marks it AVAILABLE and the downloads are gone', async () => {
    const { rows: months } = await server.db.query<{ reference_month: string }>(
      `SELECT s.reference_month FROM settlements s JOIN settlement_statuses v USING (id)
         JOIN users u ON u.id = s.professional_id
        WHERE v.status = 'SETTLED' AND ${COMPLETE}
        GROUP BY 1 ORDER BY count(*) LIMIT 1`,
    );
    const month = months[0]?.reference_month;
    if (!month) throw new Error('the seed has no SETTLED settlements');
    const settledIn = async () =>
      (
        await server.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM settlements JOIN settlement_statuses v USING (id)
            WHERE reference_month = $1 AND v.status = 'SETTLED'`,
          [month],
        )
      ).rows[0]?.n ?? 0;
    const before = await settledIn();

    // Generate, download the bank file and validate its bytes.
    const first = await generate(month);
    await tabTo(page, ptPT.sepa.downloads.xml);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const dir = mkdtempSync(join(tmpdir(), 'sepa-'));
    try {
      const file = join(dir, 'pain001.xml');
      await download.saveAs(file);
      execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await settledIn()).toBeLessThan(before);

    // Delete it: its settlements are SETTLED again.
    await page.goto(`${server.url}/sepa/${first}`);
    await tabTo(page, ptPT.sepa.file.delete);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/sepa?tab=history`);
    expect(await settledIn()).toBe(before);

    // Again, then handed to the bank: the downloads are gone.
    const second = await generate(month);
    await markAvailable(second);
    await page.getByTestId('sepa-file-downloads').getByText(ptPT.sepa.downloads.gone).waitFor();
    expect(await page.getByRole('link', { name: ptPT.sepa.downloads.xml }).count()).toBe(0);
  }, 120_000);

  it('deletes a settlement from the management table through its confirmation, then the CSV report of its month totals what is left', async () => {
    const text = ptPT.settlementAdmin;
    const { rows: candidates } = await server.db.query<{ professional_id: string; reference_month: string }>(
      `SELECT s.professional_id, s.reference_month FROM settlements s
        WHERE s.status IN ('READY_TO_SETTLE', 'AVAILABLE', 'SETTLED')
          AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements t WHERE t.settlement_id = s.id)
        ORDER BY s.created_at, s.id LIMIT 1`,
    );
    const target = candidates[0];
    if (!target) throw new Error('the seed has no deletable settlement');
    const month = target.reference_month;
    await page.goto(
      `${server.url}/settlement?tab=manage&professionalId=${target.professional_id}&referenceMonth=${month}&status=READY_TO_SETTLE&status=AVAILABLE&status=SETTLED`,
    );
    await page.getByRole('table', { name: text.tabs.manage }).getByRole('row').nth(1).waitFor();
    await tabTo(page, text.manage);
    const id = (await page.evaluate(() => document.activeElement?.getAttribute('data-testid')))?.replace(
      'manage-',
      '',
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('settlement-editor').waitFor();
    await tabTo(page, text.delete);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: text.deleteTitle });
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId(`manage-${id}`).waitFor({ state: 'detached' });
    const { rows: left } = await server.db.query('SELECT 1 FROM settlements WHERE id = $1', [id]);
    expect(left).toHaveLength(0);

    await page.goto(`${server.url}/settlement?tab=reports&month=${month}`);
    await page.getByTestId('report-totals').waitFor();
    await tabTo(page, text.reports.csv);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    try {
      const file = join(dir, 'report.csv');
      await download.saveAs(file);
      const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
      const totals = (lines[lines.length - 1] ?? '').split(';');
      expect(totals[0]).toBe(ptPT.settlementReport.total);
      const payableCents = Math.round(
        Number((totals[8] ?? '').replace(/[^\d,-]/g, '').replace(',', '.')) * 100,
      );
      const { rows } = await server.db.query<{ cents: number }>(
        'SELECT coalesce(sum(coalesce(adjusted_cents, net_cents)), 0)::int AS cents FROM settlements WHERE reference_month = $1',
        [month],
      );
      expect(payableCents).toBe(rows[0]?.cents);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uploads the bank's pain.002 rejecting one transfer of an AVAILABLE file: rejected with its translated reason, its settlements SETTLED again, the doctor blocked in /sepa and on their page; in en-GB too", async () => {
    // The complete, unblocked doctors of one month settled by keyboard (one may still owe a recovery).
    const { rows: payable } = await server.db.query<DoctorMonth>(
      `SELECT s.professional_id, s.reference_month, count(*)::int AS n
         FROM settlements s JOIN users u ON u.id = s.professional_id
        WHERE ${TO_SETTLE} AND ${COMPLETE}
          AND NOT EXISTS (SELECT 1 FROM payout_blocks b WHERE b.professional_id = s.professional_id)
        GROUP BY 1, 2 ORDER BY 2 DESC, 1`,
    );
    const month = payable.find(
      (d, _, all) => all.filter((o) => o.reference_month === d.reference_month).length >= 2,
    )?.reference_month;
    if (!month) throw new Error('the seed has no month with two complete doctors to settle');
    for (const doctor of payable.filter((d) => d.reference_month === month)) await settle(doctor);
    const fileId = await generate(month);
    await markAvailable(fileId);
    const { rows: files } = await server.db.query<{ msg_id: string; payment_info_id: string }>(
      'SELECT msg_id, payment_info_id FROM sepa_files WHERE id = $1',
      [fileId],
    );
    const file = files[0] as { msg_id: string; payment_info_id: string };
    const { rows: transfers } = await server.db.query<{
      id: string;
      end_to_end_id: string;
      professional_id: string;
    }>(
      'SELECT id, end_to_end_id, professional_id FROM sepa_transactions WHERE sepa_file_id = $1 ORDER BY end_to_end_id',
      [fileId],
    );
    expect(transfers.length).toBeGreaterThanOrEqual(2);
    const [rejected, ...accepted] = transfers as [(typeof transfers)[number], ...typeof transfers];
    const report = statusReportFor(
      { msgId: file.msg_id, paymentInfoId: file.payment_info_id },
      transfers.map((t) => ({
        endToEndId: t.end_to_end_id,
        rejectedFor: t === rejected ? 'AC04' : undefined,
      })),
    );
    const statusesOf = async (transferIds: string[]) =>
      (
        await server.db.query<{ status: string }>(
          `SELECT DISTINCT s.status FROM sepa_transaction_settlements ts JOIN settlement_statuses s ON s.id = ts.settlement_id
            WHERE ts.sepa_transaction_id = ANY($1::uuid[])`,
          [transferIds],
        )
      ).rows.map((r) => r.status);
    const reasonIn = (text: typeof ptPT) => `AC04 — ${text.bankReasons.AC04}`;
    const blockedIn = (text: typeof ptPT) => `${text.sepa.exclusion.PAYOUT_BLOCKED}: ${reasonIn(text)}`;
    /** The file's page, "Settlements to process" of the month and the doctor's page, in `text`'s language. */
    const expectShownBlocked = async (text: typeof ptPT) => {
      await page.goto(`${server.url}/sepa/${fileId}`);
      await page
        .getByTestId(`transfer-${rejected.end_to_end_id}`)
        .getByText(`${text.sepa.transfer.rejected}: ${reasonIn(text)}`)
        .waitFor();
      await page.goto(`${server.url}/sepa?tab=process&month=${month}`);
      await page.getByTestId(`excluded-${rejected.professional_id}`).getByText(blockedIn(text)).waitFor();
      await page.goto(`${server.url}/professionals/${rejected.professional_id}`);
      await page.getByTestId('payout-block').getByText(reasonIn(text), { exact: false }).waitFor();
    };

    await uploadReport(report, ptPT);
    await page
      .getByTestId(`rejected-${rejected.end_to_end_id}`)
      .getByText(reasonIn(ptPT), { exact: false })
      .waitFor();
    expect(await statusesOf([rejected.id])).toEqual(['SETTLED']);
    expect(await statusesOf(accepted.map((t) => t.id))).toEqual(['PENDING_TRANSFER']);
    await expectShownBlocked(ptPT);

    // In English; the same report again is answered with what it did the first time and changes nothing.
    await toEnglish();
    const audits = async () =>
      (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]?.n;
    const auditsBefore = await audits();
    await uploadReport(report, enGB);
    await page
      .getByTestId('status-report-result')
      .getByText(enGB.sepa.report.already.replace('{{msgId}}', file.msg_id))
      .waitFor();
    await page
      .getByTestId(`rejected-${rejected.end_to_end_id}`)
      .getByText(reasonIn(enGB), { exact: false })
      .waitFor();
    expect(await audits()).toBe(auditsBefore);
    expect(await statusesOf([rejected.id])).toEqual(['SETTLED']);
    await expectShownBlocked(enGB);
  }, 120_000);

  it('refuses a status report for a file it does not know: its translated message once, in the form (no toast too), in both languages', async () => {
    const unknown = readFileSync(
      '/work/shared/fixtures/banking/samples/status-reports/pain.002.001.03_corporatejs_accepted-technical-check.xml',
      'utf8',
    );
    for (const text of [ptPT, enGB]) {
      if (text === enGB) await toEnglish();
      await uploadReport(unknown, text);
      const message = text.errorMessages.STATUS_REPORT_UNKNOWN_FILE;
      await page.getByRole('form', { name: text.sepa.report.title }).getByText(message).waitFor();
      // The form has rendered its answer; a toast raised by the same failure is raised before it.
      expect(await page.getByText(message).count()).toBe(1);
    }
    // The two refusals, as the browser logs them: expected here.
    opened.errors = opened.errors.filter((e) => !e.includes('status of 422'));
  }, 60_000);

  it('jumps from the palette to a settlement by its case id: Settlement management filtered to it, in both languages', async () => {
    const { rows } = await server.db.query<{ id: string; case_id: string }>(
      'SELECT id, case_id FROM settlements WHERE case_id IS NOT NULL ORDER BY created_at, id LIMIT 1',
    );
    const settlement = rows[0];
    if (!settlement) throw new Error('the seed has no settlement of a case');
    for (const text of [ptPT, enGB]) {
      if (text === enGB) await toEnglish();
      await page.keyboard.press('Control+k');
      await page.keyboard.type(settlement.case_id);
      const label = text.financePalette.openSettlement.replace('{{caseId}}', settlement.case_id);
      await page.getByRole('option', { name: label }).waitFor();
      // The case's own "open" command may rank first: arrow down to the settlement's.
      for (let i = 0; i < 10; i++) {
        if ((await page.getByRole('option', { name: label, selected: true }).count()) === 1) break;
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/settlement?tab=manage&caseId=${settlement.case_id}`);
      const table = page.getByRole('table', { name: text.settlementAdmin.tabs.manage });
      await table.getByTestId(`manage-${settlement.id}`).waitFor();
      expect(await table.getByRole('row').count()).toBe(2); // the header and its one settlement
      // The case filter, set by the link, is a chip saying its value.
      await page
        .getByRole('button', {
          name: `${text.settlementAdmin.filters.case}: ${settlement.case_id}`,
          exact: true,
        })
        .waitFor();
    }
  }, 60_000);

  it('marks refunds through the confirmation in Settlement management: a paid settlement becomes REFUNDED_PAID (pt-PT), one not yet paid REFUNDED (en-GB), each with its audit row', async () => {
    const pick = async (where: string) => {
      const { rows } = await server.db.query<{ id: string; case_id: string }>(
        `SELECT s.id, s.case_id FROM settlements s
          WHERE s.case_id IS NOT NULL AND ${where}
          ORDER BY s.created_at, s.id LIMIT 1`,
      );
      if (!rows[0]) throw new Error(`the seed has no settlement where ${where}`);
      return rows[0];
    };
    const targets = [
      { settlement: await pick(`s.status = 'PAID'`), text: ptPT, becomes: 'REFUNDED_PAID' as const },
      {
        settlement: await pick(`s.status IN ('READY_TO_SETTLE', 'AVAILABLE', 'SETTLED')`),
        text: enGB,
        becomes: 'REFUNDED' as const,
      },
    ];
    for (const { settlement, text, becomes } of targets) {
      if (text === enGB) await toEnglish();
      await page.goto(`${server.url}/settlement?tab=manage&caseId=${settlement.case_id}`);
      const row = page
        .getByRole('table', { name: text.settlementAdmin.tabs.manage })
        .getByRole('row')
        .filter({ has: page.getByTestId(`manage-${settlement.id}`) });
      await row.waitFor();
      await tabTo(page, text.settlementAdmin.manage);
      await page.keyboard.press('Enter');
      await page.getByTestId('settlement-editor').waitFor();
      await tabTo(page, text.settlementAdmin.refund);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog', { name: text.settlementAdmin.refundTitle });
      await dialog.waitFor();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await row.getByText(text.finance.status[becomes], { exact: true }).waitFor();
      const { rows } = await server.db.query<{ status: string; audits: number }>(
        `SELECT status, (SELECT count(*)::int FROM audit_log
                          WHERE action = 'settlement.refund' AND entity_type = 'settlement' AND entity_id = $1) AS audits
           FROM settlements WHERE id::text = $1`,
        [settlement.id],
      );
      expect(rows[0]).toEqual({ status: becomes, audits: 1 });
    }
  }, 60_000);

  it("shows a month's report per doctor whose rows and totals equal an independent sum of that month's settlements, in both languages", async () => {
    const { rows: months } = await server.db.query<{ reference_month: string }>(
      `SELECT reference_month FROM settlements GROUP BY 1 ORDER BY count(DISTINCT professional_id) DESC, 1 DESC LIMIT 1`,
    );
    const month = months[0]?.reference_month as string;
    const { rows: doctors } = await server.db.query<{ name: string; figures: number[] }>(
      `SELECT p.name, ARRAY[count(*), sum(s.gross_cents), sum(s.fee_cents), sum(s.net_cents),
                            sum(coalesce(s.adjusted_cents, s.net_cents)),
                            coalesce(sum(coalesce(s.adjusted_cents, s.net_cents)) FILTER (WHERE s.status IN ('PAID', 'REFUNDED_PAID')), 0),
                            coalesce(sum(coalesce(s.adjusted_cents, s.net_cents)) FILTER (WHERE s.status = 'REFUNDED_PAID'), 0)]::int[] AS figures
         FROM settlements s JOIN users p ON p.id = s.professional_id
        WHERE s.reference_month = $1 GROUP BY s.professional_id, p.name`,
      [month],
    );
    expect(doctors.length).toBeGreaterThan(1);
    const expected = doctors.map((d) => [d.name, ...d.figures]).sort();
    const totals = doctors.reduce(
      (sum, d) => sum.map((value, i) => value + (d.figures[i] as number)),
      [0, 0, 0, 0, 0, 0, 0],
    );
    // Every figure shown in cents whatever the locale's separators: two decimals, digits only.
    const cents = (cell: string) => Number(cell.replace(/[^\d-]/g, ''));
    for (const text of [ptPT, enGB]) {
      if (text === enGB) await toEnglish();
      await page.goto(`${server.url}/settlement?tab=reports&month=${month}`);
      await page.getByTestId('report-totals').getByText(text.settlementAdmin.reports.total).waitFor();
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll('.settlement-reports tbody tr, .settlement-reports tfoot tr')].map(
          (tr) => [...tr.children].map((cell) => cell.textContent ?? ''),
        ),
      );
      const rows = shown.map(([name, ...figures]) => [name, ...figures.map(cents)]);
      const total = rows.pop();
      expect(rows.sort()).toEqual(expected);
      expect(total).toEqual([text.settlementAdmin.reports.total, ...totals]);
    }
  }, 60_000);

  it("in en-GB too: 'Select one Doctor ID' and the missing information, in English", async () => {
    await toEnglish();
    await page.goto(`${server.url}/settlement`);
    await page.getByRole('table', { name: enGB.finance.tabs.process }).getByRole('row').nth(1).waitFor();
    await page.keyboard.press('c');
    await page.getByRole('alert').getByText('Select one Doctor ID').waitFor();
    const missing = await doctorMonth(`${TO_SETTLE} AND u.iban IS NULL`);
    await page.goto(
      `${server.url}/settlement?tab=process&doctor=${missing.professional_id}&month=${missing.reference_month}`,
    );
    const missingInformation = page.getByTestId('missing-information');
    await missingInformation
      .getByText('The missing professional information cannot allow the conclusion of the settlement process')
      .waitFor();
    // The doctor has no IBAN: it is named among the missing fields, in English.
    expect(await missingInformation.getByRole('listitem').allTextContents()).toContain(
      enGB.finance.missingFields.iban,
    );
  });
});
