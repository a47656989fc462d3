import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ptPT from '../../locales/pt-PT.json';
import {
  closeTestPage,
  hasChromium,
  launchBrowser,
  openTestPage,
  signInByKeyboard,
  type TestPage,
  tabTo,
} from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

describe.skipIf(!hasChromium)('home dashboard and audit log in Chromium, keyboard only', () => {
  let server: TestServer;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    opened = await openTestPage(browser, { locale: 'en-US' }, { consoleErrors: true });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterEach(() => closeTestPage(opened));

  it('shows what needs attention and follows a counter to its filtered list', async () => {
    const { rows } = await server.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM cases WHERE status = 'WAITING_PAYMENT'`,
    );
    const waiting = rows[0]!.n;
    expect(Number(waiting)).toBeGreaterThan(0);
    await page.getByTestId('count-waiting-payment').getByText(waiting, { exact: true }).waitFor();
    // The charts arrive after the counters, each with its summary for screen readers.
    await page.getByText(ptPT.home.charts.cases, { exact: true }).waitFor();
    expect(await page.getByTestId('chart-cases-summary').textContent()).toMatch(/^De /);

    await tabTo(page, (el) => el.getAttribute('href') === '/cases?status=WAITING_PAYMENT');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/cases?status=WAITING_PAYMENT`);
    await page
      .getByTestId('cases-total')
      .getByText(new RegExp(`^${waiting} `))
      .waitFor();
  });

  // Issue 29 point 7: each card opens a list whose total is the card's number, in the card's unit.
  it('opens every counter on a list that totals the same number', async () => {
    /** Where each card's list shows its total (a DataTable's `<id>-total`, or the list's own summary). */
    const listTotals: Record<string, string> = {
      'to-verify': 'professionals-verification-total',
      disabled: 'professionals-disabled-total',
      'waiting-payment': 'cases-total',
      settlements: 'settlement-process-totals',
      sepa: 'sepa-history-total',
      returns: 'statement-lines-total',
      'payouts-blocked': 'sepa-blocked-total',
      unmatched: 'statement-lines-total',
      'exports-failed': 'exports-failed-total',
      // The month's lines reconciled without a decision (decision 0147): its list is the statement lines'.
      automation: 'statement-lines-total',
      // The missing sides of the three-way reconciliation (decision 0155).
      'not-invoiced': 'settlement-manage-total',
      'invoices-unpaid': 'provider-documents-total',
    };
    const numberIn = (text: string | null) =>
      Number(/\d[\d\s.\u00a0\u202f]*/.exec(text ?? '')?.[0].replace(/\D/g, ''));
    // The seed matched every return the bank sent: one unmatched through the product's route is a
    // return to look at, so the returns card counts one.
    const { rows: returns } = await server.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE kind = 'return' AND status = 'MATCHED' ORDER BY id LIMIT 1`,
    );
    const unmatched = await page.evaluate(
      async (lineId) =>
        (await fetch(`/v2/admin/statements/lines/${lineId}/unmatch`, { method: 'POST' })).status,
      returns[0]!.id,
    );
    expect(unmatched).toBe(200);
    // A doctor blocked twice (one doctor on the card and in the list), and failed exports: two of the
    // signed-in admin's, one of another admin's, which neither the card nor the list counts.
    await server.db.query(
      `INSERT INTO payout_blocks (professional_id, blocked_iban, reason_code)
       SELECT p.id, upper(regexp_replace(p.iban, '[- ]', '', 'g')), r.code
         FROM (SELECT id, iban FROM users WHERE role = 'PROFESSIONAL' AND iban IS NOT NULL ORDER BY id LIMIT 1) p,
              (VALUES ('AC04'), ('MD07')) r (code)`,
    );
    await server.db.query(
      `WITH other AS (
         INSERT INTO users (role, email, name, admin_data) VALUES ('ADMIN', 'cards-other-admin@example.pt', 'Outra', '{}')
         RETURNING id)
       INSERT INTO export_jobs (requested_by, type, filters, format, locale, status, estimated_total, error_reason,
                                created_at, finished_at, expires_at)
       SELECT a.id, a.type, '{"dateField": "CREATED", "startDate": "2026-01-01", "endDate": null}', 'CSV', 'pt-PT',
              'failed', 10, 'INSTANCE_STOPPED', now(), now(), now() + interval '7 days'
         FROM (SELECT id, 'USERS' AS type FROM users WHERE email = $1
               UNION ALL SELECT id, 'STATS' FROM users WHERE email = $1
               UNION ALL SELECT id, 'CASES' FROM other) a`,
      [server.adminEmail],
    );
    const cards = await page
      .locator('[data-testid^="count-"]')
      .evaluateAll((spans) => spans.map((span) => span.getAttribute('data-testid')!.slice('count-'.length)));
    expect([...cards].sort()).toEqual(Object.keys(listTotals).sort());
    const seen: Record<string, number> = {};
    for (const [id, testId] of Object.entries(listTotals)) {
      await page.goto(`${server.url}/`);
      const count = page.getByTestId(`count-${id}`);
      await page.waitForFunction((el) => /\d/.test(el?.textContent ?? ''), await count.elementHandle());
      seen[id] = numberIn(await count.textContent());
      const link = count.locator('xpath=ancestor::a');
      const href = await link.getAttribute('href');
      await link.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}${href}`);
      const total = page.getByTestId(testId);
      await page.waitForFunction((el) => /\d/.test(el?.textContent ?? ''), await total.elementHandle());
      expect(numberIn(await total.textContent()), `${id} → ${href}`).toBe(seen[id]);
    }
    // The seed holds some of each that a wrong filter would change.
    for (const id of [
      'to-verify',
      'disabled',
      'waiting-payment',
      'settlements',
      'sepa',
      'returns',
      'payouts-blocked',
      'unmatched',
      'exports-failed',
      // The seed invoices no settlement: every one is counted.
      'not-invoiced',
    ])
      expect(seen[id], id).toBeGreaterThan(0);
    expect(seen['payouts-blocked']).toBe(
      Number(
        (
          await server.db.query<{ n: string }>(
            `SELECT count(DISTINCT b.professional_id)::text AS n FROM payout_blocks b JOIN users p ON p.id = b.professional_id
              WHERE b.blocked_iban = upper(regexp_replace(coalesce(p.iban, ''), '[- ]', '', 'g'))`,
          )
        ).rows[0]!.n,
      ),
    );
    expect(seen['exports-failed']).toBe(2);
  }, 120_000);

  it('finds an action in the audit log by its translated name and opens its entity', async () => {
    const { rows } = await server.db.query<{ entity_id: string }>(
      `SELECT entity_id FROM audit_log WHERE action = 'user.disable' ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const newest = rows[0]!.entity_id;

    await page.keyboard.press('g');
    await page.keyboard.press('l');
    await page.waitForURL(`${server.url}/audit`);
    const table = page.getByRole('table', { name: ptPT.routes.audit });
    await table.getByRole('row').nth(1).waitFor();

    // `f` opens the Filter menu on the first filter (the actions); Enter opens its list, Tab and Space tick one.
    await page.keyboard.press('f');
    await page.getByRole('menuitem', { name: ptPT.audit.columns.action }).waitFor();
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.closest('label')?.textContent === 'Desativou o utilizador', 40);
    await page.keyboard.press('Space');
    await page.waitForURL(/[?&]action=user\.disable/);
    await page.keyboard.press('Escape');
    await table.getByRole('row').nth(1).getByText('Desativou o utilizador', { exact: true }).waitFor();
    expect(await page.getByText('user.disable', { exact: true }).count()).toBe(0);

    await tabTo(page, (el) => el.closest('.data-table-scroll') !== null);
    await page.keyboard.press('j');
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp(`/(customers|professionals)/${newest}$`));
    await page.getByRole('heading', { name: ptPT.users.sections.audit }).waitFor();
  });

  it('shows the change of an audit row in words, not codes (issue 29)', async () => {
    const table = page.getByRole('table', { name: ptPT.routes.audit });
    const firstChange = async (action: string) => {
      await page.goto(`${server.url}/audit?action=${action}`);
      const row = table.getByRole('row').nth(1);
      await row.waitFor();
      return (await row.locator('.audit-diff').textContent())?.replace(/\s+/g, ' ');
    };
    expect(await firstChange('user.disable')).toBe(
      `${ptPT.auditFields.disabled} ${ptPT.auditValues.no} → ${ptPT.auditValues.yes}`,
    );
    expect(await firstChange('professional.verify')).toBe(
      `${ptPT.auditFields.status} ${ptPT.users.status.EMAIL_VERIFIED} → ${ptPT.users.status.PROFESSIONAL_VERIFIED}`,
    );
  });
});
