import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { inFlight, secondConnection } from '../support/lock-waits';
import { count } from './harness';
import { expectStatus, MONTH, newIban, type SepaWorld, startSepaWorld } from './sepa-support';
import {
  generateSepaFile,
  importReturn,
  importStatement,
  lineStatus,
  settlementStatuses,
  transferStatus,
  unmatchLine,
} from './statements-reconcile-support';

/**
 * Unmatching a return (undoReturn, server/statements/effects.ts) against a refund or a SEPA claim, on
 * two connections (decision 0119). The undo locks the returned transfer's settlements FOR KEY SHARE
 * before it checks they are still SETTLED and in no live file; the guards lock them FOR UPDATE and then
 * read the live links. Whichever commits first, the other must see it: an undo that waited for a refund
 * refuses STATEMENT_UNMATCH_BLOCKED and keeps the return; a refund that waited for an undo finds the
 * settlement PENDING_TRANSFER again and refuses. A claim locks them FOR KEY SHARE too, which the undo
 * shares: neither waits for the other's lock, and the second to write a live link waits on the unique
 * key `sepa_transaction_settlements_settlement_key` and then refuses — the undo
 * STATEMENT_UNMATCH_BLOCKED, the generation SEPA_CHANGED_RETRY — instead of a 500. Only PostgreSQL
 * has two connections to race.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)(
  'a return unmatched against a refund or a claim, two connections on postgres',
  () => {
    let world: SepaWorld;
    beforeAll(async () => {
      world = await startSepaWorld(testDatabaseKinds().find((kind) => kind.name === 'postgres')!);
    }, 120_000);
    afterAll(async () => world?.stop());
    const other = secondConnection(() => world.db, serverUrl);

    /**
     * A two-transfer SEPA file whose first transfer a statement line returns (AC04), after the file was
     * PAID by its batch debit or before: the transfer REJECTED, its settlement SETTLED, the doctor blocked.
     */
    async function returnedTransfer(paidFirst: boolean) {
      const file = await generateSepaFile(world, [15_000, 9000]);
      if (paidFirst)
        await importStatement(world, [{ amountCents: -file.amountCents, batchId: file.paymentInfoId }]);
      const transfer = file.transfers[0]!;
      const lineIds = [await importReturn(world, transfer)];
      const { rows } = await world.db.query<{ settlement_id: string }>(
        'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
        [transfer.id],
      );
      const settlementIds = rows.map((row) => row.settlement_id);
      expect(settlementIds).toHaveLength(1);
      expect(await settlementStatuses(world.db, settlementIds)).toEqual(['SETTLED']);
      expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
      expect(await blocks(transfer.professionalId)).toBe(1);
      return { file, transfer, settlementIds, lineId: lineIds[0]! };
    }
    const blocks = (professionalId: string) =>
      count(world.db, 'payout_blocks WHERE professional_id = $1', [professionalId]);
    const liveLinks = (ids: readonly string[]) =>
      count(world.db, 'sepa_transaction_settlements WHERE settlement_id = ANY($1::uuid[]) AND live', [ids]);
    const stored = async (id: string) =>
      (
        await world.db.query<{ status: string; notes: string | null }>(
          'SELECT status, notes FROM settlements WHERE id = $1',
          [id],
        )
      ).rows[0]!;
    /** The transfer each settlement's live link is in. */
    const liveTransfers = async (ids: readonly string[]) =>
      (
        await world.db.query<{ sepa_transaction_id: string }>(
          'SELECT sepa_transaction_id FROM sepa_transaction_settlements WHERE settlement_id = ANY($1::uuid[]) AND live',
          [ids],
        )
      ).rows.map((row) => row.sepa_transaction_id);
    const generate = (professionalId: string) =>
      world.call('POST', '/v2/admin/settlement/sepa/', {
        body: { referenceMonth: MONTH, professionalIds: [professionalId] },
        headers: { 'idempotency-key': `undo-race-${randomUUID()}` },
      });

    it.each([
      ['before the file was paid', false],
      ['after the file was PAID', true],
    ])(
      'an unmatch of a return (%s) that waited for a refund answers STATEMENT_UNMATCH_BLOCKED and keeps the return',
      async (_, paidFirst) => {
        const { transfer, settlementIds, lineId } = await returnedTransfer(paidFirst);
        const victim = settlementIds[0]!;
        const audit = await count(world.db, 'audit_log');

        // A refund by hand, as refundSettlement makes it: the row locked FOR UPDATE, then REFUNDED —
        // left uncommitted.
        await other.query('BEGIN');
        await other.query('SELECT id FROM settlements WHERE id = $1 FOR UPDATE', [victim]);
        await other.query(
          `UPDATE settlements SET status = 'REFUNDED', notes = 'Cliente reembolsado' WHERE id = $1`,
          [victim],
        );
        const undo = inFlight(unmatchLine(world, lineId));
        // It waits in undoReturn's FOR KEY SHARE, before its check. Soft: were it not to wait, what it
        // then answers and leaves is the failure worth reading.
        const waiting = await other.waiters(undo.state);
        expect.soft(waiting).toHaveLength(1);
        expect
          .soft(waiting[0])
          .toMatch(/FROM settlements WHERE id = ANY\(\$1::uuid\[\]\) ORDER BY id FOR KEY SHARE$/);
        await other.query('COMMIT');

        expect(await undo.answer).toEqual({
          status: 409,
          body: expect.objectContaining({ code: 'STATEMENT_UNMATCH_BLOCKED' }),
        });
        expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
        expect(await liveLinks(settlementIds)).toBe(0);
        expect(await stored(victim)).toEqual({ status: 'REFUNDED', notes: 'Cliente reembolsado' });
        expect(await settlementStatuses(world.db, settlementIds)).toEqual(['REFUNDED']);
        expect(await blocks(transfer.professionalId)).toBe(1);
        expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
        expect(await count(world.db, 'audit_log')).toBe(audit);

        // Asked again, with nothing in flight, the answer is the same.
        expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
          code: 'STATEMENT_UNMATCH_BLOCKED',
        });
      },
    );

    it('a refund that waited for an undo finds the settlement PENDING_TRANSFER again and refuses (409)', async () => {
      const { transfer, settlementIds } = await returnedTransfer(false);
      const victim = settlementIds[0]!;
      const audit = await count(world.db, 'audit_log');

      // An undo in progress, as undoReturn makes it: the settlements locked FOR KEY SHARE, the links
      // live again — left uncommitted.
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE', [
        settlementIds,
      ]);
      await other.query(
        'UPDATE sepa_transaction_settlements SET live = true WHERE sepa_transaction_id = $1',
        [transfer.id],
      );
      const refund = inFlight(
        world.call('POST', `/v2/admin/settlement/${victim}/refund`, {
          body: { note: 'Cliente reembolsado' },
        }),
      );
      // It waits in lockSettlements' FOR UPDATE.
      const waiting = await other.waiters(refund.state);
      expect(waiting).toHaveLength(1);
      expect(waiting[0]).toMatch(/FROM settlements WHERE id = ANY\(\$1::uuid\[\]\) ORDER BY id FOR UPDATE$/);
      await other.query('COMMIT');

      expect(await refund.answer).toEqual({
        status: 409,
        body: expect.objectContaining({ code: 'SETTLEMENT_TRANSITION_NOT_ALLOWED' }),
      });
      expect((await stored(victim)).status).toBe('SETTLED');
      expect(await settlementStatuses(world.db, settlementIds)).toEqual(['PENDING_TRANSFER']);
      expect(await liveLinks(settlementIds)).toBe(1);
      expect(await count(world.db, 'audit_log')).toBe(audit);
    });
    it('an unmatch of a return that waited for a claim of its settlement answers STATEMENT_UNMATCH_BLOCKED and keeps the return', async () => {
      const { transfer, settlementIds, lineId } = await returnedTransfer(false);
      const audit = await count(world.db, 'audit_log');

      // A claim by hand, as the generation makes it: file, transfer, and the links written from the
      // settlements locked FOR KEY SHARE — left uncommitted (the payout block is the plan's, not the
      // claim's, concern).
      const tag = `RACE-UNDO-${randomUUID().slice(0, 8)}`;
      await other.query('BEGIN');
      const { rows: files } = await other.query<{ id: string }>(
        `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                               execution_date, debtor_name, debtor_iban)
       VALUES ($1, $1 || '-P1', 1, 1, $2, '2099-01-02', 'Debtor', $3) RETURNING id`,
        [tag, MONTH, newIban()],
      );
      const fileId = files[0]!.id;
      const { rows: transfers } = await other.query<{ id: string }>(
        `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents,
                                      creditor_name, creditor_iban, remittance_information)
       VALUES ($1, $2, $3, 1, 'Creditor', $4, '') RETURNING id`,
        [fileId, `${tag}-1`, transfer.professionalId, newIban()],
      );
      const claimId = transfers[0]!.id;
      const { rows: linked } = await other.query(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
       SELECT $1, $2, s.id, coalesce(s.adjusted_cents, s.net_cents)
         FROM settlements s WHERE s.id = ANY($3::uuid[]) AND s.status = 'SETTLED'
        ORDER BY s.id
          FOR KEY SHARE OF s
       RETURNING settlement_id`,
        [claimId, fileId, settlementIds],
      );
      expect(linked).toHaveLength(settlementIds.length);

      const undo = inFlight(unmatchLine(world, lineId));
      // Its FOR KEY SHARE shares the claim's and its check does not see the uncommitted links: it waits
      // in the re-live UPDATE, on the unique key of the live link. Soft: were it not to wait, what it then
      // answers and leaves is the failure worth reading.
      const waiting = await other.waiters(undo.state);
      expect.soft(waiting).toHaveLength(1);
      expect.soft(waiting[0]).toMatch(/^UPDATE sepa_transaction_settlements SET live = true WHERE /);
      await other.query('COMMIT');

      expect(await undo.answer).toEqual({
        status: 409,
        body: expect.objectContaining({ code: 'STATEMENT_UNMATCH_BLOCKED' }),
      });
      expect(await transferStatus(world.db, transfer.id)).toBe('REJECTED');
      expect(await liveTransfers(settlementIds)).toEqual(settlementIds.map(() => claimId));
      expect(await settlementStatuses(world.db, settlementIds)).toEqual(['PENDING_TRANSFER']);
      expect(await blocks(transfer.professionalId)).toBe(1);
      expect(await lineStatus(world.db, lineId)).toBe('MATCHED');
      expect(await count(world.db, 'audit_log')).toBe(audit);

      // Asked again, with nothing in flight, the answer is the same.
      expect(await expectStatus(await unmatchLine(world, lineId), 409)).toMatchObject({
        code: 'STATEMENT_UNMATCH_BLOCKED',
      });
    });

    it('a generation that waited for an undo putting the settlement back in its file answers SEPA_CHANGED_RETRY and keeps nothing', async () => {
      const { transfer, settlementIds } = await returnedTransfer(false);
      // A new IBAN lifts the payout block (it holds only while the IBAN is the rejected one, decision
      // 0070), so a new file may pay the doctor.
      await world.db.query('UPDATE users SET iban = $2 WHERE id = $1', [transfer.professionalId, newIban()]);
      const files = await count(world.db, 'sepa_files');
      const transfers = await count(world.db, 'sepa_transactions WHERE professional_id = $1', [
        transfer.professionalId,
      ]);
      const audit = await count(world.db, 'audit_log');

      // An undo in progress, as undoReturn makes it: the settlements locked FOR KEY SHARE, the links
      // live again — left uncommitted.
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE', [
        settlementIds,
      ]);
      await other.query(
        'UPDATE sepa_transaction_settlements SET live = true WHERE sepa_transaction_id = $1',
        [transfer.id],
      );
      const generation = inFlight(generate(transfer.professionalId));
      // It planned with the settlement waiting for a file (the undo is not committed) and waits in the
      // claim, on the unique key of the live link.
      const waiting = await other.waiters(generation.state);
      expect(waiting.map((query) => query.split('(')[0]!.trim())).toEqual([
        'INSERT INTO sepa_transaction_settlements',
      ]);
      await other.query('COMMIT');

      expect(await generation.answer).toEqual({
        status: 409,
        body: expect.objectContaining({ code: 'SEPA_CHANGED_RETRY' }),
      });
      expect(await count(world.db, 'sepa_files')).toBe(files);
      expect(
        await count(world.db, 'sepa_transactions WHERE professional_id = $1', [transfer.professionalId]),
      ).toBe(transfers);
      expect(await liveTransfers(settlementIds)).toEqual(settlementIds.map(() => transfer.id));
      expect(await settlementStatuses(world.db, settlementIds)).toEqual(['PENDING_TRANSFER']);
      expect(await count(world.db, 'audit_log')).toBe(audit);

      // Asked again, the settlement is in its file: nothing to generate.
      expect(await expectStatus(await generate(transfer.professionalId), 409)).toMatchObject({
        code: 'NO_SEPA_CREATED',
      });
    });
  },
);
