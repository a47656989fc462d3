import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { inFlight, secondConnection } from '../support/lock-waits';
import { count } from './harness';
import { type SettlementWorld, startSettlementWorld, VALID_IBAN } from './settlement-support';

/**
 * The SEPA claim against the settlement guards, on two connections (decision 0119): the claim links
 * settlements FOR KEY SHARE, the guards lock them FOR UPDATE and then read the live links in a second
 * statement. Whichever commits first, the other must see it: a generation that waited for a refund or
 * an adjustment answers SEPA_CHANGED_RETRY and keeps nothing; a refund, adjustment or delete that
 * waited for a claim finds the settlement PENDING_TRANSFER and refuses. Only PostgreSQL has two
 * connections to race; PGlite has one.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('SEPA claim against the settlement guards, two connections on postgres', () => {
  let world: SettlementWorld;
  beforeAll(async () => {
    world = await startSettlementWorld(testDatabaseKinds().find((kind) => kind.name === 'postgres')!);
  }, 120_000);
  afterAll(async () => world?.stop());
  const other = secondConnection(() => world.db, serverUrl);

  let keyNumber = 0;
  const generate = (referenceMonth: string, professionalIds: string[]) =>
    world.request(
      'POST',
      '/v2/admin/settlement/sepa/',
      { referenceMonth, professionalIds },
      {
        'idempotency-key': `race-${++keyNumber}`,
      },
    );

  const shown = async (ids: readonly string[]) => world.statuses(ids);
  const stored = async (ids: readonly string[]) =>
    Object.fromEntries(
      (
        await world.db.query<{
          id: string;
          status: string;
          adjusted_cents: number | null;
          notes: string | null;
        }>('SELECT id, status, adjusted_cents, notes FROM settlements WHERE id = ANY($1::uuid[])', [ids])
      ).rows.map((row) => [
        row.id,
        { status: row.status, adjustedCents: row.adjusted_cents, notes: row.notes },
      ]),
    );

  let monthNumber = 0;
  /** A complete doctor with three SETTLED settlements in a month of their own. */
  async function settledMonth() {
    const referenceMonth = `2024-${String(++monthNumber).padStart(2, '0')}`;
    const professionalId = await world.professional('Dra. Corrida');
    const ids: string[] = [];
    for (const priceCents of [2000, 3000, 4000])
      ids.push(await world.settlement({ professionalId, referenceMonth, priceCents, status: 'SETTLED' }));
    return { referenceMonth, professionalId, ids };
  }

  it.each([
    ['refunded', `UPDATE settlements SET status = 'REFUNDED' WHERE id = $1`, 'REFUNDED'],
    [
      'adjusted',
      `UPDATE settlements SET adjusted_cents = 100, adjustment_note = 'Desconto acordado' WHERE id = $1`,
      'SETTLED',
    ],
    ['deleted', 'DELETE FROM settlements WHERE id = $1', undefined],
  ])(
    'a generation that waited for a settlement being %s answers SEPA_CHANGED_RETRY and keeps nothing',
    async (_, change, after) => {
      const { referenceMonth, professionalId, ids } = await settledMonth();
      const victim = ids[1]!;
      const files = await count(world.db, 'sepa_files');
      const audit = await count(world.db, 'audit_log');
      expect(await shown(ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'SETTLED'])));

      await other.query('BEGIN');
      await other.query('SELECT id FROM settlements WHERE id = $1 FOR UPDATE', [victim]);
      await other.query(change, [victim]);
      const generation = inFlight(generate(referenceMonth, [professionalId]));
      // It planned with the settlement as it was (the change is not committed) and waits in the claim.
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
      expect(await count(world.db, 'sepa_transactions WHERE professional_id = $1', [professionalId])).toBe(0);
      expect(
        await count(world.db, 'sepa_transaction_settlements WHERE settlement_id = ANY($1::uuid[])', [ids]),
      ).toBe(0);
      expect(await count(world.db, 'audit_log')).toBe(audit);
      expect(await shown(ids)).toEqual({ [ids[0]!]: 'SETTLED', [victim]: after, [ids[2]!]: 'SETTLED' });

      // Asked again, the month is generated as it now stands.
      const again = inFlight(generate(referenceMonth, [professionalId]));
      const answer = await again.answer;
      expect(answer.status).toBe(200);
      const claimed = after === 'SETTLED' ? ids : [ids[0]!, ids[2]!];
      expect(Object.values(await shown(claimed)).every((status) => status === 'PENDING_TRANSFER')).toBe(true);
    },
  );

  it('a generation that waited while a paid settlement of the doctor was refunded answers SEPA_CHANGED_RETRY: the new recovery is not in its plan', async () => {
    const { referenceMonth, professionalId, ids } = await settledMonth();
    // Paid in an earlier file; its refund (PAID → REFUNDED_PAID) makes it a recovery the next file deducts.
    const paid = await world.settlement({
      professionalId,
      referenceMonth: '2023-12',
      priceCents: 5000,
      status: 'PAID',
    });
    const files = await count(world.db, 'sepa_files');
    const audit = await count(world.db, 'audit_log');

    // The refund commits while the claim waits for a settlement of the month the same transaction holds.
    await other.query('BEGIN');
    await other.query('SELECT id FROM settlements WHERE id = $1 FOR UPDATE', [ids[0]]);
    await other.query(`UPDATE settlements SET status = 'REFUNDED_PAID' WHERE id = $1`, [paid]);
    const generation = inFlight(generate(referenceMonth, [professionalId]));
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
    expect(await count(world.db, 'sepa_transaction_recoveries WHERE settlement_id = $1', [paid])).toBe(0);
    expect(await count(world.db, 'audit_log')).toBe(audit);

    // Asked again, the file deducts the recovery from the month's transfer.
    const again = await inFlight(generate(referenceMonth, [professionalId])).answer;
    expect(again.status).toBe(200);
    expect(
      await count(world.db, 'sepa_transaction_recoveries WHERE settlement_id = $1 AND live', [paid]),
    ).toBe(1);
    expect(Object.values(await shown(ids))).toEqual([
      'PENDING_TRANSFER',
      'PENDING_TRANSFER',
      'PENDING_TRANSFER',
    ]);
  });

  it.each([
    ['a refund', 'POST', 'refund', { note: 'Cliente reembolsado' }, 'SETTLEMENT_TRANSITION_NOT_ALLOWED'],
    [
      'an adjustment',
      'PATCH',
      '',
      { adjustedCents: 100, adjustmentNote: 'Desconto' },
      'SETTLEMENT_NOT_ADJUSTABLE',
    ],
    ['a delete', 'DELETE', '', undefined, 'SETTLEMENT_NOT_DELETABLE'],
  ] as const)(
    '%s that waited for a claim finds the settlement PENDING_TRANSFER and refuses (409)',
    async (_, method, action, body, code) => {
      const { referenceMonth, professionalId, ids } = await settledMonth();
      const victim = ids[0]!;
      const before = await stored(ids);
      const audit = await count(world.db, 'audit_log');

      // A claim by hand, as the generation makes it: file, transfer, and the link written from the
      // settlement locked FOR KEY SHARE — left uncommitted.
      await other.query('BEGIN');
      const { rows: files } = await other.query<{ id: string }>(
        `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                                 execution_date, debtor_name, debtor_iban)
         VALUES ($1, $1 || '-P1', 1, 1, $2, '2099-01-02', 'Debtor', $3) RETURNING id`,
        [`RACE-${referenceMonth}`, referenceMonth, VALID_IBAN],
      );
      const fileId = files[0]!.id;
      const { rows: transfers } = await other.query<{ id: string }>(
        `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents,
                                        creditor_name, creditor_iban, remittance_information)
         VALUES ($1, $2, $3, 1, 'Creditor', $4, '') RETURNING id`,
        [fileId, `RACE-${referenceMonth}-1`, professionalId, VALID_IBAN],
      );
      const { rows: linked } = await other.query(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
         SELECT $1, $2, s.id, coalesce(s.adjusted_cents, s.net_cents)
           FROM settlements s WHERE s.id = $3 AND s.status = 'SETTLED'
          ORDER BY s.id
            FOR KEY SHARE OF s
         RETURNING settlement_id`,
        [transfers[0]!.id, fileId, victim],
      );
      expect(linked).toHaveLength(1);

      const guard = inFlight(
        world.request(method, `/v2/admin/settlement/${victim}${action ? `/${action}` : ''}`, body),
      );
      // It waits in lockSettlements' FOR UPDATE for the claim.
      const waiting = await other.waiters(guard.state);
      expect(waiting).toHaveLength(1);
      expect(waiting[0]).toMatch(/FROM settlements WHERE id = ANY\(\$1::uuid\[\]\) ORDER BY id FOR UPDATE$/);
      await other.query('COMMIT');

      expect(await guard.answer).toEqual({ status: 409, body: expect.objectContaining({ code }) });
      expect(await stored(ids)).toEqual(before);
      expect(await shown(ids)).toEqual({
        [victim]: 'PENDING_TRANSFER',
        [ids[1]!]: 'SETTLED',
        [ids[2]!]: 'SETTLED',
      });
      expect(
        await count(world.db, 'sepa_transaction_settlements WHERE settlement_id = $1 AND live', [victim]),
      ).toBe(1);
      expect(await count(world.db, 'audit_log')).toBe(audit);
    },
  );
});
