import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATEMENT_BULK_ACCEPT_MAX,
  type StatementBulkIgnoreResult,
  type StatementLineRow,
  type StatementUndoResult,
  type SuggestionFilterTotals,
} from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import { importStatement, insertPayout } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';
const NOTE = 'Comissões do banco de março';

/**
 * Lines with no counterpart ignored in bulk (issue 32, decision 0161): `Shift+i` over a filter — the
 * confirmation's count and sum, then every open line it lists ignored in one action, a line changed
 * between the count and the ignore left and counted — or over a selection; undone as one; bad input
 * refused before anything changes.
 */
describe.each(testDatabaseKinds())('bulk ignore on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const statusesOf = async (ids: readonly string[]) => {
    const { rows } = await world.db.query<{ id: string; status: string; notes: string | null }>(
      'SELECT id, status, notes FROM statement_lines WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return ids.map((id) => rows.find((r) => r.id === id)?.status);
  };
  const listed = async (query: string) =>
    (
      await expectStatus<{ items: StatementLineRow[] }>(await world.call('GET', `${LINES}?${query}`), 200)
    ).items.map((l) => l.bankAmountCents);
  const actionCount = async () =>
    (await world.db.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_actions')).rows[0]!.n;
  /** The request clock one second on (the test world's clock stands still otherwise). */
  const tick = () => {
    world.clock.current = new Date((world.clock.current ?? new Date()).getTime() + 1000);
  };
  const post = (path: string, body: unknown, key: string | null) =>
    world.call('POST', `${LINES}/${path}`, { body, headers: key ? { 'idempotency-key': key } : {} });

  /** A month's statement: four bank fees, a transfer paying a payout, a transfer nobody expects. */
  async function month(day: string) {
    await insertPayout(world.db, 4200, day);
    const fee = (amountCents: number) => ({
      amountCents,
      bankDate: day,
      kind: 'fee' as const,
      description: 'COMISSAO MANUTENCAO CONTA',
    });
    return importStatement(world, [
      fee(-125),
      fee(-250),
      fee(-500),
      fee(-780),
      { amountCents: 4200, bankDate: day, description: 'TRF CRED PAYOUT', counterpartyName: 'STRIPE' },
      { amountCents: 1999, bankDate: day, description: 'TRF CRED', counterpartyName: 'J SIMOES' },
    ]);
  }

  it('lists lines by the words the bank printed and those with no candidate, validated before SQL', async () => {
    const { fileId } = await month('2026-04-01');
    const base = `statementFileId=${fileId}`;
    expect(await listed(`${base}&text=comissao`)).toEqual([-125, -250, -500, -780]);
    expect(await listed(`${base}&text=simoes`)).toEqual([1999]);
    expect(await listed(`${base}&text=100%25`)).toEqual([]);
    // The payout's line has a candidate (its payout): every other is listed.
    expect(await listed(`${base}&noCandidate=true`)).toEqual([-125, -250, -500, -780, 1999]);
    for (const bad of ['text=', `text=${'x'.repeat(101)}`, 'text=a%00b', 'noCandidate=yes'])
      if (bad === 'text=') expect(await listed(`${base}&${bad}`)).toHaveLength(6);
      else
        expect(await expectStatus(await world.call('GET', `${LINES}?${base}&${bad}`), 400)).toMatchObject({
          code: 'VALIDATION_ERROR',
        });
  });

  it('ignores every open line a filter lists once, leaving and counting the line changed since the count', async () => {
    const { fileId, lineIds } = await month('2026-04-10');
    const fees = lineIds.slice(0, 4);
    const query = `statementFileId=${fileId}&text=COMISSAO`;
    tick();
    const totals = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/ignorable?${query}`),
      200,
    );
    expect(totals).toEqual({ count: 4, sumCents: -(125 + 250 + 500 + 780), asOf: totals.asOf });
    // Between the count and the ignore, another admin ignores the second fee with a note of their own.
    tick();
    await expectStatus(
      await world.call('POST', `${LINES}/${fees[1]}/ignore`, { body: { note: 'Já vista' } }),
      200,
    );

    tick();
    const filter = { statementFileId: fileId, text: 'COMISSAO' };
    const body = { filter, asOf: totals.asOf, note: NOTE };
    expect(await expectStatus(await post('ignore-filter', body, null), 400)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REQUIRED',
    });
    const before = await actionCount();
    const ignored = await expectStatus<StatementBulkIgnoreResult>(
      await post('ignore-filter', body, 'fees-1'),
      200,
    );
    expect(ignored).toEqual({
      action: { id: ignored.action.id, kind: 'BULK_IGNORE' },
      ignored: 3,
      skipped: 1,
      skippedBecause: { notOpen: 0, changedMeanwhile: 1 },
      remaining: 0,
    });
    expect(await statusesOf(lineIds)).toEqual([
      'IGNORED',
      'IGNORED',
      'IGNORED',
      'IGNORED',
      'SUGGESTED',
      'UNMATCHED',
    ]);
    const notes = await world.db.query<{ notes: string }>(
      'SELECT notes FROM statement_lines WHERE id = ANY($1::uuid[]) ORDER BY line_number',
      [fees],
    );
    expect(notes.rows.map((r) => r.notes)).toEqual([NOTE, 'Já vista', NOTE, NOTE]);
    // The same key answers the same and changes nothing more: one action, one audit row naming the filter.
    expect(await expectStatus(await post('ignore-filter', body, 'fees-1'), 200)).toEqual(ignored);
    expect(await actionCount()).toBe(before + 1);
    const audit = await world.db.query<{ after: { ignored: number; filter: unknown; note: string } }>(
      `SELECT after FROM audit_log WHERE action = 'statement.bulk-ignore' AND after->>'actionId' = $1`,
      [ignored.action.id],
    );
    expect(audit.rows.map((r) => [r.after.ignored, r.after.filter, r.after.note])).toEqual([
      [3, filter, NOTE],
    ]);
    // Each line's history says who ignored it, from what.
    const history = await expectStatus<{ items: { action: string; before: unknown; after: unknown }[] }>(
      await world.call('GET', `${LINES}/${fees[0]}/history`),
      200,
    );
    expect(history.items.at(-1)).toMatchObject({
      action: 'IGNORED',
      before: { status: 'UNMATCHED' },
      after: { status: 'IGNORED' },
    });

    // `z`: undone as one, answered by its count; the line the other admin ignored stays as they left it.
    tick();
    const undone = await expectStatus<StatementUndoResult>(
      await world.call('POST', `/v2/admin/statements/actions/${ignored.action.id}/undo`),
      200,
    );
    expect(undone).toEqual({ action: { id: undone.action.id, kind: 'UNDO' }, undone: 3 });
    expect(await statusesOf(fees)).toEqual(['UNMATCHED', 'IGNORED', 'UNMATCHED', 'UNMATCHED']);
  });

  it('ignores a filter of more than 10,000 lines 10,000 at a time, earliest first, and answers what remains', async () => {
    // A month of card-terminal fees, one line each: more than one bulk action may take.
    const count = STATEMENT_BULK_ACCEPT_MAX + 2;
    const days = ['2026-05-04', '2026-05-05', '2026-05-06'];
    const { fileId, lineIds } = await importStatement(
      world,
      Array.from({ length: count }, (_, k) => ({
        amountCents: -(10 + (k % 7)),
        bankDate: days[k % days.length],
        kind: 'fee' as const,
        description: `COMISSAO TPA ${k}`,
      })),
    );
    const query = `statementFileId=${fileId}&text=COMISSAO%20TPA`;
    const filter = { statementFileId: fileId, text: 'COMISSAO TPA' };
    const sumOf = (ks: number[]) => ks.reduce((sum, k) => sum - (10 + (k % 7)), 0);
    const every = Array.from({ length: count }, (_, k) => k);
    tick();
    const totals = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/ignorable?${query}`),
      200,
    );
    expect(totals).toEqual({ count, sumCents: sumOf(every), asOf: totals.asOf });

    tick();
    const first = await expectStatus<StatementBulkIgnoreResult>(
      await post('ignore-filter', { filter, asOf: totals.asOf, note: NOTE }, 'tpa-1'),
      200,
    );
    expect(first).toMatchObject({ ignored: STATEMENT_BULK_ACCEPT_MAX, skipped: 0, remaining: 2 });
    // The list's order (bank date, then id — the file's order within a day): the last day's last two wait.
    const lastTwo = every.filter((k) => k % days.length === days.length - 1).slice(-2);
    const open = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE statement_file_id = $1 AND status = 'UNMATCHED' ORDER BY line_number`,
      [fileId],
    );
    expect(open.rows.map((r) => r.id)).toEqual(lastTwo.map((k) => lineIds[k]));

    // The next `Shift+i` counts and takes what remains.
    tick();
    const rest = await expectStatus<SuggestionFilterTotals>(
      await world.call('GET', `${LINES}/ignorable?${query}`),
      200,
    );
    expect(rest).toEqual({ count: 2, sumCents: sumOf(lastTwo), asOf: rest.asOf });
    tick();
    expect(
      await expectStatus<StatementBulkIgnoreResult>(
        await post('ignore-filter', { filter, asOf: rest.asOf, note: NOTE }, 'tpa-2'),
        200,
      ),
    ).toMatchObject({ ignored: 2, skipped: 0, remaining: 0 });
    const left = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1 AND status <> 'IGNORED'`,
      [fileId],
    );
    expect(left.rows[0]!.n).toBe(0);
  }, 180_000);

  it('ignores the open lines of a selection, a suggestion dropped, and counts the one matched meanwhile', async () => {
    const { lineIds } = await month('2026-04-20');
    const [fee1, fee2, , , payoutLine, stranger] = lineIds;
    expect(await statusesOf([payoutLine!])).toEqual(['SUGGESTED']);
    // Someone accepts the payout's suggestion before the selection is ignored.
    await expectStatus(await world.call('POST', `${LINES}/${payoutLine}/accept`), 200);
    tick();
    const selection = [fee1!, fee2!, stranger!, payoutLine!];
    const ignored = await expectStatus<StatementBulkIgnoreResult>(
      await post('ignore', { lineIds: selection, note: NOTE }, 'selection-1'),
      200,
    );
    expect(ignored).toEqual({
      action: { id: ignored.action.id, kind: 'BULK_IGNORE' },
      ignored: 3,
      skipped: 1,
      skippedBecause: { notOpen: 1, changedMeanwhile: 0 },
      remaining: 0,
    });
    expect(await statusesOf(selection)).toEqual(['IGNORED', 'IGNORED', 'IGNORED', 'MATCHED']);
  });

  it('refuses a stale count or bad input with a 4xx and changes nothing', async () => {
    const { fileId, lineIds } = await month('2026-04-27');
    const filter = { statementFileId: fileId, text: 'COMISSAO' };
    const now = world.clock.current!.toISOString();
    const before = await actionCount();
    const old = new Date(world.clock.current!.getTime() - 60 * 60 * 1000).toISOString();
    expect(
      await expectStatus(await post('ignore-filter', { filter, asOf: old, note: NOTE }, 'old'), 409),
    ).toMatchObject({ code: 'STATEMENT_IGNORE_COUNT_STALE' });
    const hostileFilters = [
      {},
      { status: ['UNMATCHED'] },
      { ...filter, status: ['MATCHED'] },
      { ...filter, text: 'a\u0000b' },
      { ...filter, text: 'x'.repeat(101) },
      { ...filter, from: '2026-05-01', to: '2026-04-01' },
      { ...filter, noCandidate: 'yes' },
      { ...filter, minScore: 0.5 },
      { ...filter, statementFileId: "1' OR '1'='1" },
    ];
    for (const bad of hostileFilters)
      expect(
        await expectStatus(await post('ignore-filter', { filter: bad, asOf: now, note: NOTE }, 'bad'), 400),
      ).toMatchObject({ code: 'VALIDATION_ERROR' });
    for (const bad of [
      { filter, asOf: now },
      { filter, asOf: now, note: '   ' },
      { filter, asOf: now, note: 'x'.repeat(2001) },
      { filter, asOf: 'yesterday', note: NOTE },
      { filter, asOf: now, note: NOTE, lineIds },
    ])
      expect(await expectStatus(await post('ignore-filter', bad, 'bad'), 400)).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    for (const bad of [
      { lineIds: [], note: NOTE },
      { lineIds: [lineIds[0], lineIds[0]], note: NOTE },
      { lineIds: ['not-a-uuid'], note: NOTE },
      { lineIds: Array.from({ length: 10_001 }, () => lineIds[0]), note: NOTE },
      { lineIds },
      { lineIds, note: NOTE, filter },
    ])
      expect(await expectStatus(await post('ignore', bad, 'bad'), 400)).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    for (const bad of ['', 'status=UNMATCHED', `statementFileId=${fileId}&text=%00`, 'kind=bank'])
      expect(await expectStatus(await world.call('GET', `${LINES}/ignorable?${bad}`), 400)).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    expect(await actionCount()).toBe(before);
    expect(await statusesOf(lineIds)).toEqual([
      'UNMATCHED',
      'UNMATCHED',
      'UNMATCHED',
      'UNMATCHED',
      'SUGGESTED',
      'UNMATCHED',
    ]);
  });
});
