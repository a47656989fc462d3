import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

interface TargetCase {
  id: string;
  professional_id: string;
  status: string;
  first_text: string;
  voice_ms: number;
  attachment_name: string;
  attachment_sha256: string;
  attachment_size: string;
}

describe.skipIf(!hasChromium)('cases and the case chat in Chromium, keyboard only', () => {
  let server: TestServer;
  let browser: Browser;
  let opened: TestPage;
  let page: Page;
  let target: TargetCase;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    // The open case with a voice message and an attachment that has the fewest messages to tab through.
    const { rows } = await server.db.query<TargetCase>(
      `SELECT c.id, c.professional_id, c.status,
              (SELECT m.text FROM case_messages m WHERE m.case_id = c.id AND m.type = 'TEXT'
                ORDER BY m.created_at, m.id LIMIT 1) AS first_text,
              (SELECT m.voice_duration_ms FROM case_messages m WHERE m.case_id = c.id AND m.type = 'VOICE'
                ORDER BY m.created_at, m.id LIMIT 1) AS voice_ms,
              f.original_name AS attachment_name, f.sha256 AS attachment_sha256, f.size_bytes::text AS attachment_size
         FROM cases c
         JOIN LATERAL (SELECT a.file_id FROM case_message_attachments a JOIN case_messages m ON m.id = a.message_id
                        WHERE m.case_id = c.id ORDER BY m.created_at, m.id, a.id LIMIT 1) first_file ON true
         JOIN stored_files f ON f.id = first_file.file_id
        WHERE NOT c.closed
          AND EXISTS (SELECT 1 FROM case_messages m WHERE m.case_id = c.id AND m.type = 'VOICE')
          AND EXISTS (SELECT 1 FROM case_messages m WHERE m.case_id = c.id AND m.type = 'TEXT')
        ORDER BY c.total_messages, c.id LIMIT 1`,
    );
    if (!rows[0]) throw new Error('the seed has no open case with text, voice and an attachment');
    target = rows[0];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    opened = await openTestPage(browser, { locale: 'en-US', acceptDownloads: true }, { consoleErrors: true });
    page = opened.page;
    await signInByKeyboard(page, server);
  });
  afterEach(() => closeTestPage(opened));

  it('lists every case under `g a`', async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL(`${server.url}/cases`);
    const { rows } = await server.db.query<{ n: string }>('SELECT count(*)::text AS n FROM cases');
    const total = page.getByTestId('cases-total');
    await total.getByText(new RegExp(`^${rows[0]?.n} `)).waitFor();
    expect((await total.textContent())?.split(' ')[0]).toBe(rows[0]?.n);
  });

  it("opens a case from its doctor's view, reads it, plays a voice message, downloads an attachment and closes it", async () => {
    const shortId = target.id.slice(0, 8);

    // The doctor's view embeds the cases table: `/` to search, Tab into the table, `j` to the row, `o` to open it.
    await page.goto(`${server.url}/professionals/${target.professional_id}`);
    const table = page.getByRole('table', { name: ptPT.routes.cases });
    await table.getByRole('row').nth(1).waitFor();
    await page.keyboard.press('/');
    await page.keyboard.type(shortId);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`[?&]q=${shortId}`));
    await table.getByRole('row').filter({ hasText: shortId }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2); // header and the one case
    await tabTo(page, (el) => el.closest('.data-table-scroll') !== null);
    await page.keyboard.press('j');
    await page.keyboard.press('o');
    await page.waitForURL(`${server.url}/chat/${target.id}`);

    // The header and the timeline.
    await page.getByRole('heading', { name: ptPT.routes.chat, level: 1 }).waitFor();
    const header = page.getByRole('region', { name: ptPT.chat.caseDetails });
    const statusLabel = (ptPT.cases.status as Record<string, string>)[target.status] as string;
    await header.getByText(statusLabel, { exact: true }).waitFor();
    await page.getByRole('log').getByText(target.first_text, { exact: true }).first().waitFor();

    // The voice message: Tab to its player, Space to play; the browser streams it with ranges.
    const voiceRanges: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v2/admin/case/voice/')) voiceRanges.push(r.headers().range ?? '');
    });
    await tabTo(page, (el) => el.classList.contains('voice-toggle'));
    await page.keyboard.press('Space');
    const audio = page.locator('audio').first();
    await audio.evaluate(
      (el: HTMLAudioElement) =>
        new Promise<void>((resolve, reject) => {
          if (!el.paused && el.currentTime > 0) return resolve();
          el.addEventListener('playing', () => resolve(), { once: true });
          el.addEventListener('error', () => reject(new Error(`audio error ${el.error?.code}`)), {
            once: true,
          });
        }),
    );
    const playback = await audio.evaluate((el: HTMLAudioElement) => ({
      duration: el.duration,
      paused: el.paused,
    }));
    expect(playback.paused).toBe(false);
    expect(Number.isFinite(playback.duration)).toBe(true);
    expect(playback.duration).toBeGreaterThan(0);
    expect(voiceRanges.some((range) => range.startsWith('bytes='))).toBe(true);
    await page.keyboard.press('Space'); // pause again before moving on

    // The first attachment: Tab to its link, Enter; the bytes are the stored file's.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await tabTo(page, (el) => el.classList.contains('attachment'));
        await page.keyboard.press('Enter');
      })(),
    ]);
    expect(download.suggestedFilename()).toBe(target.attachment_name);
    const bytes = readFileSync(await download.path());
    expect(bytes.length).toBe(Number(target.attachment_size));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(target.attachment_sha256);

    // Close it from the palette, through the confirmation dialog.
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(ptPT.cases.close.action);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: ptPT.cases.close.title });
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await header.getByText(ptPT.cases.status.CLOSED_BY_ADMIN, { exact: true }).waitFor();
    expect(await header.getByRole('button', { name: ptPT.cases.close.action }).count()).toBe(0);
    const { rows } = await server.db.query<{ status: string }>('SELECT status FROM cases WHERE id = $1', [
      target.id,
    ]);
    expect(rows[0]?.status).toBe('CLOSED_BY_ADMIN');
  }, 90_000);

  it('jumps to a case by the first characters of its id from the palette', async () => {
    const { rows } = await server.db.query<{ id: string; customer: string }>(
      `SELECT c.id, u.name AS customer FROM cases c JOIN users u ON u.id = c.customer_id ORDER BY c.created_at LIMIT 1`,
    );
    const wanted = rows[0] as { id: string; customer: string };
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(ptPT.palette.placeholder).waitFor();
    await page.keyboard.type(wanted.id.slice(0, 8));
    await page.getByRole('option', { name: new RegExp(wanted.customer) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/chat/${wanted.id}`);
    const details = page.getByRole('region', { name: ptPT.chat.caseDetails });
    await details.getByText(wanted.id).waitFor();
    expect(await details.getByText(wanted.id).count()).toBe(1);
    expect(await page.getByPlaceholder(ptPT.palette.placeholder).count()).toBe(0);
  });

  it('says the case was not found for an unknown id', async () => {
    await page.goto(`${server.url}/chat/00000000-0000-4000-8000-000000000000`);
    await page.locator('.screen-error').getByText(ptPT.errorMessages.CASE_NOT_FOUND).waitFor();
    expect(await page.getByRole('region', { name: ptPT.chat.caseDetails }).count()).toBe(0);
    // The browser logs the expected 404 of the messages call; nothing else may fail.
    opened.errors = opened.errors.filter((e) => !e.includes('status of 404'));
  });
});
