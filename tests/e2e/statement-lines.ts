import type { Page } from 'playwright-core';
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
