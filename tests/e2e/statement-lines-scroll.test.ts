import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  type TestPage,
} from '../support/browser';
import { ptPT } from '../support/messages';

/** Lines of the statement added here: six pages of the table's 500, enough to scroll far. */
const LINES = 3_000;
/** The table's bound on row elements (issue 12: "≤ ~100 row elements in the DOM"). */
const MAX_ROW_ELEMENTS = 100;

// Structure, not time: however far the reconciliation table is scrolled, it keeps a few dozen row
// elements (virtualised) while every line stays reachable. Times are bench/reconcile-table.ts's.
describe.skipIf(!hasChromium)('the reconciliation table scrolled far, in Chromium', () => {
  const suite = chromiumSuite();
  let opened: TestPage;

  beforeEach(async () => {
    opened = await openTestPage(suite.browser, { locale: 'pt-PT' });
    await signInByKeyboard(opened.page, suite.server);
  });
  afterEach(() => closeTestPage(opened));

  it(`keeps at most ${MAX_ROW_ELEMENTS} row elements from the first line to the last`, async () => {
    const { db } = suite.server;
    const sha = randomUUID().replace(/-/g, '').padEnd(64, '0');
    await db.query(
      `WITH f AS (INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
                  VALUES ('extrato-longo.csv', 'text/csv', 1, $1, 'x/' || $1) RETURNING id),
            s AS (INSERT INTO statement_files (file_id, file_name, format, sha256, line_count)
                  SELECT id, 'extrato-longo.csv', 'CSV', $1, $2 FROM f RETURNING id)
       INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, description)
       SELECT s.id, n, $1 || '-' || n, 2500 + (n % 20) * 250, date '2033-01-01' + (n % 360), 'Linha ' || n
       FROM s, generate_series(1, $2::int) AS n`,
      [sha, LINES],
    );
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_lines');
    const total = rows[0]!.n;

    const { page } = opened;
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: ptPT.routes.statements, level: 1 }).waitFor();
    const rowsShown = page.locator('.statement-lines .data-table-body-row');
    await rowsShown.first().waitFor();

    const counts: number[] = [];
    let last = 0;
    for (let step = 0; step < 200 && last < total; step++) {
      const seen = await page.evaluate(async () => {
        const scroller = document.querySelector<HTMLElement>('.statement-lines .data-table-scroll')!;
        scroller.scrollTop = scroller.scrollHeight;
        await new Promise(requestAnimationFrame);
        await new Promise(requestAnimationFrame);
        const found = [...document.querySelectorAll('.statement-lines .data-table-body-row')];
        return { count: found.length, last: Number(found.at(-1)?.getAttribute('aria-rowindex') ?? 1) - 1 };
      });
      counts.push(seen.count);
      if (seen.last === last)
        // The next page is on its way: wait until the table holds more lines than the last one shown.
        await page.waitForFunction(
          (shown) =>
            Number(document.querySelector('.statement-lines table')?.getAttribute('aria-rowcount')) - 1 >
            shown,
          last,
        );
      last = seen.last;
    }
    expect(last).toBe(total);
    expect(counts.length).toBeGreaterThan(LINES / 500);
    expect(Math.max(...counts)).toBeLessThanOrEqual(MAX_ROW_ELEMENTS);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
});
