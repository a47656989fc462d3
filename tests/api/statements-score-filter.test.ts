import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATEMENT_BULK_ACCEPT_MAX,
  type StatementFilterAcceptResult,
  type StatementLineRow,
  type StatementUndoResult,
  type SuggestionFilterTotals,
} from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import { importStatement, insertPayout } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';

/**
 * "Suggestions with score ≥ x" (issue 32 point 4, decision 0147): the list's filter, the confirmation's
 * count and sum, and `Shift+a` over the filter accepting every suggestion it selects server-side — a line
 * changed between the count and the accept left as it is and counted.
 */
describe.each(testDatabaseKinds())('suggestions by score on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const statusesOf = async (ids: readonly string[]) => {
    const { rows } = await world.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM statement_lines WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return ids.map((id) => rows.find((r) => r.id === id)?.status);
  };
  const amountsOf = async (query: string) =>
    (
      await expectStatus<{ items: StatementLineRow[] }>(await world.call('GET', `${LINES}?${query}`), 200)
    ).items.map((l) => l.bankAmountCents);
  /** The request clock one second on (the test world's clock stands still otherwise). */
  const tick = () => {
    world.clock.current = new Date((world.clock.current ?? new Date()).getTime() + 1000);
  };
  const acceptFilter = (body: unknown, key: string | null = 'filter-1') =>
    world.call('POST', `${LINES}/accept-filter`, {
      body,
      headers: key ? { 'idempotency-key': key } : {},
    });

  /** Five lines, each suggested against its payout; the matcher's scores set to the ones given. */
  async function suggested(amounts: number[], scores: number[], day: string) {
    for (const amount of amounts) await insertPayout(world.db, amount, day);
    const { fileId, lineIds } = await importStatement(
      world,
      amounts.map((amountCents) => ({ amountCents, bankDate: day, description: 'TRF CRED' })),
    );
    expect(await statusesOf(lineIds)).toEqual(amounts.map(() => 'SUGGESTED'));
    // The scores the matcher would give: its rules are the matcher's own tests' business.
    for (const [i, id] of lineIds.entries())
      await world.db.query('UPDATE statement_line_matches SET score = $2 WHERE statement_line_id = $1', [
        id,
        scores[i],
      ]);
    return { fileId, lineIds };
  }

  it('filters the lines by their suggestion’s score, validated before SQL', async () => {
    const { fileId } = await suggested([1401, 1402, 1403, 1404], [0.97, 0.95, 0.949, 0.5], '2026-03-02');
    const base = `statementFileId=${fileId}&status=SUGGESTED`;
    expect(await amountsOf(`${base}&minScore=0.95`)).toEqual([1401, 1402]);
    expect(await amountsOf(`${base}&minScore=0.5`)).toEqual([1401, 1402, 1403, 1404]);
    expect(await amountsOf(`${base}&minScore=0.98`)).toEqual([]);
    // The row shows the score the filter compares (the matcher's), with why.
    const [row] = (
      await expectStatus<{ items: StatementLineRow[] }>(
        await world.call('GET', `${LINES}?${base}&minScore=0.96`),
        200,
      )
    ).items;
    expect(row!.suggestion).toMatchObject({ score: 0.97, reasons: { amountExact: true, dateDays: 0 } });
    for (const bad of ['minScore=1.5', 'minScore=-0.1', 'minScore=abc', 'minScore=0.9555'])
      expect(await expectStatus(await world.call('GET', `${LINES}?${base}&${bad}`), 400)).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    expect(
      await expectStatus(await world.call('GET', `${LINES}/suggestions?statementFileId=${fileId}`), 400),
    ).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('accepts every suggestion the filter selects once, leaving and counting lines changed since the count', async () => {
    const { fileId, lineIds } = await suggested(
      [1501, 1502, 1503, 1504, 1505],
      [0.97, 0.95, 0.949, 0.8, 0.96],
      '2026-03-10',
    );
    const filter = { statementFileId: fileId, minScore: 0.95 };
    tick();
    const totals = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/suggestions?statementFileId=${fileId}&minScore=0.95`),
      200,
    );
    expect(totals).toEqual({ count: 3, sumCents: 1501 + 1502 + 1505, asOf: totals.asOf });
    // Between the count and the accept: line 2 accepted by someone, line 1 accepted and unmatched (its
    // suggestion back, as selected as before — but not what was confirmed).
    tick();
    await expectStatus(await world.call('POST', `${LINES}/${lineIds[1]}/accept`), 200);
    tick();
    await expectStatus(await world.call('POST', `${LINES}/${lineIds[0]}/accept`), 200);
    tick();
    await expectStatus(await world.call('POST', `${LINES}/${lineIds[0]}/unmatch`), 200);
    expect(await statusesOf(lineIds)).toEqual([
      'SUGGESTED',
      'MATCHED',
      'SUGGESTED',
      'SUGGESTED',
      'SUGGESTED',
    ]);

    tick();
    expect(await expectStatus(await acceptFilter({ filter, asOf: totals.asOf }, null), 400)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REQUIRED',
    });
    const first = await expectStatus<StatementFilterAcceptResult>(
      await acceptFilter({ filter, asOf: totals.asOf }),
      200,
    );
    expect(first).toEqual({
      action: { id: first.action.id, kind: 'BULK_ACCEPT' },
      accepted: 1,
      skipped: 2,
      skippedBecause: { notSuggested: 0, counterpartTaken: 0, amountDiffers: 0, changedMeanwhile: 2 },
      remaining: 0,
    });
    expect(await statusesOf(lineIds)).toEqual(['SUGGESTED', 'MATCHED', 'SUGGESTED', 'SUGGESTED', 'MATCHED']);
    // The same key answers the same and changes nothing more; one action, one audit row.
    expect(await expectStatus(await acceptFilter({ filter, asOf: totals.asOf }), 200)).toEqual(first);
    const audit = await world.db.query<{ after: { accepted: number; filter: unknown } }>(
      `SELECT after FROM audit_log WHERE action = 'statement.bulk-accept' AND after->>'actionId' = $1`,
      [first.action.id],
    );
    expect(audit.rows.map((r) => [r.after.accepted, r.after.filter])).toEqual([[1, filter]]);
    // Undone as a bulk accept is.
    const undone = await expectStatus<StatementUndoResult>(
      await world.call('POST', `/v2/admin/statements/actions/${first.action.id}/undo`),
      200,
    );
    expect(undone).toEqual({ action: { id: undone.action.id, kind: 'UNDO' }, undone: 1 });
    expect((await statusesOf(lineIds))[4]).toBe('SUGGESTED');

    // A fresh count takes what is selected now: lines 1 and 5.
    tick();
    const again = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/suggestions?statementFileId=${fileId}&minScore=0.95`),
      200,
    );
    expect(again.count).toBe(2);
    tick();
    const second = await expectStatus<StatementFilterAcceptResult>(
      await acceptFilter({ filter, asOf: again.asOf }, 'filter-2'),
      200,
    );
    expect([second.accepted, second.skipped]).toEqual([2, 0]);
    expect(await statusesOf(lineIds)).toEqual(['MATCHED', 'MATCHED', 'SUGGESTED', 'SUGGESTED', 'MATCHED']);
  });

  it('accepts a filter of more than 10,000 suggestions 10,000 at a time, earliest first, and answers what remains', async () => {
    // Payouts of distinct amounts, each suggested to the one credit of its amount.
    const count = STATEMENT_BULK_ACCEPT_MAX + 2;
    const days = ['2026-06-01', '2026-06-02'];
    const amountOf = (k: number) => 30_000 + k;
    await world.db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       SELECT 'po_bulk_' || k, 30000 + k, ($1::date[])[k % 2 + 1] FROM generate_series(0, $2::int - 1) AS k`,
      [days, count],
    );
    const { fileId, lineIds } = await importStatement(
      world,
      Array.from({ length: count }, (_, k) => ({
        amountCents: amountOf(k),
        bankDate: days[k % days.length],
        description: 'TRF CRED',
      })),
    );
    await world.db.query(
      `UPDATE statement_line_matches SET score = 0.97
        WHERE statement_line_id IN (SELECT id FROM statement_lines WHERE statement_file_id = $1)`,
      [fileId],
    );
    const filter = { statementFileId: fileId, minScore: 0.95 };
    const query = `statementFileId=${fileId}&minScore=0.95`;
    const every = Array.from({ length: count }, (_, k) => k);
    const sumOf = (ks: number[]) => ks.reduce((sum, k) => sum + amountOf(k), 0);
    tick();
    const totals = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/suggestions?${query}`),
      200,
    );
    expect(totals).toEqual({ count, sumCents: sumOf(every), asOf: totals.asOf });

    tick();
    const first = await expectStatus<StatementFilterAcceptResult>(
      await acceptFilter({ filter, asOf: totals.asOf }, 'many-1'),
      200,
    );
    expect(first).toMatchObject({ accepted: STATEMENT_BULK_ACCEPT_MAX, skipped: 0, remaining: 2 });
    // The list's order (bank date, then id — the file's order within a day): the second day's last two wait.
    const lastTwo = every.filter((k) => k % days.length === 1).slice(-2);
    const open = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE statement_file_id = $1 AND status = 'SUGGESTED' ORDER BY line_number`,
      [fileId],
    );
    expect(open.rows.map((r) => r.id)).toEqual(lastTwo.map((k) => lineIds[k]));

    tick();
    const rest = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/suggestions?${query}`),
      200,
    );
    expect(rest).toEqual({ count: 2, sumCents: sumOf(lastTwo), asOf: rest.asOf });
    tick();
    expect(
      await expectStatus<StatementFilterAcceptResult>(
        await acceptFilter({ filter, asOf: rest.asOf }, 'many-2'),
        200,
      ),
    ).toMatchObject({ accepted: 2, skipped: 0, remaining: 0 });
    expect(new Set(await statusesOf(lineIds))).toEqual(new Set(['MATCHED']));
  }, 180_000);

  it('refuses a count too old or a bad filter, and changes nothing', async () => {
    const { fileId, lineIds } = await suggested([1601], [0.99], '2026-03-20');
    const filter = { statementFileId: fileId, minScore: 0.95 };
    const old = new Date(world.clock.current!.getTime() - 60 * 60 * 1000).toISOString();
    expect(await expectStatus(await acceptFilter({ filter, asOf: old }, 'old'), 409)).toMatchObject({
      code: 'STATEMENT_SUGGESTION_COUNT_STALE',
    });
    const now = world.clock.current!.toISOString();
    for (const body of [
      { filter: { statementFileId: fileId }, asOf: now },
      { filter: { ...filter, minScore: 2 }, asOf: now },
      { filter: { ...filter, status: 'MATCHED' }, asOf: now },
      { filter, asOf: 'yesterday' },
      { filter, asOf: now, lineIds },
    ])
      expect(await expectStatus(await acceptFilter(body, 'bad'), 400)).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    expect(await statusesOf(lineIds)).toEqual(['SUGGESTED']);
  });
});
