import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCents } from '../../domain/money';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { ptPT } from '../support/messages';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Issue 29 point 10, keyboard only: the palette reaches a SEPA file by its MsgId, a statement line by
// its amount as typed, and on the file's page offers the file's actions.
describe.skipIf(!hasChromium)('the palette reaches the money, in Chromium', () => {
  const suite = chromiumSuite();
  let opened: TestPage;
  let page: Page;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT', viewport: { width: 1440, height: 900 } });
    page = opened.page;
    await signInByKeyboard(page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  const openPalette = async () => {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
  };

  it('opens a SEPA file from its MsgId typed whole: Enter runs the file, not another command', async () => {
    const { rows } = await suite.server.db.query<{ id: string; msg_id: string }>(
      'SELECT id, msg_id FROM sepa_files ORDER BY created_at, id LIMIT 1',
    );
    const file = rows[0]!;
    await openPalette();
    await page.keyboard.type(file.msg_id);
    await page
      .getByRole('option', { name: new RegExp(escapeRegExp(file.msg_id)) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.server.url}/sepa/${file.id}`);
    const heading = page.getByRole('heading', { name: new RegExp(escapeRegExp(file.msg_id)) });
    await heading.waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sepa/${file.id}`);
    expect(await heading.textContent()).toContain(file.msg_id);
  });

  it('opens a statement line from its amount typed with a comma: its file narrowed to the line', async () => {
    // A line whose amount no other line has, so the one found is the one meant.
    const { rows } = await suite.server.db.query<{ id: string; statement_file_id: string; cents: string }>(
      `SELECT min(l.id::text) AS id, min(l.statement_file_id::text) AS statement_file_id, abs(l.bank_amount_cents)::text AS cents
         FROM statement_lines l GROUP BY abs(l.bank_amount_cents) HAVING count(*) = 1
        ORDER BY 3 DESC LIMIT 1`,
    );
    const line = rows[0]!;
    const cents = Number(line.cents);
    const typed = `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    await openPalette();
    await page.keyboard.type(typed);
    const shown = formatCents(cents, 'pt-PT').replace(/\s*€$/, '');
    await page
      .getByRole('option', { name: new RegExp(escapeRegExp(shown)) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/statements');
    const url = new URL(page.url());
    expect(url.searchParams.get('statementFileId')).toBe(line.statement_file_id);
    expect(Math.abs(Number(url.searchParams.get('minCents')))).toBe(cents);
    expect(url.searchParams.get('minCents')).toBe(url.searchParams.get('maxCents'));
    // The line is the one row the table shows.
    const rowsShown = page.locator('.statement-lines .data-table-body-row');
    await rowsShown.filter({ hasText: shown }).first().waitFor({ timeout: 10_000 });
    expect(await rowsShown.count()).toBe(1);
  });

  it('offers a GENERATED file’s actions on its page, and runs a mark through its confirmation', async () => {
    const { rows } = await suite.server.db.query<{ id: string; msg_id: string }>(
      "SELECT id, msg_id FROM sepa_files WHERE status = 'GENERATED' ORDER BY created_at, id LIMIT 1",
    );
    const file = rows[0]!;
    await page.goto(`${suite.server.url}/sepa/${file.id}`);
    await page.getByRole('heading', { name: new RegExp(escapeRegExp(file.msg_id)) }).waitFor();
    await openPalette();
    const palette = page.getByRole('dialog', { name: ptPT.palette.label });
    for (const label of [
      ptPT.sepa.file.markAvailable,
      ptPT.financePalette.downloadXml,
      ptPT.financePalette.downloadXlsx,
      ptPT.financePalette.uploadStatusReport,
      ptPT.financePalette.fileHistory,
    ])
      await palette
        .getByRole('option', { name: new RegExp(escapeRegExp(label)) })
        .first()
        .waitFor({ timeout: 5000 });
    // A mark goes through the same confirmation as its button; Escape leaves the file as it was.
    await page.keyboard.type(ptPT.sepa.file.markAvailable);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', {
      name: ptPT.sepa.file.markAvailableTitle.replace('{{msgId}}', file.msg_id),
    });
    await confirm.waitFor({ timeout: 5000 });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached', timeout: 5000 });
    const after = await suite.server.db.query<{ status: string }>(
      'SELECT status FROM sepa_files WHERE id = $1',
      [file.id],
    );
    expect(after.rows[0]!.status).toBe('GENERATED');
    // The history command opens the audit log narrowed to the file.
    await openPalette();
    await page.keyboard.type(ptPT.financePalette.fileHistory);
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/audit' && url.searchParams.get('entityId') === file.id,
      {
        timeout: 5000,
      },
    );
  });
});
