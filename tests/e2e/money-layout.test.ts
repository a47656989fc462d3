import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
} from '../support/browser';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The horizontal gaps, in px, between neighbours of `selector` on one row (negative: they overlap). */
const gapsBetween = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const boxes = [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect());
    return boxes
      .slice(1)
      .filter((box, i) => Math.abs(box.top - boxes[i]!.top) < 4)
      .map((box, i) => Math.round(box.left - boxes[i]!.right));
  }, selector);

/** The table headers whose text does not fit (cut, with or without an ellipsis). */
const cutHeaders = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.data-table-sort, .data-table-row > th')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );

/** axe's ids of what it finds on the page now (WCAG 2.1 A and AA). */
async function axeIds(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: unknown): Promise<{ violations: { id: string }[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => v.id);
  });
}

/** Issue 29 point 11, the layout of the money screens at 1440 px, as the operator saw it. */
describe.skipIf(!hasChromium)('the money screens’ layout at 1440 px in Chromium', () => {
  const suite = chromiumSuite();

  it('tabs apart, headers whole, SEPA file buttons apart, /settlement’s list reachable by keyboard', async () => {
    const opened = await openTestPage(
      suite.browser,
      { viewport: { width: 1440, height: 900 }, bypassCSP: true },
      { consoleErrors: true },
    );
    const { page } = opened;
    try {
      await signInByKeyboard(page, suite.server);
      await page.goto(`${suite.server.url}/settlement`);
      await page.locator('.data-table-body-row').first().waitFor();
      await page.waitForLoadState('networkidle');
      const tabGaps = await gapsBetween(page, '.tabs [role="tab"]');
      expect(tabGaps.length).toBeGreaterThan(0);
      for (const gap of tabGaps) expect(gap).toBeGreaterThanOrEqual(4);
      expect(await cutHeaders(page)).toEqual([]);
      // Short enough that the list scrolls: its region must then be reachable by keyboard.
      await page.setViewportSize({ width: 1440, height: 420 });
      expect(
        await page.evaluate(() => {
          const scroll = document.querySelector('.data-table-scroll') as HTMLElement;
          return scroll.scrollHeight > scroll.clientHeight;
        }),
      ).toBe(true);
      expect(await axeIds(page)).not.toContain('scrollable-region-focusable');
      await page.setViewportSize({ width: 1440, height: 900 });

      const { rows } = await suite.server.db.query<{ id: string }>(
        `SELECT id FROM sepa_files ORDER BY created_at DESC LIMIT 1`,
      );
      await page.goto(`${suite.server.url}/sepa/${rows[0]!.id}`);
      await page.locator('.sepa-file .actions button').first().waitFor();
      const buttonGaps = await gapsBetween(page, '.sepa-file .actions button');
      expect(buttonGaps.length).toBeGreaterThan(0);
      for (const gap of buttonGaps) expect(gap).toBeGreaterThanOrEqual(4);
    } finally {
      await closeTestPage(opened);
    }
  }, 180_000);
});
