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

/**
 * What is out of shape on the page: a list's toolbar on two rows, a list scrolling sideways, or a
 * header or cell cut without an ellipsis.
 */
function overflows(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    // The toolbar (search, Filter, chips, total, columns) is one row: ~30 px, never two (issue 14).
    for (const toolbar of document.querySelectorAll<HTMLElement>('.data-table-toolbar'))
      if (toolbar.getBoundingClientRect().height > 48)
        found.push(`toolbar on more than one row: ${Math.round(toolbar.getBoundingClientRect().height)} px`);
    for (const scroll of document.querySelectorAll<HTMLElement>('.data-table-scroll'))
      if (scroll.scrollWidth > scroll.clientWidth + 1)
        found.push(`sideways scroll: ${scroll.scrollWidth} px of content in ${scroll.clientWidth} px`);
    const cut = (element: Element) => {
      const box = element as HTMLElement;
      if (box.scrollWidth <= box.clientWidth + 1) return false;
      // Cut with an ellipsis is allowed: the full text is then on hover (title) or in the row's page.
      return getComputedStyle(box).textOverflow !== 'ellipsis';
    };
    for (const cell of document.querySelectorAll(
      '.data-table-row > th, .data-table-row > td, .data-table-row .pill, .data-table-sort',
    ))
      if (cut(cell))
        found.push(
          `cut without an ellipsis: "${cell.textContent}" (${cell.tagName.toLowerCase()}.${(cell as HTMLElement).className})`,
        );
    return found;
  });
}

describe.skipIf(!hasChromium)('layout of every list in Chromium', () => {
  const suite = chromiumSuite();

  it.each([
    [1280, 720],
    [1920, 1080],
  ])(
    'at %i×%i toolbars are one row, nothing scrolls sideways or is cut without an ellipsis',
    async (width, height) => {
      // Console errors count too: a render loop shows there, not in the layout.
      const opened = await openTestPage(
        suite.browser,
        { viewport: { width, height } },
        { consoleErrors: true },
      );
      const { page } = opened;
      const findings: Record<string, string[]> = {};
      try {
        await signInByKeyboard(page, suite.server);
        for (const path of [...FIXED_PATHS, ...(await recordPaths(suite.server))]) {
          await page.goto(`${suite.server.url}${path}`);
          await page.locator('main h1, main h2').first().waitFor();
          await page.waitForLoadState('networkidle');
          const found = await overflows(page);
          if (found.length > 0) findings[path] = found;
        }
      } finally {
        await closeTestPage(opened);
      }
      expect(findings).toEqual({});
    },
    300_000,
  );
});
