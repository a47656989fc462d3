import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  StatementActionResult,
  StatementBulkAcceptResult,
  StatementLineRow,
  StatementUndoResult,
} from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import {
  generateSepaFile,
  importStatement,
  insertPayout,
  STATEMENT_DAY,
  sepaStatus,
  settlementStatuses,
} from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';

describe.each(testDatabaseKinds())('statement reconciliation API on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const act = async (lineId: string, verb: string, body?: unknown, status = 200) =>
    expectStatus<StatementActionResult>(
      await world.call('POST', `${LINES}/${lineId}/${verb}`, { body }),
      status,
    );
  const undo = async (actionId: string, status = 200) =>
    expectStatus<StatementActionResult>(
      await world.call('POST', `/v2/admin/statements/actions/${actionId}/undo`),
      status,
    );
  const lineOf = (result: StatementActionResult, id: string) => result.lines.find((l) => l.id === id)!;
  /** The lines' statuses as stored, in the order of the ids. */
  const statusesOf = async (ids: readonly string[]) => {
    const { rows } = await world.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM statement_lines WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return ids.map((id) => rows.find((r) => r.id === id)?.status);
  };
  const rowsOf = async (query: string) =>
    expectStatus<{ items: StatementLineRow[]; nextCursor: string | null; total: number }>(
      await world.call('GET', `${LINES}?${query}`),
      200,
    );

  it('matches a batch debit at import: the SEPA file and its settlements become PAID; unmatch puts them back, undo again', async () => {
    const file = await generateSepaFile(world, [12_000, 8000]);
    expect(await sepaStatus(world.db, file.id)).toBe('GENERATED');
    const { lineIds, result } = await importStatement(world, [
      {
        amountCents: -file.amountCents,
        batchId: file.paymentInfoId,
        description: `TRF SEPA LOTE ${file.paymentInfoId}`,
      },
      { amountCents: -750, description: 'COMISSAO DE MANUTENCAO', kind: 'fee' },
    ]);
    expect(result).toEqual({ matched: 1, suggested: 0, unmatched: 1 });
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    expect(await settlementStatuses(world.db, file.settlementIds)).toEqual(['PAID', 'PAID']);
    const [debit] = (await rowsOf(`statementFileId=${await lineFile(lineIds[0]!)}&status=MATCHED`)).items;
    expect(debit).toMatchObject({
      id: lineIds[0],
      status: 'MATCHED',
      matchMethod: 'REFERENCE',
      sepa: { amountCents: -file.amountCents, label: file.msgId },
      matches: [{ kind: 'SEPA_FILE', id: file.id, allocatedCents: -file.amountCents, role: 'PAYMENT' }],
      differenceCents: 0,
    });

    const unmatched = await act(lineIds[0]!, 'unmatch');
    expect(lineOf(unmatched, lineIds[0]!)).toMatchObject({ status: 'UNMATCHED', matches: [] });
    expect(await sepaStatus(world.db, file.id)).toBe('GENERATED');
    expect(await settlementStatuses(world.db, file.settlementIds)).toEqual([
      'PENDING_TRANSFER',
      'PENDING_TRANSFER',
    ]);

    const redone = await undo(unmatched.action.id);
    expect(lineOf(redone, lineIds[0]!)).toMatchObject({ status: 'MATCHED' });
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    expect(await settlementStatuses(world.db, file.settlementIds)).toEqual(['PAID', 'PAID']);
    // The unmatch was undone once: again is refused, and nothing changes.
    expect((await undo(unmatched.action.id, 409)) as unknown).toMatchObject({
      code: 'STATEMENT_ACTION_STALE',
    });

    const history = await expectStatus<{
      items: { actor: { id: string } | null; action: string; before: unknown; after: unknown }[];
    }>(await world.call('GET', `${LINES}/${lineIds[0]}/history`), 200);
    // The upload first (who imported the file), then the matcher's MATCHED (no person), then the admin's.
    expect(history.items.map((h) => [h.action, h.actor?.id ?? null])).toEqual([
      ['IMPORTED', world.adminId],
      ['MATCHED', null],
      ['UNMATCHED', world.adminId],
      ['MATCHED', world.adminId],
    ]);
    expect(history.items[2]).toMatchObject({ before: { status: 'MATCHED' }, after: { status: 'UNMATCHED' } });
  });

  async function lineFile(lineId: string): Promise<string> {
    const { rows } = await world.db.query<{ statement_file_id: string }>(
      'SELECT statement_file_id FROM statement_lines WHERE id = $1',
      [lineId],
    );
    return rows[0]!.statement_file_id;
  }

  it('links a return after PAID: the transfer is returned with its reason, its settlements SETTLED, the doctor blocked; unmatch reverses it all', async () => {
    const file = await generateSepaFile(world, [15_000, 9000]);
    await importStatement(world, [{ amountCents: -file.amountCents, batchId: file.paymentInfoId }]);
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    const returned = file.transfers[0]!;
    const { lineIds, result } = await importStatement(world, [
      {
        amountCents: returned.amountCents,
        bankDate: '2026-05-11',
        endToEndId: returned.endToEndId,
        kind: 'return',
        returnReason: 'AC04',
        description: `DEVOLUCAO ${returned.endToEndId}`,
      },
    ]);
    expect(result).toEqual({ matched: 1, suggested: 0, unmatched: 0 });
    const detail = await expectStatus<{
      status: string;
      transfers: { id: string; status: string; rejection: unknown }[];
    }>(await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`), 200);
    expect(detail.status).toBe('PAID');
    expect(detail.transfers.find((t) => t.id === returned.id)).toMatchObject({
      status: 'REJECTED',
      rejection: { reasonCode: 'AC04' },
    });
    const settlementOf = async (transferId: string) =>
      (
        await world.db.query<{ settlement_id: string }>(
          'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
          [transferId],
        )
      ).rows.map((r) => r.settlement_id);
    expect(await settlementStatuses(world.db, await settlementOf(returned.id))).toEqual(['SETTLED']);
    expect(await settlementStatuses(world.db, await settlementOf(file.transfers[1]!.id))).toEqual(['PAID']);
    const blocks = async () =>
      (
        await world.db.query<{ reason_code: string; statement_line_id: string }>(
          'SELECT reason_code, statement_line_id FROM payout_blocks WHERE professional_id = $1',
          [returned.professionalId],
        )
      ).rows;
    expect(await blocks()).toEqual([{ reason_code: 'AC04', statement_line_id: lineIds[0] }]);
    const payouts = await expectStatus<{ payoutBlock: { reasonCode: string } | null }>(
      await world.call('GET', `/v2/admin/professionals/${returned.professionalId}/payouts`),
      200,
    );
    expect(payouts.payoutBlock).toMatchObject({ reasonCode: 'AC04' });

    const unmatched = await act(lineIds[0]!, 'unmatch');
    expect(lineOf(unmatched, lineIds[0]!).status).toBe('UNMATCHED');
    expect(await settlementStatuses(world.db, await settlementOf(returned.id))).toEqual(['PAID']);
    expect(await blocks()).toEqual([]);
    const after = await expectStatus<{ transfers: { id: string; status: string }[] }>(
      await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`),
      200,
    );
    expect(after.transfers.find((t) => t.id === returned.id)!.status).toBe('INCLUDED');
  });

  it('matches a payout split across two credits; alone, a part is a DISCREPANCY that needs a note; never over-matched', async () => {
    const payoutId = await insertPayout(world.db, 100_000, '2026-04-01');
    const { lineIds } = await importStatement(world, [
      { amountCents: 60_000, bankDate: '2026-04-20', description: 'TRF CRED PARTE 1' },
      { amountCents: 40_000, bankDate: '2026-04-21', description: 'TRF CRED PARTE 2' },
      { amountCents: 5000, bankDate: '2026-04-21', description: 'OUTRO' },
    ]);
    const payout = [{ kind: 'PAYOUT', id: payoutId }];
    expect(await act(lineIds[0]!, 'match', { counterparts: payout }, 422)).toMatchObject({
      code: 'STATEMENT_NOTE_REQUIRED',
    });
    const part = await act(lineIds[0]!, 'match', { counterparts: payout, note: 'Primeira parte do payout' });
    expect(lineOf(part, lineIds[0]!)).toMatchObject({
      status: 'DISCREPANCY',
      differenceCents: -40_000,
      notes: 'Primeira parte do payout',
      provider: { amountCents: 100_000, date: '2026-04-01' },
      matches: [{ kind: 'PAYOUT', id: payoutId, allocatedCents: 60_000 }],
    });
    const second = await act(lineIds[1]!, 'match', { counterparts: payout });
    expect([lineOf(second, lineIds[0]!).status, lineOf(second, lineIds[1]!).status]).toEqual([
      'MATCHED',
      'MATCHED',
    ]);
    expect(await act(lineIds[2]!, 'match', { counterparts: payout }, 409)).toMatchObject({
      code: 'STATEMENT_COUNTERPART_TAKEN',
    });
    // Undoing the second match puts the first part back to DISCREPANCY.
    const undone = await undo(second.action.id);
    expect(lineOf(undone, lineIds[0]!).status).toBe('DISCREPANCY');
    expect(lineOf(undone, lineIds[1]!).status).toBe('UNMATCHED');
    // Both parts in one request: MATCHED at once.
    await act(lineIds[0]!, 'unmatch');
    const both = await act(lineIds[0]!, 'match', { counterparts: payout, lineIds: [lineIds[1]] });
    expect(both.lines.map((l) => [l.status, l.differenceCents])).toEqual([
      ['MATCHED', 0],
      ['MATCHED', 0],
    ]);
    // The database keeps the parts within the payout whatever the code does.
    await expect(
      world.db.query(
        `INSERT INTO statement_line_matches (statement_line_id, kind, payout_id, state, allocated_cents)
         VALUES ($1, 'PAYOUT', $2, 'MATCHED', 1)`,
        [lineIds[2], payoutId],
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('suggests by amount and date, explains candidates, and every action has its undo', async () => {
    const payoutId = await insertPayout(world.db, 23_456, '2026-03-02');
    const { lineIds, result } = await importStatement(world, [
      {
        amountCents: 23_456,
        bankDate: '2026-03-03',
        description: 'TRF CRED SEPA STRIPE',
        counterpartyName: 'Stripe',
      },
      { amountCents: -1234, bankDate: '2026-03-03', description: 'COMPRA' },
    ]);
    expect(result).toEqual({ matched: 0, suggested: 1, unmatched: 1 });
    const [suggested] = (await rowsOf(`statementFileId=${await lineFile(lineIds[0]!)}&status=SUGGESTED`))
      .items;
    expect(suggested).toMatchObject({
      status: 'SUGGESTED',
      suggestion: {
        kind: 'PAYOUT',
        id: payoutId,
        reasons: { amountExact: true, dateDays: 1, reference: false },
      },
      candidateCount: 1,
    });
    const { candidates } = await expectStatus<{ candidates: { id: string; score: number }[] }>(
      await world.call('GET', `${LINES}/${lineIds[0]}/candidates`),
      200,
    );
    expect(candidates[0]).toMatchObject({ id: payoutId });

    const accepted = await act(lineIds[0]!, 'accept');
    expect(lineOf(accepted, lineIds[0]!)).toMatchObject({
      status: 'MATCHED',
      matchMethod: 'AMOUNT_COUNTERPARTY_DATE',
    });
    expect(await act(lineIds[0]!, 'accept', undefined, 409)).toMatchObject({
      code: 'STATEMENT_NO_SUGGESTION',
    });
    expect(lineOf(await undo(accepted.action.id), lineIds[0]!)).toMatchObject({
      status: 'SUGGESTED',
      suggestion: { id: payoutId },
    });

    expect(await act(lineIds[1]!, 'ignore', { note: '' }, 400)).toMatchObject({ code: 'VALIDATION_ERROR' });
    const ignored = await act(lineIds[1]!, 'ignore', { note: 'Compra com cartão da empresa' });
    expect(lineOf(ignored, lineIds[1]!)).toMatchObject({
      status: 'IGNORED',
      notes: 'Compra com cartão da empresa',
    });
    const noted = await act(lineIds[1]!, 'notes', { note: 'Cartão 1234' });
    expect(lineOf(noted, lineIds[1]!)).toMatchObject({ status: 'IGNORED', notes: 'Cartão 1234' });
    // The ignore cannot be undone while the note changed the line after it.
    expect(await undo(ignored.action.id, 409)).toMatchObject({ code: 'STATEMENT_ACTION_STALE' });
    expect(lineOf(await undo(noted.action.id), lineIds[1]!).notes).toBe('Compra com cartão da empresa');
    expect(lineOf(await undo(ignored.action.id), lineIds[1]!)).toMatchObject({
      status: 'UNMATCHED',
      notes: null,
    });

    const matched = await act(lineIds[0]!, 'match', { counterparts: [{ kind: 'PAYOUT', id: payoutId }] });
    expect(lineOf(matched, lineIds[0]!)).toMatchObject({ status: 'MATCHED', matchMethod: 'MANUAL' });
    expect(
      await act(lineIds[1]!, 'match', { counterparts: [{ kind: 'PAYOUT', id: payoutId }] }, 422),
    ).toMatchObject({
      code: 'STATEMENT_MATCH_WRONG_DIRECTION',
    });
    expect(lineOf(await undo(matched.action.id), lineIds[0]!).status).toBe('SUGGESTED');
    const audit = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'statement.%' AND actor_id = $1`,
      [world.adminId],
    );
    expect(audit.rows[0]!.n).toBeGreaterThanOrEqual(9);
  });

  it('lists candidates of any amount in the window, the exact amount first, so a split can be picked', async () => {
    const exact = await insertPayout(world.db, 31_000, '2026-07-20');
    const part = await insertPayout(world.db, 12_000, '2026-07-21');
    const outside = await insertPayout(world.db, 19_000, '2026-07-01');
    const { lineIds } = await importStatement(world, [
      { amountCents: 31_000, bankDate: '2026-07-20', description: 'TRF' },
    ]);
    const { candidates } = await expectStatus<{
      candidates: { id: string; reasons: { amountExact: boolean } }[];
    }>(await world.call('GET', `${LINES}/${lineIds[0]}/candidates`), 200);
    const ids = candidates.map((c) => c.id);
    expect(ids[0]).toBe(exact);
    expect(candidates.find((c) => c.id === part)?.reasons.amountExact).toBe(false);
    expect(ids).not.toContain(outside);
  });

  it('marks a statement reconciled only when every line is done and the balances agree; then its lines are frozen', async () => {
    const payoutId = await insertPayout(world.db, 7777, '2026-02-02');
    const { fileId, lineIds } = await importStatement(world, [
      { amountCents: 7777, bankDate: '2026-02-02', bankReference: 'none', description: 'TRF' },
      { amountCents: -300, bankDate: '2026-02-02', kind: 'fee', description: 'COMISSAO' },
    ]);
    const mark = (status: number) =>
      world
        .call('POST', `/v2/admin/statements/files/${fileId}/reconciled`)
        .then((r) => expectStatus<Record<string, unknown>>(r, status));
    expect(await mark(409)).toMatchObject({ code: 'STATEMENT_NOT_RECONCILABLE' });
    await act(lineIds[0]!, 'match', { counterparts: [{ kind: 'PAYOUT', id: payoutId }] });
    await act(lineIds[1]!, 'ignore', { note: 'Comissão bancária' });
    const file = await mark(200);
    expect(file).toMatchObject({
      id: fileId,
      lineCount: 2,
      doneCount: 2,
      balanceConsistent: true,
      reconciledBy: { id: world.adminId },
    });
    expect(await act(lineIds[0]!, 'unmatch', undefined, 409)).toMatchObject({
      code: 'STATEMENT_FILE_RECONCILED',
    });
    // The files list shows it reconciled (this world's clock is fixed: every import has the same time).
    const list = await expectStatus<{ items: { id: string; reconciledBy: { id: string } | null }[] }>(
      await world.call('GET', '/v2/admin/statements/files'),
      200,
    );
    expect(list.items.find((item) => item.id === fileId)).toMatchObject({
      reconciledBy: { id: world.adminId },
    });
  });

  it('refuses to close a statement whose balances do not agree', async () => {
    const { fileId, lineIds } = await importStatement(world, [{ amountCents: -500, kind: 'fee' }], {
      closingCents: -400,
    });
    await act(lineIds[0]!, 'ignore', { note: 'Comissão' });
    const response = await world.call('POST', `/v2/admin/statements/files/${fileId}/reconciled`);
    expect(await expectStatus(response, 409)).toMatchObject({ code: 'STATEMENT_NOT_RECONCILABLE' });
  });

  it('accepts suggestions in bulk once per Idempotency-Key, skipping what is no longer suggested', async () => {
    const amounts = [1101, 1102, 1103, 1104];
    for (const amount of amounts) await insertPayout(world.db, amount, '2026-01-10');
    const { lineIds } = await importStatement(
      world,
      [...amounts, 1199].map((amountCents) => ({
        amountCents,
        bankDate: '2026-01-11',
        description: 'TRF CRED',
      })),
    );
    await act(lineIds[0]!, 'accept');
    const bulk = (key: string | null, ids = lineIds) =>
      world.call('POST', `${LINES}/accept`, {
        body: { lineIds: ids },
        headers: key ? { 'idempotency-key': key } : {},
      });
    expect(await expectStatus(await bulk(null), 400)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    const first = await expectStatus<StatementBulkAcceptResult>(await bulk('bulk-1'), 200);
    // Counts, not rows (decision 0108): what changed is read from the server, as the console does.
    expect(first).toEqual({
      action: { id: first.action.id, kind: 'BULK_ACCEPT' },
      accepted: 3,
      skipped: 2,
      skippedBecause: { notSuggested: 2, counterpartTaken: 0, amountDiffers: 0 },
    });
    expect(await statusesOf(lineIds)).toEqual(['MATCHED', 'MATCHED', 'MATCHED', 'MATCHED', 'UNMATCHED']);
    const retry = await expectStatus<typeof first>(await bulk('bulk-1'), 200);
    expect(retry).toEqual(first);
    const actions = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_actions WHERE kind = 'BULK_ACCEPT'`,
    );
    expect(actions.rows[0]!.n).toBe(1);
    expect(await expectStatus(await bulk('bulk-1', lineIds.slice(1)), 422)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const undone = (await undo(first.action.id)) as StatementUndoResult;
    expect(undone).toEqual({ action: { id: undone.action.id, kind: 'UNDO' }, undone: 3 });
    expect(await statusesOf(lineIds)).toEqual([
      'MATCHED',
      'SUGGESTED',
      'SUGGESTED',
      'SUGGESTED',
      'UNMATCHED',
    ]);
  });

  it('tells why a bulk accept left each line as it was', async () => {
    const payouts: string[] = [];
    for (const amount of [1201, 1202, 1203, 1204])
      payouts.push(await insertPayout(world.db, amount, '2026-02-10'));
    const { lineIds } = await importStatement(
      world,
      [1201, 1202, 1203, 1204, 500].map((amountCents) => ({
        amountCents,
        bankDate: '2026-02-11',
        description: 'TRF CRED',
      })),
    );
    expect((await statusesOf(lineIds)).slice(0, 4)).toEqual([
      'SUGGESTED',
      'SUGGESTED',
      'SUGGESTED',
      'SUGGESTED',
    ]);
    await act(lineIds[0]!, 'accept');
    // Another line takes part of the third payout; the fourth payout's amount changes under its suggestion.
    await act(lineIds[4]!, 'match', { counterparts: [{ kind: 'PAYOUT', id: payouts[2] }], note: 'Parte' });
    await world.db.query('UPDATE provider_payouts SET amount_cents = 1205 WHERE id = $1', [payouts[3]]);
    const result = await expectStatus<StatementBulkAcceptResult>(
      await world.call('POST', `${LINES}/accept`, {
        body: { lineIds },
        headers: { 'idempotency-key': 'bulk-why' },
      }),
      200,
    );
    expect(result).toEqual({
      action: { id: result.action.id, kind: 'BULK_ACCEPT' },
      accepted: 1,
      skipped: 4,
      skippedBecause: { notSuggested: 2, counterpartTaken: 1, amountDiffers: 1 },
    });
    expect(await statusesOf(lineIds)).toEqual([
      'MATCHED',
      'MATCHED',
      'SUGGESTED',
      'SUGGESTED',
      'DISCREPANCY',
    ]);
  });

  it('filters and pages the lines, validating every filter before SQL', async () => {
    const { fileId } = await importStatement(world, [
      {
        amountCents: -100,
        bankDate: '2025-12-01',
        counterpartyName: 'Álvaro Pires',
        counterpartyIban: 'PT50000201231234567890154',
      },
      { amountCents: -200, bankDate: '2025-12-02', counterpartyName: 'Beatriz Sá', kind: 'fee' },
      { amountCents: 300, bankDate: '2025-12-03', counterpartyName: 'alvaro_lda' },
      { amountCents: 400, bankDate: '2025-12-04' },
      { amountCents: 500, bankDate: '2025-12-05' },
    ]);
    const amountsOf = (page: { items: StatementLineRow[] }) => page.items.map((l) => l.bankAmountCents);
    const base = `statementFileId=${fileId}`;
    expect(amountsOf(await rowsOf(base))).toEqual([-100, -200, 300, 400, 500]);
    expect(amountsOf(await rowsOf(`${base}&order=desc`))).toEqual([500, 400, 300, -200, -100]);
    expect(amountsOf(await rowsOf(`${base}&kind=fee`))).toEqual([-200]);
    expect(amountsOf(await rowsOf(`${base}&from=2025-12-02&to=2025-12-03`))).toEqual([-200, 300]);
    expect(amountsOf(await rowsOf(`${base}&minCents=-150&maxCents=350`))).toEqual([-100, 300]);
    expect(amountsOf(await rowsOf(`${base}&counterparty=%C3%A1lvaro`))).toEqual([-100]);
    expect(amountsOf(await rowsOf(`${base}&counterparty=alvaro_`))).toEqual([300]);
    expect(amountsOf(await rowsOf(`${base}&counterparty=PT500002`))).toEqual([-100]);
    expect(amountsOf(await rowsOf(`${base}&status=UNMATCHED&status=IGNORED`))).toHaveLength(5);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: StatementLineRow[]; nextCursor: string | null; total: number } = await rowsOf(
        `${base}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.total).toBe(5);
      seen.push(...amountsOf(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([-100, -200, 300, 400, 500]);
    for (const bad of [
      'minCents=5&maxCents=1',
      'from=2025-12-05&to=2025-12-01',
      'status=NOPE',
      'limit=0',
      'statementFileId=1',
      'cursor=abc',
    ])
      expect((await world.call('GET', `${LINES}?${bad}`)).status).toBe(400);
    expect(STATEMENT_DAY).toBe('2026-05-08');
  });
});
