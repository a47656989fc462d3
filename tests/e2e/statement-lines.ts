import type { Locator, Page } from 'playwright-core';
import { pressUntil } from '../support/browser';
import { ptPT } from '../support/messages';

/** On the statements screen: the filter menu (`f`), its "text the bank printed" filter, `text` typed, closed. */
export async function filterLinesByText(page: Page, text: string): Promise<void> {
  await page.keyboard.press('f');
  await page.getByRole('menuitem', { name: ptPT.statements.lines.status }).waitFor();
  await pressUntil(page, 'ArrowDown', ptPT.statements.lines.text);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('text') === text);
  await page.keyboard.press('Escape');
}

/** The reconciliation table's active row, by its position (1-based, 0 when none), and whether it holds the focus. */
export const activeLine = (page: Page) =>
  page.evaluate(() => {
    const all = [...document.querySelectorAll('.statement-lines .data-table-body-row')];
    const at = all.findIndex((r) => r.hasAttribute('data-active'));
    return { row: at + 1, focused: at >= 0 && document.activeElement === all[at] };
  });

/** Each listed line's status, in the table's order. */
export const lineStatuses = (rows: Locator) =>
  rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-status')));
