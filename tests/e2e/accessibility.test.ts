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
import { FIXED_PATHS, recordPaths } from '../support/screens';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2.1 A and AA rules over the page as it is now. */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: unknown): Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
    }));
  });
}

/** What axe found, by where: only the places with something, so a clean run is `{}`. */
type Findings = Record<string, { id: string; help: string; targets: string[] }[]>;

describe.skipIf(!hasChromium)('accessibility (axe, WCAG 2.1 A and AA) in Chromium', () => {
  const suite = chromiumSuite();

  it.each(['pt-PT', 'en-GB'] as const)(
    'finds nothing on any screen in %s, nor with the palette, the help, a confirmation, the filter menu or a filter editor open',
    async (locale) => {
      // bypassCSP: the product's policy (script-src 'self') would refuse the injected axe script.
      const opened = await openTestPage(
        suite.browser,
        { viewport: { width: 1440, height: 900 }, bypassCSP: true },
        { consoleErrors: true },
      );
      const { context, page } = opened;
      await context.addCookies([{ name: 'i18n_redirected', value: locale, url: suite.server.url }]);
      const findings: Findings = {};
      const check = async (where: string) => {
        const found = await violations(page);
        if (found.length > 0)
          findings[where] = found.map((v) => ({
            id: v.id,
            help: v.help,
            targets: v.nodes.map((n) => n.target.join(' ')),
          }));
      };
      try {
        await page.goto(`${suite.server.url}/login`);
        await page.locator('h1').first().waitFor();
        await check('/login');
        await signInByKeyboard(page, suite.server);
        for (const path of [...FIXED_PATHS, ...(await recordPaths(suite.server))]) {
          await page.goto(`${suite.server.url}${path}`);
          await page.locator('main h1, main h2').first().waitFor();
          await page.waitForLoadState('networkidle');
          await check(path);
        }
        // Overlays, on a list (a table behind them).
        await page.goto(`${suite.server.url}/professionals`);
        await page.locator('.data-table-body-row').first().waitFor();
        await page.keyboard.press('?');
        await page.getByRole('dialog').waitFor();
        await check('/professionals + help');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+k');
        await page.locator('[cmdk-input]').waitFor();
        await check('/professionals + palette');
        await page.keyboard.press('Escape');
        await page.keyboard.press('j');
        await page.keyboard.press('x');
        await page.locator('.data-table-bulk button').first().click();
        await page.getByRole('alertdialog').waitFor();
        await check('/professionals + confirmation');
        await page.keyboard.press('Escape');
        await page.keyboard.press('f');
        await page.getByRole('menu').waitFor();
        await check('/professionals + filter menu');
        await page.keyboard.press('Enter'); // the status: its chip and its editor
        await page.getByRole('dialog').waitFor();
        await check('/professionals + status filter editor');
        await page.keyboard.press('Escape');
        await page.goto(`${suite.server.url}/professionals?createdFrom=2026-11-01&createdTo=2026-11-26`);
        await page.locator('.filter-chip-value').first().click();
        await page.getByRole('dialog').waitFor();
        await check('/professionals + date range editor');
        await page.keyboard.press('Escape');
      } finally {
        await closeTestPage(opened);
      }
      expect(findings).toEqual({});
    },
    300_000,
  );

  it('lets the keyboard reach every list’s scrolling region (axe scrollable-region-focusable), each list short enough to scroll', async () => {
    const opened = await openTestPage(
      suite.browser,
      // Short: the lists scroll, which is when the rule applies.
      { viewport: { width: 1440, height: 420 }, bypassCSP: true, locale: 'pt-PT' },
      { consoleErrors: true },
    );
    const { page } = opened;
    const found: Record<string, string[]> = {};
    const scrolled: string[] = [];
    try {
      await signInByKeyboard(page, suite.server);
      for (const path of FIXED_PATHS) {
        await page.goto(`${suite.server.url}${path}`);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        const regions = page.locator('.data-table-scroll');
        if ((await regions.count()) === 0) continue;
        // The first page has arrived when the total is written; a list the seed leaves empty (failed
        // exports) has nothing to scroll.
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.data-table-total')].some((el) => el.textContent?.trim()),
        );
        if ((await page.locator('.data-table-body-row').count()) === 0) continue;
        const { scrolls, untabbable } = await regions.evaluateAll((els) => {
          const scrolling = els.filter((el) => el.scrollHeight > el.clientHeight);
          return {
            scrolls: scrolling.length > 0,
            // The region itself in the Tab order (ScrollRegion), not only through what its rows hold
            // today (a sort button, a link): axe is content with either.
            untabbable: scrolling.filter((el) => (el as HTMLElement).tabIndex < 0).length,
          };
        });
        if (scrolls) scrolled.push(path);
        const ids = (await violations(page)).map((v) => v.id);
        if (ids.includes('scrollable-region-focusable') || untabbable > 0)
          found[path] = [...ids, `${untabbable} scrolling region(s) out of the Tab order`];
      }
    } finally {
      await closeTestPage(opened);
    }
    expect(found).toEqual({});
    // The rule was tried where it applies: the seed's lists scroll at this height.
    expect(scrolled).toEqual(
      expect.arrayContaining([
        '/customers',
        '/professionals',
        '/cases',
        '/settlement',
        '/statements',
        '/audit',
      ]),
    );
  }, 300_000);
});
