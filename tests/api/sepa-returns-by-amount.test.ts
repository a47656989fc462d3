import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { camt053, importThroughApi } from './sepa-statement-support';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import {
  type GeneratedFile,
  generateSepaFile,
  sepaStatus,
  settlementStatuses,
  transferStatus,
} from './statements-reconcile-support';

// Issue 27, point 9 (the matcher's part): a return that names no EndToEndId finds its transfer by the
// amount it gives back, the sign handled (+7,50 returns a −7,50 transfer, difference 0); point 10's
// rule holds for returns too: only an account reason blocks the doctor. Through the import route.

interface Candidates {
  candidates: { kind: string; id: string; reasons: { amountExact: boolean } }[];
}

describe.each(testDatabaseKinds())('returns without an EndToEndId on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  /** A file paid by its batch debit on a first statement. */
  async function paidFile(grossCents: number[]): Promise<GeneratedFile> {
    const file = await generateSepaFile(world, grossCents);
    const [debit] = await importThroughApi(
      world,
      camt053([{ cents: -file.amountCents, date: '2026-05-08', paymentInfoId: file.paymentInfoId }]),
    );
    expect(debit!.status).toBe('MATCHED');
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    return file;
  }
  const blockOf = async (professionalId: string) =>
    (
      await expectStatus<{ payoutBlock: { reasonCode: string | null } | null }>(
        await world.call('GET', `/v2/admin/professionals/${professionalId}/payouts`),
        200,
      )
    ).payoutBlock;
  const settlementsOf = async (transferId: string) =>
    (
      await world.db.query<{ settlement_id: string }>(
        'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
        [transferId],
      )
    ).rows.map((r) => r.settlement_id);

  it('suggests the transfer whose amount a return gives back, and accepting it returns the transfer with difference 0', async () => {
    const file = await paidFile([4000, 5500]);
    const returned = file.transfers[1]!;
    const [line] = await importThroughApi(
      world,
      camt053([
        {
          cents: returned.amountCents,
          date: '2026-05-12',
          returnReason: 'AC04',
          text: 'DEVOLUCAO TRF SEPA',
        },
      ]),
    );
    expect(line).toMatchObject({ kind: 'return', returnReason: 'AC04', status: 'SUGGESTED' });
    const candidates = await expectStatus<Candidates>(
      await world.call('GET', `/v2/admin/statements/lines/${line!.id}/candidates`),
      200,
    );
    expect(candidates.candidates[0]).toMatchObject({
      kind: 'SEPA_TRANSFER',
      id: returned.id,
      reasons: { amountExact: true },
    });

    await expectStatus(await world.call('POST', `/v2/admin/statements/lines/${line!.id}/accept`), 200);
    const [after] = await importThroughApiLines(line!.id);
    expect(after).toMatchObject({ status: 'MATCHED' });
    expect(after!.differenceCents ?? 0).toBe(0);
    expect(await transferStatus(world.db, returned.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, await settlementsOf(returned.id))).toEqual(['SETTLED']);
    expect((await blockOf(returned.professionalId))?.reasonCode).toBe('AC04');
    // The other transfer stays paid.
    expect(await settlementStatuses(world.db, await settlementsOf(file.transfers[0]!.id))).toEqual(['PAID']);
  });

  it('returns a transfer for a reason that says nothing against the account (AM05) without blocking the doctor', async () => {
    const file = await paidFile([4200]);
    const transfer = file.transfers[0]!;
    const [line] = await importThroughApi(
      world,
      camt053([
        {
          cents: transfer.amountCents,
          date: '2026-05-12',
          endToEndId: transfer.endToEndId,
          returnReason: 'AM05',
        },
      ]),
    );
    expect(line!.status).toBe('MATCHED');
    expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, await settlementsOf(transfer.id))).toEqual(['SETTLED']);
    expect(await blockOf(transfer.professionalId)).toBeNull();
  });

  it('matches a return to its transfer by hand with difference 0, and a bank fee never counts as a return', async () => {
    const file = await paidFile([4300]);
    const transfer = file.transfers[0]!;
    const returnedCount = async () =>
      (
        await expectStatus<{ attention: { returnsToMatch: { count: number } } }>(
          await world.call('GET', '/v2/admin/dashboard'),
          200,
        )
      ).attention.returnsToMatch.count;
    const before = await returnedCount();
    const [ret, fee] = await importThroughApi(
      world,
      camt053([
        // Named by another EndToEndId: nothing to match it to by itself; the admin links it.
        { cents: transfer.amountCents, date: '2026-05-12', endToEndId: 'NOT-OURS-1', returnReason: 'AC04' },
        { cents: -150, date: '2026-05-12', family: 'CHRG', text: 'COMISSAO DEVOLUCAO SEPA' },
      ]),
    );
    expect([ret!.kind, fee!.kind]).toEqual(['return', 'fee']);
    // The unlinked return needs attention; the fee is not a return.
    expect(await returnedCount()).toBe(before + 1);
    await expectStatus(
      await world.call('POST', `/v2/admin/statements/lines/${ret!.id}/match`, {
        body: { counterparts: [{ kind: 'SEPA_TRANSFER', id: transfer.id }] },
      }),
      200,
    );
    const [matched] = await importThroughApiLines(ret!.id);
    expect(matched).toMatchObject({ status: 'MATCHED', differenceCents: 0 });
    expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
    // Matched, the return no longer waits; its account reason blocked the doctor, whom the blocked
    // doctors' card counts and its list shows, made by the return (decision 0143).
    expect(await returnedCount()).toBe(before);
    const { attention } = await expectStatus<{ attention: { doctorsPayoutsBlocked: number } }>(
      await world.call('GET', '/v2/admin/dashboard'),
      200,
    );
    const blocked = await expectStatus<{
      items: { professionalId: string; blockedBy: string; block: { reasonCode: string } }[];
      total: number;
    }>(await world.call('GET', '/v2/admin/professionals/payout-blocked'), 200);
    expect(blocked.total).toBe(attention.doctorsPayoutsBlocked);
    expect(blocked.items.find((d) => d.professionalId === transfer.professionalId)).toMatchObject({
      blockedBy: 'RETURN',
      block: { reasonCode: 'AC04' },
    });
  });

  it('pays the file with its batch debit and returns one transfer when both are on the same statement', async () => {
    const file = await generateSepaFile(world, [4400, 5400]);
    const [returned, kept] = file.transfers;
    const [debit, ret] = await importThroughApi(
      world,
      camt053([
        { cents: -file.amountCents, date: '2026-05-08', paymentInfoId: file.paymentInfoId },
        {
          cents: returned!.amountCents,
          date: '2026-05-11',
          endToEndId: returned!.endToEndId,
          returnReason: 'AC01',
        },
      ]),
    );
    expect([debit!.status, ret!.status]).toEqual(['MATCHED', 'MATCHED']);
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    expect(await transferStatus(world.db, returned!.id)).toBe('REJECTED');
    expect(await settlementStatuses(world.db, await settlementsOf(returned!.id))).toEqual(['SETTLED']);
    expect(await settlementStatuses(world.db, await settlementsOf(kept!.id))).toEqual(['PAID']);
  });

  it('pays the file with its batch debit imported after the return of one of its transfers', async () => {
    const file = await generateSepaFile(world, [4500, 5500]);
    const [returned, kept] = file.transfers;
    const [ret] = await importThroughApi(
      world,
      camt053([
        {
          cents: returned!.amountCents,
          date: '2026-05-11',
          endToEndId: returned!.endToEndId,
          returnReason: 'AC01',
        },
      ]),
    );
    expect(ret!.status).toBe('MATCHED');
    expect(await transferStatus(world.db, returned!.id)).toBe('REJECTED');
    // The bank's statement of the week before, imported late: the debit of the whole file.
    const [debit] = await importThroughApi(
      world,
      camt053([{ cents: -file.amountCents, date: '2026-05-08', paymentInfoId: file.paymentInfoId }]),
    );
    expect(debit).toMatchObject({ status: 'MATCHED' });
    expect(debit!.differenceCents ?? 0).toBe(0);
    expect(await sepaStatus(world.db, file.id)).toBe('PAID');
    expect(await settlementStatuses(world.db, await settlementsOf(returned!.id))).toEqual(['SETTLED']);
    expect(await settlementStatuses(world.db, await settlementsOf(kept!.id))).toEqual(['PAID']);
  });

  /** One line as the reconciliation table reads it. */
  async function importThroughApiLines(lineId: string) {
    const { rows } = await world.db.query<{ statement_file_id: string }>(
      'SELECT statement_file_id FROM statement_lines WHERE id = $1',
      [lineId],
    );
    const page = await expectStatus<{
      items: { id: string; status: string; differenceCents: number | null }[];
    }>(
      await world.call('GET', `/v2/admin/statements/lines?statementFileId=${rows[0]!.statement_file_id}`),
      200,
    );
    return page.items.filter((l) => l.id === lineId);
  }
});
