import './jsdom-beside-server';
import { cleanup, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import lazyEnGB from '../../../locales/statements.en-GB.json';
import { dashboardQuery } from '../../../src/api/dashboard';
import { settlementKeys } from '../../../src/api/finance';
import { sepaKeys } from '../../../src/api/sepa';
import { statementKeys } from '../../../src/api/statements';
import { issueToken } from '../../api/harness';
import { type SepaWorld, startSepaWorld } from '../../api/sepa-support';
import { importStatement, insertPayout, type NewLine } from '../../api/statements-reconcile-support';
import { testDatabaseKinds } from '../../support/databases';
import { clearCookies } from './fake-api';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';
import { renderApp } from './render-app';

// Testing Library's `screen` was bound before this file made a document (the setup file loads it).
const screen = within(document.body);

/**
 * The reconciliation keys of issue 12 item 5 driven through the real console in jsdom against the real
 * API on PGlite (over HTTP, the console's relative `/v2/…` calls sent to the test server; the document
 * comes from `jsdom-beside-server`, as this file runs in the node environment): each test
 * checks what the admin sees and, by its own SQL, what the server recorded.
 */

const text = lazyEnGB.statements;
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
const pglite = testDatabaseKinds().find((kind) => kind.name === 'pglite')!;
const realFetch = globalThis.fetch;

beforeAll(fillJsdomGaps);
layOutTables();

let world: SepaWorld;
let token: string;
beforeAll(async () => {
  world = await startSepaWorld(pglite);
  token = await issueToken(world.db, world.adminId);
});
afterAll(() => world.stop());
beforeEach(() => {
  // As a browser on the console's origin sends them: its cookies (the session cookie renderApp put in
  // jsdom's jar) and its Origin, which the API checks on mutations that come with the cookie.
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('cookie', document.cookie);
    headers.set('origin', world.url);
    return realFetch(new URL(String(input), world.url), { ...init, headers });
  });
});
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

/** A statement of these lines (one day apart, so the table lists them in line order), shown alone. */
async function openStatement(
  lines: NewLine[],
  options: {
    closingCents?: number;
    /** Done before the table reads the lines (another admin's actions). */
    before?: (lineIds: string[]) => Promise<void>;
    /** More of the table's URL filters. */
    query?: string;
  } = {},
) {
  const dated = lines.map((line, i) => ({ bankDate: `2026-03-${String(10 + i).padStart(2, '0')}`, ...line }));
  const imported = await importStatement(world, dated, options);
  await options.before?.(imported.lineIds);
  const { queryClient } = renderApp(
    `/statements?statementFileId=${imported.fileId}${options.query ? `&${options.query}` : ''}`,
    { token },
  );
  await waitFor(() => expect(rowAt(Math.min(lines.length, 20))).not.toBeNull());
  (document.activeElement as HTMLElement | null)?.blur();
  return { ...imported, queryClient };
}

const table = () => screen.getByRole('table', { name: text.lines.label });
// The statement is imported as the bank sends it (a camt.053, whose line numbers are the XML's): line n
// is the nth row of the table, which lists the lines in file order.
const rows = () => [...table().querySelectorAll<HTMLElement>('tr[data-line]')];
const rowAt = (line: number) => rows()[line - 1] ?? null;
/** The line number the console names the nth row by (the file's own). */
const lineNumberOf = (line: number) => rowAt(line)!.getAttribute('data-line')!;
const activeLine = () => {
  const index = rows().findIndex((row) => row.hasAttribute('data-active'));
  return index < 0 ? null : String(index + 1);
};
const statusOf = (line: number) => rowAt(line)?.getAttribute('data-status');
const waitForStatus = (line: number, status: string) => waitFor(() => expect(statusOf(line)).toBe(status));

/** `j` from a fresh table down to `line` (line n is the nth row). */
async function goTo(user: UserEvent, line: number) {
  await user.keyboard('j'.repeat(line));
  expect(activeLine()).toBe(String(line));
}

/** The files list's row of this statement (every test's files are listed). */
async function fileRowOf(fileId: string) {
  const { rows } = await world.db.query<{ file_name: string }>(
    'SELECT file_name FROM statement_files WHERE id = $1',
    [fileId],
  );
  const list = await screen.findByTestId('statement-files');
  return (await waitFor(() => {
    const row = list.querySelector<HTMLElement>(`tr[data-file="${rows[0]!.file_name}"]`);
    expect(row).not.toBeNull();
    return row;
  })) as HTMLElement;
}

/** Tab until `target` has the focus (bounded). */
async function tabTo(user: UserEvent, target: HTMLElement, limit = 30) {
  for (let i = 0; i < limit && document.activeElement !== target; i++) await user.keyboard('{Tab}');
  expect(document.activeElement).toBe(target);
}

/** The picker's checkbox of the candidate of this amount. */
const checkboxOf = (dialog: HTMLElement, amount: string) => {
  const item = within(dialog)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(amount));
  return within(item as HTMLElement).getByRole('checkbox');
};

/** The line number the console shows for this line. */
const lineNumberById = async (id: string) =>
  String(
    (
      await world.db.query<{ line_number: number }>('SELECT line_number FROM statement_lines WHERE id = $1', [
        id,
      ])
    ).rows[0]!.line_number,
  );
const lineRow = async (id: string) =>
  (
    await world.db.query<{ status: string; notes: string | null; difference_cents: string | null }>(
      'SELECT status, notes, difference_cents FROM statement_lines WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const matchedPayouts = async (id: string) =>
  (
    await world.db.query<{ payout_id: string }>(
      `SELECT payout_id FROM statement_line_matches WHERE statement_line_id = $1 AND state = 'MATCHED'
        ORDER BY payout_id`,
      [id],
    )
  ).rows.map((r) => r.payout_id);

describe('statement lines reconciled by keyboard (jsdom, real API on PGlite)', () => {
  it('j and k move the active row down and up, never past the ends', async () => {
    const user = userEvent.setup();
    await openStatement([{ amountCents: -101 }, { amountCents: -102 }, { amountCents: -103 }]);
    expect(activeLine()).toBeNull();
    await user.keyboard('j');
    expect(activeLine()).toBe('1');
    await user.keyboard('jjjj');
    expect(activeLine()).toBe('3');
    await user.keyboard('k');
    expect(activeLine()).toBe('2');
    await user.keyboard('kkk');
    expect(activeLine()).toBe('1');
  });

  it('1, 2 and 3 take that ranked candidate: its amount is the line’s, so it is matched at once', async () => {
    const user = userEvent.setup();
    const near = await insertPayout(world.db, 4_321, '2026-03-10');
    const far = await insertPayout(world.db, 4_321, '2026-03-05');
    const near2 = await insertPayout(world.db, 5_432, '2026-03-11');
    const far2 = await insertPayout(world.db, 5_432, '2026-03-06');
    const third = [
      await insertPayout(world.db, 6_543, '2026-03-12'),
      await insertPayout(world.db, 6_543, '2026-03-10'),
      await insertPayout(world.db, 6_543, '2026-03-08'),
    ];
    const { lineIds } = await openStatement([
      { amountCents: 4_321, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
      { amountCents: 5_432, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
      { amountCents: 6_543, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    await goTo(user, 1);
    await user.keyboard('2');
    await waitForStatus(1, 'MATCHED');
    expect(await matchedPayouts(lineIds[0]!)).toEqual([far]);
    // Each match moves the cursor on to the next open line (decision 0169): no `j` between them.
    await waitFor(() => expect(activeLine()).toBe('2'));
    await user.keyboard('1');
    await waitForStatus(2, 'MATCHED');
    expect(await matchedPayouts(lineIds[1]!)).toEqual([near2]);
    expect((await lineRow(lineIds[1]!)).status).toBe('MATCHED');
    await waitFor(() => expect(activeLine()).toBe('3'));
    await user.keyboard('3');
    await waitForStatus(3, 'MATCHED');
    expect(await matchedPayouts(lineIds[2]!)).toEqual([third[2]]);
    // The candidates not taken are still open.
    expect(
      (
        await world.db.query(
          'SELECT 1 FROM statement_line_matches WHERE payout_id = ANY($1) AND state = $2',
          [[near, far2, third[0], third[1]], 'MATCHED'],
        )
      ).rows.length,
    ).toBe(0);
  });

  it('the table’s keys go through the one dispatcher: under an open dialog, focus lost to the page, u unmatches nothing', async () => {
    const user = userEvent.setup();
    const payout = await insertPayout(world.db, 7_654, '2026-03-10');
    const { lineIds } = await openStatement([
      { amountCents: 7_654, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    await goTo(user, 1);
    await user.keyboard('1');
    await waitForStatus(1, 'MATCHED');
    await user.keyboard('n');
    const note = await screen.findByRole('dialog', {
      name: fill(text.dialog.noteTitle, { line: lineNumberOf(1) }),
    });
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('u');
    expect(note.isConnected).toBe(true);
    // An unmatch, had one been sent, answers within this time in the other tests.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await user.keyboard('{Escape}');
    expect((await lineRow(lineIds[0]!)).status).toBe('MATCHED');
    expect(await matchedPayouts(lineIds[0]!)).toEqual([payout]);
    expect(statusOf(1)).toBe('MATCHED');
  });

  it('1 on a candidate of another amount opens the picker with it ticked and asks for the note', async () => {
    const user = userEvent.setup();
    const payout = await insertPayout(world.db, 7_100, '2026-06-15');
    const { lineIds } = await openStatement([
      { amountCents: 7_000, bankDate: '2026-06-15', counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    await goTo(user, 1);
    await user.keyboard('1');
    const dialog = await screen.findByRole('dialog', {
      name: fill(text.dialog.matchTitle, { line: lineNumberOf(1), amount: '€70.00' }),
    });
    await waitFor(() => expect(checkboxOf(dialog, '€71.00')).toHaveProperty('checked', true));
    expect(within(dialog).getByRole('alert').textContent).toContain('€1.00');
    expect((await lineRow(lineIds[0]!)).status).toBe('UNMATCHED');
    await tabTo(user, within(dialog).getByRole('textbox'));
    await user.keyboard('Comissão do prestador');
    await tabTo(user, within(dialog).getByRole('button', { name: text.dialog.match }));
    await user.keyboard('{Enter}');
    await waitForStatus(1, 'DISCREPANCY');
    const row = await lineRow(lineIds[0]!);
    expect(row).toMatchObject({ status: 'DISCREPANCY', notes: 'Comissão do prestador' });
    expect(Number(row.difference_cents)).toBe(-100);
    expect(
      await world.db.query('SELECT payout_id FROM statement_line_matches WHERE statement_line_id = $1', [
        lineIds[0],
      ]),
    ).toMatchObject({ rows: [{ payout_id: payout }] });
  });

  it('m opens the picker: candidates ranked with their explained score; two payouts that add up match one line', async () => {
    const user = userEvent.setup();
    const big = await insertPayout(world.db, 6_000, '2026-03-10');
    const small = await insertPayout(world.db, 4_000, '2026-03-10');
    const { lineIds } = await openStatement([
      { amountCents: 10_000, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    await goTo(user, 1);
    await user.keyboard('m');
    const dialog = await screen.findByRole('dialog', {
      name: fill(text.dialog.matchTitle, { line: lineNumberOf(1), amount: '€100.00' }),
    });
    const items = await within(dialog).findAllByRole('listitem');
    const candidates = items.map((item) => item.textContent ?? '');
    const ofPayout = (cents: string) => candidates.findIndex((c) => c.includes(cents));
    expect(ofPayout('€60.00')).toBeGreaterThanOrEqual(0);
    expect(ofPayout('€40.00')).toBeGreaterThanOrEqual(0);
    for (const candidate of candidates) {
      expect(candidate).toMatch(/ \d+ points/);
      expect(candidate).toMatch(/amount [✓✗] · date ±\d+ d · reference [✓✗] · name \d+ %/);
    }
    const points = candidates.map((c) => Number(/ (\d+) points/.exec(c)?.[1]));
    expect(points).toEqual([...points].sort((a, b) => b - a));
    // The best candidate has the focus once the list is in; Tab reaches each part, Space ticks it (other
    // tests' payouts may be listed too).
    expect(document.activeElement).toBe(within(dialog).getAllByRole('checkbox')[0]);
    await tabTo(user, checkboxOf(dialog, '€60.00'));
    await user.keyboard(' ');
    expect(within(dialog).getByRole('alert').textContent).toBe(
      fill(text.dialog.discrepancy, { difference: '€40.00' }),
    );
    await tabTo(user, checkboxOf(dialog, '€40.00'));
    await user.keyboard(' ');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await tabTo(user, within(dialog).getByRole('button', { name: text.dialog.match }));
    await user.keyboard('{Enter}');
    await waitForStatus(1, 'MATCHED');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await matchedPayouts(lineIds[0]!)).toEqual([big, small].sort());
  });

  it('m with a counterpart that does not add up: the difference is shown, a note is required, DISCREPANCY recorded', async () => {
    const user = userEvent.setup();
    const payout = await insertPayout(world.db, 8_000, '2026-03-10');
    const { lineIds } = await openStatement([
      { amountCents: 9_000, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    await goTo(user, 1);
    await user.keyboard('m');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findAllByRole('checkbox');
    await tabTo(user, checkboxOf(dialog, '€80.00'));
    await user.keyboard(' ');
    expect(within(dialog).getByRole('alert').textContent).toBe(
      fill(text.dialog.discrepancy, { difference: '€10.00' }),
    );
    const submit = within(dialog).getByRole('button', { name: text.dialog.match });
    expect(submit).toHaveProperty('disabled', true);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog')).toBe(dialog);
    await user.keyboard('{Tab}');
    await tabTo(user, within(dialog).getByRole('textbox'));
    await user.keyboard('Taxa do prestador');
    await tabTo(user, submit);
    await user.keyboard('{Enter}');
    await waitForStatus(1, 'DISCREPANCY');
    const row = await lineRow(lineIds[0]!);
    expect(row).toMatchObject({ status: 'DISCREPANCY', notes: 'Taxa do prestador' });
    expect(Number(row.difference_cents)).toBe(1_000);
    expect(
      (
        await world.db.query(
          'SELECT 1 FROM statement_line_matches WHERE statement_line_id = $1 AND payout_id = $2',
          [lineIds[0], payout],
        )
      ).rows.length,
    ).toBe(1);
  });

  it('i ignores with a note (none: nothing sent), n adds a note, h shows who did what, before → after', async () => {
    const user = userEvent.setup();
    const { lineIds } = await openStatement([
      { amountCents: -250, kind: 'fee', description: 'COMISSAO' },
      { amountCents: -300, kind: 'fee', description: 'IMPOSTO SELO' },
    ]);
    await goTo(user, 2);
    await user.keyboard('i');
    const ignore = await screen.findByRole('dialog', {
      name: fill(text.dialog.ignoreTitle, { line: lineNumberOf(2) }),
    });
    expect(within(ignore).getByRole('button', { name: text.dialog.save })).toHaveProperty('disabled', true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await lineRow(lineIds[1]!)).status).toBe('UNMATCHED');

    await user.keyboard('i');
    await screen.findByRole('dialog', { name: fill(text.dialog.ignoreTitle, { line: lineNumberOf(2) }) });
    await user.keyboard('Comissão bancária{Tab}{Tab}{Enter}');
    await waitForStatus(2, 'IGNORED');
    expect(await lineRow(lineIds[1]!)).toMatchObject({ status: 'IGNORED', notes: 'Comissão bancária' });
    expect((await lineRow(lineIds[0]!)).status).toBe('UNMATCHED');

    await user.keyboard('n');
    await screen.findByRole('dialog', { name: fill(text.dialog.noteTitle, { line: lineNumberOf(2) }) });
    await user.keyboard('Cartão 1234{Tab}{Tab}{Enter}');
    await waitFor(() => expect(rowAt(2)?.textContent).toContain('IMPOSTO SELO'));
    await waitFor(async () => expect((await lineRow(lineIds[1]!)).notes).toBe('Cartão 1234'));
    expect((await lineRow(lineIds[1]!)).status).toBe('IGNORED');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.keyboard('h');
    const history = await screen.findByRole('dialog', {
      name: fill(text.dialog.historyTitle, { line: lineNumberOf(2) }),
    });
    const entries = await within(history).findAllByRole('listitem');
    const recorded = await world.db.query<{ action: string }>(
      'SELECT action FROM statement_line_history WHERE statement_line_id = $1 ORDER BY id',
      [lineIds[1]],
    );
    expect(recorded.rows.map((r) => r.action)).toEqual(['IGNORED', 'NOTE']);
    // The import first, then each recorded action, by the admin, with what it changed.
    expect(entries).toHaveLength(1 + recorded.rows.length);
    expect(entries[1]?.textContent).toContain(`admin · ${text.history.IGNORED}`);
    // Values as people read them (issue 29 point 8): the status translated, no JSON.
    expect(entries[1]?.textContent).toContain(`${text.status.UNMATCHED} → ${text.status.IGNORED}`);
    expect(entries[2]?.textContent).toContain(`admin · ${text.history.NOTE}`);
    expect(entries[2]?.textContent).toContain('Cartão 1234');
    for (const entry of entries) expect(entry.textContent).not.toMatch(/[{}"]|IGNORED|UNMATCHED/);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('x and Shift+x select a range; Shift+a accepts every selected suggestion at once, and only those, saying why it left one', async () => {
    const user = userEvent.setup();
    const amounts = [2_101, 2_102, 2_103, 2_104];
    for (const [i, amount] of amounts.entries())
      await insertPayout(world.db, amount, `2026-03-${String(10 + i).padStart(2, '0')}`);
    const { lineIds } = await openStatement(
      amounts.map((amountCents) => ({ amountCents, counterpartyName: 'Stripe', description: 'TRF STRIPE' })),
    );
    for (const line of [1, 2, 3, 4]) expect(statusOf(line)).toBe('SUGGESTED');
    // The suggestion with its score in points out of 100 (the wire's 0–1 score, never shown raw).
    expect(rowAt(1)?.textContent).toMatch(/po_\w+ · \d+ points/);
    await goTo(user, 1);
    await user.keyboard('x');
    await user.keyboard('jj{Shift>}X{/Shift}');
    const status = screen.getByTestId('statement-lines-status');
    expect(status.textContent).toContain(fill(text.lines.selected.other, { count: 3 }));
    expect([1, 2, 3, 4].map((line) => rowAt(line)?.getAttribute('aria-selected'))).toEqual([
      'true',
      'true',
      'true',
      'false',
    ]);
    // The third payout's amount changes under its suggestion: the bulk accept leaves that line, and says why.
    await world.db.query('UPDATE provider_payouts SET amount_cents = 2113 WHERE amount_cents = 2103');
    await user.keyboard('{Shift>}A{/Shift}');
    await waitFor(() =>
      expect(status.textContent).toContain(
        `${fill(text.lines.accepted, { accepted: 2, skipped: 1 })} (${fill(text.lines.skippedBecause.amountDiffers, { count: 1 })})`,
      ),
    );
    // The answer holds counts only (decision 0108): the rows change when the table's refetch lands.
    await waitFor(() => expect([1, 2, 3].map(statusOf)).toEqual(['MATCHED', 'MATCHED', 'SUGGESTED']));
    expect(statusOf(4)).toBe('SUGGESTED');
    const recorded = await world.db.query<{ status: string }>(
      'SELECT status FROM statement_lines WHERE id = ANY($1::uuid[]) ORDER BY line_number',
      [lineIds],
    );
    expect(recorded.rows.map((r) => r.status)).toEqual(['MATCHED', 'MATCHED', 'SUGGESTED', 'SUGGESTED']);
    const bulk = await world.db.query(`SELECT 1 FROM statement_actions WHERE kind = 'BULK_ACCEPT'`);
    expect(bulk.rows.length).toBe(1);
    expect(status.textContent).not.toContain(fill(text.lines.selected.other, { count: 3 }));
  });

  it('x selects; Shift+i ignores the selected open lines with one note after their count and sum, reports one matched meanwhile, and z puts them back as one', async () => {
    const user = userEvent.setup();
    await insertPayout(world.db, 2_201, '2026-03-13');
    const fee = (amountCents: number) => ({ amountCents, kind: 'fee' as const, description: 'COMISSAO' });
    const { lineIds } = await openStatement([
      fee(-125),
      fee(-250),
      fee(-500),
      { amountCents: 2_201, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    expect(statusOf(4)).toBe('SUGGESTED');
    await goTo(user, 1);
    await user.keyboard('xjjjx');
    // Another admin accepts line 4's suggestion: this table still shows it open.
    const accepted = await realFetch(`${world.url}/v2/admin/statements/lines/${lineIds[3]}/accept`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(accepted.status).toBe(200);
    await user.keyboard('{Shift>}I{/Shift}');
    const dialog = await screen.findByRole('dialog', { name: text.bulkIgnore.title });
    expect(within(dialog).getByTestId('bulk-count').textContent).toBe(
      fill(text.bulkIgnore.selection.other, { count: 2, sum: '€20.76' }),
    );
    // Enter without the note ignores nothing.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: text.bulkIgnore.title })).toBe(dialog);
    await user.keyboard('Bank fees{Enter}');
    const status = screen.getByTestId('statement-lines-status');
    await waitFor(() =>
      expect(status.textContent).toContain(
        `${fill(text.lines.ignored, { ignored: 1, skipped: 1 })} (${fill(text.lines.skippedBecause.notOpen, { count: 1 })})`,
      ),
    );
    await waitFor(() =>
      expect([1, 2, 3, 4].map(statusOf)).toEqual(['IGNORED', 'UNMATCHED', 'UNMATCHED', 'MATCHED']),
    );
    expect((await lineRow(lineIds[0]!)).notes).toBe('Bank fees');
    await user.keyboard('z');
    await waitFor(() => expect(statusOf(1)).toBe('UNMATCHED'));
    expect((await lineRow(lineIds[0]!)).status).toBe('UNMATCHED');
  });

  it('a match, one or many at once, leaves the money screens and home cards to be asked again (a file paid, a doctor blocked)', async () => {
    const user = userEvent.setup();
    await insertPayout(world.db, 3_101, '2026-03-10');
    await insertPayout(world.db, 3_102, '2026-03-11');
    const { queryClient } = await openStatement([
      { amountCents: 3_101, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
      { amountCents: 3_102, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
    ]);
    // What those screens showed before the match, as their queries keep it.
    const moneyKeys = [sepaKeys.blocked, sepaKeys.files, settlementKeys.list, dashboardQuery.queryKey];
    const seen = () => {
      for (const key of moneyKeys) queryClient.setQueryData(key, { items: [], nextCursor: null, total: 0 });
    };
    const asked = () => moneyKeys.map((key) => queryClient.getQueryState(key)?.isInvalidated);
    seen();
    await goTo(user, 1);
    await user.keyboard('1');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(asked()).toEqual([true, true, true, true]));
    seen();
    expect(asked()).toEqual([false, false, false, false]);
    await user.keyboard('jx{Shift>}A{/Shift}');
    await waitForStatus(2, 'MATCHED');
    await waitFor(() => expect(asked()).toEqual([true, true, true, true]));
  });

  it('z undoes the last action, then the one before: a note, an ignore, a match picked with m', async () => {
    const user = userEvent.setup();
    const payout = await insertPayout(world.db, 7_300, '2026-03-10');
    const { lineIds } = await openStatement([
      { amountCents: 7_700, counterpartyName: 'Stripe', description: 'TRF STRIPE' },
      { amountCents: -410, kind: 'fee', description: 'COMISSAO' },
    ]);
    const [credit, fee] = lineIds as [string, string];
    const before = await lineRow(credit);

    await goTo(user, 1);
    await user.keyboard('m');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findAllByRole('checkbox');
    await tabTo(user, checkboxOf(dialog, '€73.00'));
    await user.keyboard(' ');
    await tabTo(user, within(dialog).getByRole('textbox'));
    await user.keyboard('Taxa');
    await tabTo(user, within(dialog).getByRole('button', { name: text.dialog.match }));
    await user.keyboard('{Enter}');
    await waitForStatus(1, 'DISCREPANCY');
    expect(await matchedPayouts(credit)).toEqual([payout]);

    await user.keyboard('j');
    await user.keyboard('i');
    await screen.findByRole('dialog', { name: fill(text.dialog.ignoreTitle, { line: lineNumberOf(2) }) });
    await user.keyboard('Comissão{Tab}{Tab}{Enter}');
    await waitForStatus(2, 'IGNORED');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('n');
    await screen.findByRole('dialog', { name: fill(text.dialog.noteTitle, { line: lineNumberOf(2) }) });
    await user.keyboard('Cartão 99{Tab}{Tab}{Enter}');
    await waitFor(async () => expect((await lineRow(fee)).notes).toBe('Cartão 99'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Each z waits for the server's answer before the next is sent (one pending action at a time).
    await user.keyboard('z');
    await waitFor(async () =>
      expect(await lineRow(fee)).toMatchObject({ status: 'IGNORED', notes: 'Comissão' }),
    );
    await user.keyboard('z');
    await waitForStatus(2, 'UNMATCHED');
    expect(await lineRow(fee)).toMatchObject({ status: 'UNMATCHED', notes: null });
    expect(statusOf(1)).toBe('DISCREPANCY');
    await user.keyboard('z');
    await waitForStatus(1, before.status);
    expect(await lineRow(credit)).toEqual(before);
    expect(await matchedPayouts(credit)).toEqual([]);
    const undone = await world.db.query<{ kind: string }>(
      `SELECT kind FROM statement_actions
        WHERE undone_by IS NOT NULL AND (strpos(lines::text, $1) > 0 OR strpos(lines::text, $2) > 0)
        ORDER BY kind`,
      [credit, fee],
    );
    expect(undone.rows.map((r) => r.kind)).toEqual(['IGNORE', 'MATCH', 'NOTE']);
  });

  it('a file can be marked reconciled only when every line is matched or ignored and the balances agree', async () => {
    const user = userEvent.setup();
    const { fileId } = await openStatement([{ amountCents: -700, kind: 'fee', description: 'COMISSAO' }]);
    const files = await fileRowOf(fileId);
    const mark = () =>
      within(files).getByRole('button', { name: text.files.markReconciled }) as HTMLButtonElement;
    const fileRow = () => files;
    expect(mark().disabled).toBe(true);
    expect(fileRow().textContent).toContain(fill(text.files.progressValue, { done: 0, total: 1 }));
    await goTo(user, 1);
    await user.keyboard('i');
    await screen.findByRole('dialog');
    await user.keyboard('Comissão{Tab}{Tab}{Enter}');
    await waitForStatus(1, 'IGNORED');
    await waitFor(() => expect(mark().disabled).toBe(false));
    expect(fileRow().textContent).toContain(fill(text.files.progressValue, { done: 1, total: 1 }));
    mark().focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(within(files).queryByRole('button', { name: text.files.markReconciled })).toBeNull(),
    );
    const recorded = await world.db.query<{ reconciled_by: string | null }>(
      'SELECT reconciled_by FROM statement_files WHERE id = $1',
      [fileId],
    );
    expect(recorded.rows[0]?.reconciled_by).toBe(world.adminId);
  });

  it('a file whose balances do not agree cannot be marked reconciled, even with every line done', async () => {
    const user = userEvent.setup();
    const { fileId } = await openStatement([{ amountCents: -700, kind: 'fee', description: 'COMISSAO' }], {
      closingCents: -600,
    });
    const files = await fileRowOf(fileId);
    await goTo(user, 1);
    await user.keyboard('i');
    await screen.findByRole('dialog');
    await user.keyboard('Comissão{Tab}{Tab}{Enter}');
    await waitForStatus(1, 'IGNORED');
    await waitFor(() =>
      expect(
        within(files).queryAllByText(fill(text.files.progressValue, { done: 1, total: 1 })),
      ).toHaveLength(1),
    );
    expect(within(files).queryAllByText(text.files.no)).toHaveLength(1);
    expect(within(files).getByRole('button', { name: text.files.markReconciled })).toHaveProperty(
      'disabled',
      true,
    );
    const recorded = await world.db.query('SELECT reconciled_at FROM statement_files WHERE id = $1', [
      fileId,
    ]);
    expect(recorded.rows[0]).toEqual({ reconciled_at: null });
  });
});

/** One line's action through the API, as another admin's console sends it. */
async function actElsewhere(lineId: string, verb: 'accept' | 'ignore') {
  const response = await realFetch(`${world.url}/v2/admin/statements/lines/${lineId}/${verb}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(verb === 'ignore' ? { body: JSON.stringify({ note: 'Comissão' }) } : {}),
  });
  expect(response.status).toBe(200);
}

/** The line number of the active row (the virtualised table draws only the rows in view). */
const activeLineNumber = () => table().querySelector('tr[data-active]')?.getAttribute('data-line') ?? null;

const stripe = (amountCents: number): NewLine => ({
  amountCents,
  counterpartyName: 'Stripe',
  description: 'TRF STRIPE',
});
const fee = (amountCents: number): NewLine => ({ amountCents, kind: 'fee', description: 'COMISSAO' });

/** `i` on the active line (the nth row), its note typed and saved, and the line IGNORED. */
async function ignoreActive(user: UserEvent, line: number, lineId: string) {
  await user.keyboard('i');
  await screen.findByRole('dialog', { name: fill(text.dialog.ignoreTitle, { line: lineNumberOf(line) }) });
  await user.keyboard('Comissão{Tab}{Tab}{Enter}');
  await waitFor(async () => expect((await lineRow(lineId)).status).toBe('IGNORED'));
}

describe('after a decision the cursor is on the next line that needs one (decision 0169)', () => {
  it('a moves on past lines already decided; z takes it back to the line it undid; i with no open line below stays', async () => {
    const user = userEvent.setup();
    await insertPayout(world.db, 9_101, '2026-03-10');
    await insertPayout(world.db, 9_103, '2026-03-12');
    const { lineIds } = await openStatement([stripe(9_101), fee(-910), stripe(9_103), fee(-920), fee(-930)], {
      before: async (ids) => {
        await actElsewhere(ids[1]!, 'ignore');
        await actElsewhere(ids[4]!, 'ignore');
      },
    });
    expect([1, 2, 3, 4, 5].map(statusOf)).toEqual([
      'SUGGESTED',
      'IGNORED',
      'SUGGESTED',
      'UNMATCHED',
      'IGNORED',
    ]);
    await goTo(user, 1);
    await user.keyboard('a');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(activeLine()).toBe('3'));
    // z: line 1 suggested again, and the cursor back on it.
    await user.keyboard('z');
    await waitForStatus(1, 'SUGGESTED');
    await waitFor(() => expect(activeLine()).toBe('1'));
    await user.keyboard('a');
    await waitFor(() => expect(activeLine()).toBe('3'));
    await user.keyboard('a');
    await waitForStatus(3, 'MATCHED');
    await waitFor(() => expect(activeLine()).toBe('4'));
    // Line 5 is done already: nothing below line 4 needs a decision, so the cursor stays on it.
    await ignoreActive(user, 4, lineIds[3]!);
    await waitForStatus(4, 'IGNORED');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(activeLine()).toBe('4');
    expect(document.activeElement).toBe(rowAt(4));
  });

  it('u, n, h, a cancelled dialog and a refused accept leave the cursor where it is; 1 and m move on once matched', async () => {
    const user = userEvent.setup();
    const first = await insertPayout(world.db, 9_201, '2026-03-10');
    await insertPayout(world.db, 9_202, '2026-03-11');
    await insertPayout(world.db, 9_650, '2026-03-12');
    const { lineIds } = await openStatement([stripe(9_201), stripe(9_202), stripe(9_600), fee(-940)]);
    await goTo(user, 1);
    await user.keyboard('1');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(activeLine()).toBe('2'));
    expect(await matchedPayouts(lineIds[0]!)).toEqual([first]);
    // u on the line just matched (k back to it): unmatched, the cursor stays.
    await user.keyboard('k');
    await user.keyboard('u');
    await waitFor(() => expect(statusOf(1)).not.toBe('MATCHED'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(activeLine()).toBe('1');
    // n: a note, the cursor stays.
    await user.keyboard('n');
    await screen.findByRole('dialog', { name: fill(text.dialog.noteTitle, { line: lineNumberOf(1) }) });
    await user.keyboard('Verificar{Tab}{Tab}{Enter}');
    await waitFor(async () => expect((await lineRow(lineIds[0]!)).notes).toBe('Verificar'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(activeLine()).toBe('1');
    // h: the history, closed; the cursor stays.
    await user.keyboard('h');
    await screen.findByRole('dialog', { name: fill(text.dialog.historyTitle, { line: lineNumberOf(1) }) });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(activeLine()).toBe('1');
    // i cancelled: nothing sent, the cursor stays.
    await user.keyboard('i');
    await screen.findByRole('dialog', { name: fill(text.dialog.ignoreTitle, { line: lineNumberOf(1) }) });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(activeLine()).toBe('1');
    // m: the payout picked and matched, on to line 2.
    await user.keyboard('m');
    let dialog = await screen.findByRole('dialog', {
      name: fill(text.dialog.matchTitle, { line: lineNumberOf(1), amount: '€92.01' }),
    });
    await within(dialog).findAllByRole('checkbox');
    await tabTo(user, checkboxOf(dialog, '€92.01'));
    await user.keyboard(' ');
    await tabTo(user, within(dialog).getByRole('button', { name: text.dialog.match }));
    await user.keyboard('{Enter}');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(activeLine()).toBe('2'));
    // 1 on line 3, whose candidate is of another amount: Esc on its dialog stays; confirmed with the note, on to 4.
    await user.keyboard('j');
    await user.keyboard('1');
    dialog = await screen.findByRole('dialog', {
      name: fill(text.dialog.matchTitle, { line: lineNumberOf(3), amount: '€96.00' }),
    });
    await waitFor(() => expect(checkboxOf(dialog, '€96.50')).toHaveProperty('checked', true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(activeLine()).toBe('3');
    await user.keyboard('1');
    dialog = await screen.findByRole('dialog', {
      name: fill(text.dialog.matchTitle, { line: lineNumberOf(3), amount: '€96.00' }),
    });
    await waitFor(() => expect(checkboxOf(dialog, '€96.50')).toHaveProperty('checked', true));
    await tabTo(user, within(dialog).getByRole('textbox'));
    await user.keyboard('Taxa');
    await tabTo(user, within(dialog).getByRole('button', { name: text.dialog.match }));
    await user.keyboard('{Enter}');
    await waitForStatus(3, 'DISCREPANCY');
    await waitFor(() => expect(activeLine()).toBe('4'));
    // Line 2 accepted by another admin meanwhile: this table still offers its suggestion; `a` is refused and
    // the cursor stays on it.
    await user.keyboard('kk');
    expect(statusOf(2)).toBe('SUGGESTED');
    await actElsewhere(lineIds[1]!, 'accept');
    await user.keyboard('a');
    await within(screen.getByTestId('statement-lines-status')).findByRole('alert');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(activeLine()).toBe('2');
    expect(document.activeElement).toBe(rowAt(2));
  });

  it('a key pressed while the answer is on its way wins: j after a stays where j put the cursor', async () => {
    const user = userEvent.setup();
    await insertPayout(world.db, 9_501, '2026-03-10');
    await openStatement([stripe(9_501), fee(-960), fee(-970)], {
      before: async (ids) => actElsewhere(ids[1]!, 'ignore'),
    });
    await goTo(user, 1);
    // j is handled before the server answers the accept: the operator moved on by hand, to line 2.
    await user.keyboard('aj');
    await waitForStatus(1, 'MATCHED');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(activeLine()).toBe('2');
  });

  it('x and Shift+a, a bulk action, leave the cursor where it is', async () => {
    const user = userEvent.setup();
    await insertPayout(world.db, 9_301, '2026-03-10');
    await insertPayout(world.db, 9_302, '2026-03-11');
    await openStatement([stripe(9_301), stripe(9_302), fee(-950)]);
    await goTo(user, 1);
    await user.keyboard('xj{Shift>}X{/Shift}{Shift>}A{/Shift}');
    await waitFor(() => expect([1, 2].map(statusOf)).toEqual(['MATCHED', 'MATCHED']));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(activeLine()).toBe('2');
  });

  it('under a status filter, the line decided leaving the list when it is read again does not move the cursor off its line', async () => {
    const user = userEvent.setup();
    for (const [i, cents] of [9_401, 9_402, 9_403].entries())
      await insertPayout(world.db, cents, `2026-03-${10 + i}`);
    const { queryClient } = await openStatement([stripe(9_401), stripe(9_402), stripe(9_403)], {
      query: 'status=SUGGESTED',
    });
    const [, second, third] = [1, 2, 3].map(lineNumberOf);
    await goTo(user, 1);
    await user.keyboard('a');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(activeLineNumber()).toBe(second));
    // Read again: line 1 is MATCHED, out of the filter; the rows below move up, the cursor keeps its line.
    await queryClient.invalidateQueries({ queryKey: statementKeys.lines });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(activeLineNumber()).toBe(second);
    await user.keyboard('a');
    await waitFor(() => expect(rows()[0]?.getAttribute('data-status')).toBe('MATCHED'));
    await waitFor(() => expect(activeLineNumber()).toBe(third));
  });

  it('Shift+x extends from the line x selected, not from its old row, once the list is read again', async () => {
    const user = userEvent.setup();
    for (const [i, cents] of [9_501, 9_502, 9_503, 9_504].entries())
      await insertPayout(world.db, cents, `2026-03-${10 + i}`);
    const { queryClient } = await openStatement(
      [stripe(9_501), stripe(9_502), stripe(9_503), stripe(9_504)],
      {
        query: 'status=SUGGESTED',
      },
    );
    const [, second, third, fourth] = [1, 2, 3, 4].map(lineNumberOf);
    await goTo(user, 3);
    await user.keyboard('x');
    await user.keyboard('kk');
    await user.keyboard('a');
    await waitForStatus(1, 'MATCHED');
    await waitFor(() => expect(activeLineNumber()).toBe(second));
    // Read again: the matched line leaves the filter and every row below moves up one.
    await queryClient.invalidateQueries({ queryKey: statementKeys.lines });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.keyboard('{Shift>}X{/Shift}');
    const selectedLines = () =>
      rows()
        .filter((row) => row.getAttribute('aria-selected') === 'true')
        .map((row) => row.getAttribute('data-line'));
    await waitFor(() => expect(selectedLines()).toEqual([second, third]));
    expect(selectedLines()).not.toContain(fourth);
  });

  it('the next open line on a page not read yet: the page is read and the cursor lands on it', async () => {
    const user = userEvent.setup();
    const count = 560;
    const day = (i: number) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10);
    const { lineIds } = await openStatement(
      Array.from({ length: count }, (_, i) => ({ ...fee(-1_000 - i), bankDate: day(i) })),
      {
        // Lines 2–540 done before the table reads them: the first page (500) holds no open line below line 1.
        before: async (ids) => {
          await world.db.query(`UPDATE statement_lines SET status = 'IGNORED' WHERE id = ANY($1::uuid[])`, [
            ids.slice(1, 540),
          ]);
        },
      },
    );
    // The first page only (500 lines, and the header row).
    expect(table().getAttribute('aria-rowcount')).toBe(String(500 + 1));
    await goTo(user, 1);
    await ignoreActive(user, 1, lineIds[0]!);
    // Line 541, on the second page: read, and the cursor on it — `i` opens its dialog.
    await waitFor(() => expect(table().getAttribute('aria-rowcount')).toBe(String(count + 1)));
    await user.keyboard('i');
    await screen.findByRole('dialog', {
      name: fill(text.dialog.ignoreTitle, { line: await lineNumberById(lineIds[540]!) }),
    });
    await user.keyboard('{Escape}');
  });

  it('stops after reading ten pages past the decided line, saying so, and stays on it', async () => {
    const user = userEvent.setup();
    // 500 lines a page: the first page, then ten more read by the search; the open line 6,051 is past them.
    const count = 6_100;
    const day = (i: number) => new Date(Date.UTC(2027, 0, 1 + Math.floor(i / 20))).toISOString().slice(0, 10);
    const { lineIds } = await openStatement(
      Array.from({ length: count }, (_, i) => ({ ...fee(-1_000 - i), bankDate: day(i) })),
      {
        before: async (ids) => {
          await world.db.query(`UPDATE statement_lines SET status = 'IGNORED' WHERE id = ANY($1::uuid[])`, [
            ids.slice(1, 6_050),
          ]);
        },
      },
    );
    await goTo(user, 1);
    const first = activeLineNumber();
    await ignoreActive(user, 1, lineIds[0]!);
    const status = screen.getByTestId('statement-lines-status');
    await within(status).findByText(
      fill(text.lines.noOpenWithin.other, { count: (5_500 - 1).toLocaleString('en-GB') }),
    );
    expect(table().getAttribute('aria-rowcount')).toBe(String(5_500 + 1));
    expect(activeLineNumber()).toBe(first);
    // The next key is the operator's again: `j` moves one row, and the notice goes.
    await user.keyboard('j');
    await waitFor(() => expect(activeLineNumber()).not.toBe(first));
    expect(within(status).queryByText(/No open line/)).toBeNull();
  });
});
