import type { Page, Request } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/app/routes';
import { formatMonth } from '../../src/features/finance/format';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { ptPT } from '../support/messages';

const GO_ROUTES = ROUTES.filter((route) => route.goKey);
const TO_SETTLE = `s.status IN ('READY_TO_SETTLE', 'AVAILABLE')`;
const COMPLETE = `u.full_name IS NOT NULL AND u.tax_number IS NOT NULL AND u.iban IS NOT NULL AND u.college_number IS NOT NULL`;

/** Every request the page sends that is not a read. */
function writesOf(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request: Request) => {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method()))
      writes.push(`${request.method()} ${new URL(request.url()).pathname} (from ${page.url()})`);
  });
  return writes;
}

// Issue 29 points 1–4, keyboard only: a `g` chord only navigates, names instead of ids on a deep link,
// the doctor's month fresh after a confirmation, and a search that reaches the API.
describe.skipIf(!hasChromium)('the money screens at the keyboard, in Chromium', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT', viewport: { width: 1440, height: 900 } });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  const doctorMonth = async (where: string) => {
    const { rows } = await suite.server.db.query<{
      professional_id: string;
      reference_month: string;
      full_name: string;
      n: number;
    }>(
      `SELECT s.professional_id, s.reference_month, u.full_name, count(*)::int AS n
         FROM settlements s JOIN users u ON u.id = s.professional_id
        WHERE ${where}
        GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1, 2 LIMIT 1`,
    );
    if (!rows[0]) throw new Error(`the seed has no doctor's month where ${where}`);
    return rows[0];
  };
  const settleUrl = (doctor: { professional_id: string; reference_month: string }) =>
    `${suite.server.url}/settlement?tab=process&doctor=${doctor.professional_id}&month=${doctor.reference_month}`;

  it('every g chord from every screen, a row active, only navigates: no request but reads, the statement line still matched', async () => {
    const { db } = suite.server;
    const doctor = await doctorMonth(`${TO_SETTLE} AND ${COMPLETE}`);
    const matchedBefore = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM statement_lines WHERE status = 'MATCHED'",
    );
    expect(matchedBefore.rows[0]!.n).toBeGreaterThan(0);
    // Each screen with a table of keys (and the statements table with a matched line first), the
    // doctor's month of `x`, `a`, `c`, and every other screen of the routes table.
    const screens = [
      '/statements?status=MATCHED',
      new URL(settleUrl(doctor)).pathname + new URL(settleUrl(doctor)).search,
      '/settlement?tab=manage',
      '/sepa?tab=history',
      ...ROUTES.filter((r) => r.access === 'auth' && !r.path.includes(':')).map((r) => r.path),
    ];
    const writes = writesOf(page);
    const ROWS = '.data-table-body-row, .review-table tbody tr';
    for (const screen of screens) {
      await page.goto(`${suite.server.url}${screen}`);
      await page.waitForLoadState('networkidle');
      // A screen with rows gets one active before each chord, as the admin would have it.
      const hasRows = (await page.locator(ROWS).count()) > 0;
      for (const route of GO_ROUTES) {
        if (hasRows) {
          await page.locator(ROWS).first().waitFor();
          await page.keyboard.press('j');
          await page
            .locator('.data-table-body-row[data-active], .review-table tr[data-active]')
            .first()
            .waitFor({ timeout: 5_000 })
            .catch(async () => {
              const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
              throw new Error(`no active row on ${screen} before g ${route.goKey}; focus on ${focused}`);
            });
        }
        await page.keyboard.press('g');
        await page.keyboard.press(route.goKey!);
        await page.waitForURL((url) => url.pathname === route.path);
        const title = ptPT.routes[route.titleKey.replace('routes.', '') as keyof typeof ptPT.routes];
        await page.locator('main h1').getByText(title, { exact: true }).waitFor();
        expect(await page.getByRole('alertdialog').count()).toBe(0);
        await page.goBack();
        await page.waitForURL((url) => url.pathname + url.search === screen);
      }
      expect(writes).toEqual([]);
    }
    const matchedAfter = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM statement_lines WHERE status = 'MATCHED'",
    );
    expect(matchedAfter.rows[0]!.n).toBe(matchedBefore.rows[0]!.n);
  }, 600_000);

  it("a doctor's month opened by its link shows the doctor's name in the heading and the confirmation, never the id", async () => {
    const doctor = await doctorMonth(`${TO_SETTLE} AND ${COMPLETE}`);
    await page.goto(settleUrl(doctor));
    const heading = page.locator('#settle-title');
    await heading.getByText(doctor.full_name).waitFor();
    expect(await heading.textContent()).not.toContain(doctor.professional_id);
    await page.getByTestId('settle-summary').waitFor();
    await page.keyboard.press('c');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(doctor.full_name);
    expect(await dialog.textContent()).not.toContain(doctor.professional_id);
    expect(await dialog.textContent()).not.toContain(doctor.professional_id.slice(0, 8));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // After a reload too.
    await page.reload();
    await heading.getByText(doctor.full_name).waitFor();
    expect(await heading.textContent()).not.toContain(doctor.professional_id);
  });

  it("after a confirmation the doctor's month shows what is left, and `c` confirms it without a reload", async () => {
    const { db } = suite.server;
    const doctor = await doctorMonth(`${TO_SETTLE} AND ${COMPLETE}`);
    expect(doctor.n).toBeGreaterThan(1);
    await page.goto(settleUrl(doctor));
    const summary = page.getByTestId('settle-summary');
    await summary.waitFor();
    const rows = page.locator('.review-table tbody tr');
    expect(await rows.count()).toBe(doctor.n);
    // The first case left out, the others confirmed.
    await page.keyboard.press('x');
    await page.keyboard.press('c');
    const dialog = page.getByRole('alertdialog');
    await dialog
      .getByTestId('settle-confirm-message')
      .getByText(new RegExp(`^${doctor.n - 1} `))
      .waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The month as it now is: the case left out, alone, included.
    await expect.poll(() => rows.count()).toBe(1);
    // "1 de 1 casos incluídos — …"
    const oneOfOne = ptPT.finance.process.included_one.replace('{{count}}', '1').replace('{{total}}', '1');
    await expect.poll(() => summary.textContent()).toMatch(new RegExp(`^${oneOfOne.split('{{amount}}')[0]}`));

    await page.keyboard.press('c');
    await dialog.getByTestId('settle-confirm-message').getByText(/^1 /).waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const month = page.getByTestId('settle-nothing-left');
    await month.waitFor();
    await expect.poll(() => rows.count()).toBe(0);
    const { rows: left } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM settlements s
        WHERE professional_id = $1 AND reference_month = $2 AND ${TO_SETTLE}`,
      [doctor.professional_id, doctor.reference_month],
    );
    expect(left[0]!.n).toBe(0);

    // Back to the list: that doctor's month is gone from it.
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.get('doctor') === null);
    await page.getByRole('table', { name: ptPT.finance.tabs.process }).getByRole('row').nth(1).waitFor();
    await page.waitForLoadState('networkidle');
    const monthShown = formatMonth(doctor.reference_month, 'pt-PT');
    const rowsOfDoctor = await page
      .getByRole('table', { name: ptPT.finance.tabs.process })
      .getByRole('row', { name: new RegExp(doctor.full_name) })
      .allTextContents();
    expect(rowsOfDoctor.filter((row) => row.includes(monthShown))).toEqual([]);
  });

  it('on "Cases to process", `/`, part of a name and Enter ask the API with q and keep only that doctor’s months', async () => {
    const { db } = suite.server;
    const doctor = await doctorMonth(`${TO_SETTLE} AND ${COMPLETE}`);
    const q = doctor.full_name.split(' ').at(-1)!;
    const { rows: expected } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT (s.professional_id, s.reference_month))::int AS n
         FROM settlements s JOIN users u ON u.id = s.professional_id
        WHERE ${TO_SETTLE} AND (u.name ILIKE '%' || $1 || '%' OR u.full_name ILIKE '%' || $1 || '%')`,
      [q],
    );
    const { rows: all } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT (s.professional_id, s.reference_month))::int AS n FROM settlements s WHERE ${TO_SETTLE}`,
    );
    expect(expected[0]!.n).toBeLessThan(all[0]!.n);

    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const table = page.getByRole('table', { name: ptPT.finance.tabs.process });
    await table.getByRole('row').nth(1).waitFor();
    const asked = page.waitForRequest(
      (r) =>
        new URL(r.url()).pathname === '/v2/admin/settlement/professional' &&
        new URL(r.url()).searchParams.get('q') === q,
    );
    await page.keyboard.press('/');
    await page.keyboard.type(q);
    await page.keyboard.press('Enter');
    await asked;
    await page.waitForURL((url) => url.searchParams.get('q') === q);
    await expect.poll(() => page.getByTestId('settlement-process-totals').textContent()).toBeTruthy();
    await expect.poll(() => table.locator('.data-table-body-row').count()).toBe(expected[0]!.n);
    for (const name of await table.locator('.data-table-body-row td:first-child').allTextContents())
      expect(name.toLowerCase()).toContain(q.toLowerCase());
  });
});
