import { describe, expect, it } from 'vitest';
import ptPT from '../../locales/pt-PT.json';
import { chromiumSuite, hasChromium, signInByKeyboard } from '../support/browser';

// Issue 14: the whole round of a power user's daily work, keyboard only — search, first row, open,
// act through the confirmation, and back to the list as it was.
describe.skipIf(!hasChromium)('keyboard only in Chromium', () => {
  const suite = chromiumSuite();

  it('search → first row → open → disable through the confirmation → back to the same search', async () => {
    const { rows } = await suite.server.db.query<{ id: string; email: string; gender: string | null }>(
      `SELECT id, email, gender FROM users
        WHERE role = 'PROFESSIONAL' AND status = 'PROFESSIONAL_VERIFIED' ORDER BY email LIMIT 1`,
    );
    const doctor = rows[0]!;
    const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await signInByKeyboard(page, suite.server);
      await page.keyboard.press('g');
      await page.keyboard.press('p');
      await page.getByRole('heading', { name: ptPT.routes.professionals, level: 1 }).waitFor();
      await page.locator('.data-table-body-row').first().waitFor();

      // `/` to the search, type, Enter: the search is sent and the keyboard is on the first row.
      await page.keyboard.press('/');
      await page.keyboard.type(doctor.email);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('q') === doctor.email);
      const first = page.locator('.data-table-body-row[data-active]');
      await first.getByText(doctor.email).waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');

      // Enter opens it.
      await page.keyboard.press('Enter');
      await page.waitForURL(`${suite.server.url}/professionals/${doctor.id}`);
      await page.getByTestId('user-status').waitFor();

      // The action from the palette, through the confirmation.
      await page.keyboard.press('Control+k');
      await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
      await page.keyboard.type(ptPT.users.actions.disable);
      await page.keyboard.press('Enter');
      await page.getByRole('alertdialog').waitFor();
      await page.keyboard.press('Enter');
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      const disabled =
        doctor.gender === 'female' ? ptPT.users.status.DISABLED_female : ptPT.users.status.DISABLED;
      await page.getByTestId('user-status').getByText(disabled, { exact: true }).waitFor();
      const { rows: after } = await suite.server.db.query<{ status: string }>(
        'SELECT status FROM users WHERE id = $1',
        [doctor.id],
      );
      expect(after[0]!.status).toBe('DISABLED');

      // Back (the suite.browser's own, Alt+← for the admin; headless Chromium does not bind the key): the
      // list with the same search, its box showing it.
      await page.goBack();
      await page.waitForURL(
        (url) => url.pathname === '/professionals' && url.searchParams.get('q') === doctor.email,
      );
      await page.locator('.data-table-body-row').getByText(doctor.email).waitFor();
      expect(await page.getByRole('searchbox').inputValue()).toBe(doctor.email);
    } finally {
      await context.close();
    }
  }, 120_000);
});
