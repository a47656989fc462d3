import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';
import {
  closeTestPage,
  hasChromium,
  launchBrowser,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? null;

// Enough rows that the list needs several pages and the virtualiser has real work.
const SEED_USERS = 1500;

describe.skipIf(!hasChromium)('users and doctors in Chromium, by keyboard', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;

  beforeAll(async () => {
    sink = await startSmtpSink();
    [server, browser] = await Promise.all([
      startTestServer({ seedUsers: SEED_USERS, smtpUrl: sink.url }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });
  beforeEach(async () => {
    opened = await openTestPage(browser, { locale: 'pt-PT', viewport: { width: 1400, height: 900 } });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterEach(() => closeTestPage(opened));

  const one = async <T>(sql: string, params: unknown[] = []) => {
    const { rows } = await server.db.query<T>(sql, params);
    if (!rows[0]) throw new Error(`no fixture for: ${sql}`);
    return rows[0];
  };
  const badge = async (id: string) => Number(await page.getByTestId(`badge-${id}`).textContent());
  const waitBadge = (id: string, value: number) =>
    page.waitForFunction(
      ([testId, expected]) =>
        document.querySelector(`[data-testid="${testId}"]`)?.textContent === String(expected),
      [`badge-${id}`, value] as const,
    );

  /** Ctrl+K, type, arrow down to the command with exactly this label, Enter. */
  async function palette(text: string) {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(text);
    const option = page.getByRole('option', { name: text, exact: true });
    await option.waitFor();
    for (let i = 0; i < 10 && (await option.getAttribute('aria-selected')) !== 'true'; i++)
      await page.keyboard.press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
  }

  async function confirm(title: string) {
    await page.getByRole('alertdialog', { name: title }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
  }

  it('searches with Enter, filters by status and opens a user, all from the keyboard', async () => {
    const target = await one<{ email: string; name: string }>(
      "SELECT email, name FROM users WHERE role = 'CUSTOMER' AND status = 'NEW_USER' ORDER BY email LIMIT 1",
    );
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.getByRole('heading', { name: ptPT.routes.customers, level: 1 }).waitFor();
    await page.locator('.data-table-body-row').first().waitFor();

    await page.keyboard.press('/');
    await page.keyboard.type(target.email);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === target.email);
    await page.getByRole('cell', { name: target.email }).waitFor();

    // Clear the search (Esc) and filter by status from the keyboard: `f` opens the Filter menu on its
    // first filter (the status), Enter opens that filter's editor on "New user" (the first status),
    // Space ticks it, Esc closes the editor and leaves a chip.
    await page.keyboard.press('/');
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('q'));
    await page.keyboard.press('f');
    await page.getByRole('menuitem', { name: ptPT.users.fields.status }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'checkbox');
    await page.keyboard.press('Space');
    await page.waitForURL((url) => url.searchParams.get('status') === 'NEW_USER');
    await page.keyboard.press('Escape');
    const chip = `${ptPT.users.fields.status}: ${ptPT.users.status.NEW_USER}`;
    await page.getByRole('button', { name: chip, exact: true }).waitFor();
    await page.waitForFunction((label) => {
      const cells = [...document.querySelectorAll('.data-table-body-row .pill')];
      return cells.length > 0 && cells.every((c) => c.textContent === label);
    }, ptPT.users.status.NEW_USER);
    const total = await page.getByTestId('customers-total').textContent();
    const expected = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE role = 'CUSTOMER' AND status = 'NEW_USER'",
    );
    expect(total).toContain(new Intl.NumberFormat('pt-PT').format(expected.n));

    // Reload restores the filter exactly.
    await page.reload();
    await page.locator('.data-table-body-row').first().waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('NEW_USER');
    await page.getByRole('button', { name: chip, exact: true }).waitFor();

    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: ptPT.users.sections.profile }).waitFor();
    expect(await page.getByTestId('user-status').textContent()).toBe(ptPT.users.status.NEW_USER);
  });

  it('keeps search, Filter and chips to one row at 1280×720, the first doctor near the top; a created range typed in pt-PT', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}/professionals?status=PROFESSIONAL_VERIFIED`);
    await page.locator('.data-table-body-row').first().waitFor();

    // The period, typed as dd/mm/aaaa whatever the browser's own date format: one chip, two URL keys.
    // The menu offers what is not set yet: country, gender, area, created, last active.
    await page.keyboard.press('f');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.getByRole('menuitem', { name: ptPT.users.filters.created }).evaluate((el) => {
      if (document.activeElement !== el) throw new Error('the menu is not on "created"');
    });
    await page.keyboard.press('Enter');
    // The editor opens on the first preset; past the four presets, the first day.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    await page.keyboard.type('01/01/2020');
    await page.keyboard.press('Tab');
    await page.keyboard.type('26/11/2026');
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) =>
        url.searchParams.get('createdFrom') === '2020-01-01' &&
        url.searchParams.get('createdTo') === '2026-11-26',
    );
    await page.keyboard.press('Escape');
    const range = `${ptPT.users.filters.created}: 01/01/2020 – 26/11/2026`;
    await page.getByRole('button', { name: range, exact: true }).waitFor();
    await page.locator('.data-table-body-row').first().waitFor();

    const box = async (selector: string) => {
      const found = await page.locator(selector).first().boundingBox();
      if (!found) throw new Error(`${selector} is not shown`);
      return found;
    };
    const toolbar = await box('.data-table-toolbar');
    const main = await box('main');
    const firstRow = await box('.data-table-body-row');
    // One row: search, Filter, the two chips, the total and the column chooser.
    expect(toolbar.height).toBeLessThanOrEqual(48);
    for (const part of ['.data-table-search', '.filter-bar-button', '.filter-chip', '.data-table-columns']) {
      const b = await box(part);
      expect(b.y, part).toBeGreaterThanOrEqual(toolbar.y);
      expect(b.y + b.height, part).toBeLessThanOrEqual(toolbar.y + toolbar.height);
    }
    expect(await page.locator('.filter-chip').count()).toBe(2);
    expect(firstRow.y - main.y).toBeLessThanOrEqual(200);
  });

  it("collapses a doctor's empty cases table to one line, with no toolbar", async () => {
    const doctor = await one<{ id: string }>(
      `SELECT u.id FROM users u WHERE u.role = 'PROFESSIONAL'
         AND NOT EXISTS (SELECT 1 FROM cases c WHERE c.professional_id = u.id) ORDER BY u.email LIMIT 1`,
    );
    await page.goto(`${server.url}/professionals/${doctor.id}`);
    const section = page.getByRole('region', { name: ptPT.users.sections.cases });
    const total = section.getByTestId('user-cases-professional-total');
    await total.waitFor();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="user-cases-professional-total"]')?.textContent === text,
      ptPT.table.total.other.replace('{{count}}', '0'),
    );
    expect(await section.getByRole('table').count()).toBe(0);
    expect(await section.getByRole('searchbox').count()).toBe(0);
    expect(await section.getByRole('button', { name: ptPT.table.filter }).count()).toBe(0);
    expect((await total.boundingBox())?.height).toBeLessThanOrEqual(32);
  });

  it('resends the verification e-mail through the confirmation, and it reaches the SMTP sink', async () => {
    const user = await one<{ id: string; email: string; locale: 'pt-PT' | 'en-GB' }>(
      // An English-speaking user: the mail goes out in their language, with an ASCII subject to compare as is.
      "SELECT id, email, locale FROM users WHERE role = 'CUSTOMER' AND status = 'NEW_USER' AND locale = 'en-GB' ORDER BY email DESC LIMIT 1",
    );
    await page.goto(`${server.url}/customers/${user.id}`);
    await page.getByRole('heading', { name: ptPT.users.sections.profile }).waitFor();
    const before = sink.received.length;
    await palette(ptPT.users.actions.resend);
    await confirm(ptPT.users.actions.resendTitle);
    await page.getByText(ptPT.users.actions.resent.replace('{{email}}', user.email)).waitFor();
    await expect.poll(() => sink.received.length).toBe(before + 1);
    const message = sink.received.at(-1)!;
    expect(message.to).toEqual([user.email]);
    expect(user.locale).toBe('en-GB');
    expect(subjectOf(message.raw)).toBe(enGB.mail.verification.subject);
  });

  it('disables a doctor with confirmation and the badge changes, then enables, then verifies', async () => {
    const doctor = await one<{ id: string; email: string; gender: 'male' | 'female' | null }>(
      "SELECT id, email, gender FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED' ORDER BY email LIMIT 1",
    );
    // pt-PT statuses agree with the doctor: Desativado/Desativada, Verificado/Verificada.
    const female = doctor.gender === 'female';
    const { status } = ptPT.users;
    await page.getByTestId('badge-professionalsDisabled').waitFor();
    const disabled = await badge('professionalsDisabled');
    const toVerify = await badge('professionalsVerification');

    // Found through the palette's server-side search.
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(doctor.email);
    await page.getByRole('option', { name: new RegExp(doctor.email.replace(/[.+]/g, '\\$&')) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/professionals/${doctor.id}`);
    await page.getByRole('heading', { name: ptPT.users.sections.bank }).waitFor();

    await palette(ptPT.users.actions.disable);
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await waitBadge('professionalsDisabled', disabled + 1);
    await waitBadge('professionalsVerification', toVerify - 1);
    expect(await page.getByTestId('user-status').textContent()).toBe(
      female ? status.DISABLED_female : status.DISABLED,
    );

    await palette(ptPT.users.actions.enable);
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await waitBadge('professionalsDisabled', disabled);
    await waitBadge('professionalsVerification', toVerify);

    await palette(ptPT.users.actions.verify);
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Enter');
    await waitBadge('professionalsVerification', toVerify - 1);
    await page
      .getByTestId('user-status')
      .getByText(female ? status.PROFESSIONAL_VERIFIED_female : status.PROFESSIONAL_VERIFIED)
      .waitFor();
    // Each action is in the audit list of the page, in words (never the raw code).
    const { auditActions } = ptPT;
    for (const action of [
      auditActions.user.disable,
      auditActions.user.enable,
      auditActions.professional.verify,
    ])
      await page.getByRole('cell', { name: action, exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'user.disable', exact: true }).count()).toBe(0);
    const row = await one<{ status: string }>('SELECT status FROM users WHERE id = $1', [doctor.id]);
    expect(row.status).toBe('PROFESSIONAL_VERIFIED');
  });

  it('moves a user opened under the other role’s route to their own, replacing the history entry', async () => {
    const patient = await one<{ id: string }>(
      "SELECT id FROM users WHERE role = 'CUSTOMER' ORDER BY email LIMIT 1",
    );
    const doctor = await one<{ id: string }>(
      "SELECT id FROM users WHERE role = 'PROFESSIONAL' ORDER BY email LIMIT 1",
    );
    const title = (name: string) => page.getByRole('heading', { name, exact: true, level: 1 });
    for (const [wrong, right, list, listTitle, userTitle] of [
      [
        `/professionals/${patient.id}`,
        `/customers/${patient.id}`,
        '/customers',
        ptPT.routes.customers,
        ptPT.routes.customer,
      ],
      [
        `/customers/${doctor.id}`,
        `/professionals/${doctor.id}`,
        '/professionals',
        ptPT.routes.professionals,
        ptPT.routes.professional,
      ],
    ] as const) {
      await page.goto(`${server.url}${list}`);
      await title(listTitle).waitFor();
      await page.goto(`${server.url}${wrong}`);
      await page.waitForURL(`${server.url}${right}`);
      await title(userTitle).waitFor();
      await page.getByRole('heading', { name: ptPT.users.sections.profile }).waitFor();
      expect(new URL(page.url()).pathname).toBe(right);
      // Replaced, not pushed: Back returns to the list, not to the wrong address.
      await page.goBack();
      await page.waitForURL(`${server.url}${list}`);
      expect(new URL(page.url()).pathname).toBe(list);
    }
  });

  it('puts first in the palette what the ranking table says, on the seed', async () => {
    const doctor = await one<{ id: string }>(
      `SELECT id FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED' AND NOT disabled
        ORDER BY email LIMIT 1`,
    );
    const person = await one<{ id: string; email: string }>(
      "SELECT id, email FROM users WHERE email ~ '^[a-z]+\\.[a-z]+\\.[0-9]{3}@' AND role = 'CUSTOMER' ORDER BY email LIMIT 1",
    );
    /** Ctrl+K, type, and wait until the item under the cursor is the expected one (answers arrive late). */
    const firstFor = async (text: string, expected: string) => {
      await page.keyboard.press('Control+k');
      await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
      await page.keyboard.type(text);
      await page.waitForFunction(
        (label) => document.querySelector('[cmdk-item][aria-selected="true"]')?.textContent?.includes(label),
        expected,
      );
    };
    await page.goto(`${server.url}/professionals/${doctor.id}`);
    await page.getByRole('heading', { name: ptPT.users.sections.profile }).waitFor();
    await firstFor('verificar', ptPT.users.actions.verify);
    await page.keyboard.press('Escape');
    await firstFor('sair', ptPT.nav.logout);
    await page.keyboard.press('Escape');
    // A later part of the address ("lopes.211"), then Enter opens that patient.
    const part = person.email.split('@')[0]!.split('.').slice(1).join('.');
    await firstFor(part, person.email);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/customers/${person.id}`);
    // The URL changes before the patient's page has drawn: wait for the address, then count it.
    await page.getByText(person.email).first().waitFor();
    expect(await page.getByText(person.email).count()).toBeGreaterThan(0);
  });

  it('lists as many doctors to verify as the badge says', async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('v');
    await page.getByRole('heading', { name: ptPT.routes.professionalsVerification, level: 1 }).waitFor();
    await page.locator('.data-table-body-row').first().waitFor();
    const count = await badge('professionalsVerification');
    expect(await page.getByTestId('professionals-verification-total').textContent()).toBe(
      (count === 1 ? ptPT.table.total.one : ptPT.table.total.other).replace(
        '{{count}}',
        new Intl.NumberFormat('pt-PT').format(count),
      ),
    );
  });

  it('keeps the DOM row count bounded while scrolling the whole list', async () => {
    await page.goto(`${server.url}/customers`);
    await page.locator('.data-table-body-row').first().waitFor();
    const scroller = page.locator('.data-table-scroll');
    let max = 0;
    let deepest = 0;
    for (let i = 0; i < 40; i++) {
      await scroller.evaluate((el) => {
        el.scrollTop += el.clientHeight * 2;
      });
      await page.waitForTimeout(50);
      const stats = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('.data-table-body-row')];
        return { count: rows.length, last: Number(rows.at(-1)?.getAttribute('aria-rowindex') ?? 0) };
      });
      max = Math.max(max, stats.count);
      deepest = Math.max(deepest, stats.last);
    }
    expect(max).toBeGreaterThan(10);
    expect(max).toBeLessThanOrEqual(100);
    // Several keyset pages were loaded on the way down.
    expect(deepest).toBeGreaterThan(200);
    // 40 scroll steps, each waiting for rows: on a loaded 2-core CI machine this took over 30 s once.
  }, 120_000);
});
