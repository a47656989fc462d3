import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { statusReportFor } from '../support/status-report';
import { camt053, importThroughApi } from './sepa-statement-support';
import { expectStatus, type SepaWorld, startSepaWorld } from './sepa-support';
import { generateSepaFile, settlementStatuses, transferStatus } from './statements-reconcile-support';

// Issue 27, point 8: after the bank rejects part of a file, its batch debit of the accepted total pays
// the file — through the routes the product uses: generation, the pain.002 upload, the statement import.

describe.each(testDatabaseKinds())('a batch debit after a partial rejection on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const uploadReport = (xml: string) =>
    world.call('POST', '/v2/admin/settlement/sepa/status-report', {
      body: xml,
      headers: { 'content-type': 'application/xml' },
    });

  it('pays the file and its accepted transfers with one debit of the accepted total; the rejected stay rejected', async () => {
    const file = await generateSepaFile(world, [4000, 5000, 6000, 7000]);
    expect(file.transfers).toHaveLength(4);
    const [rejected, ...accepted] = file.transfers;
    await expectStatus(
      await uploadReport(
        statusReportFor(file, [{ endToEndId: rejected!.endToEndId, rejectedFor: 'AC04' }, ...accepted]),
      ),
      200,
    );
    const acceptedCents = accepted.reduce((sum, t) => sum + t.amountCents, 0);
    const [debit] = await importThroughApi(
      world,
      camt053([{ cents: -acceptedCents, date: '2026-05-08', paymentInfoId: file.paymentInfoId }]),
    );
    expect(debit).toMatchObject({ bankAmountCents: -acceptedCents, status: 'MATCHED' });
    expect(debit!.differenceCents ?? 0).toBe(0);

    const detail = await expectStatus<{
      status: string;
      transfers: { id: string; status: string; rejection: { reasonCode: string | null } | null }[];
      statusReports: { outcome: string; fileStatus: string }[];
      statementLines: { lineId: string; amountCents: number; role: string; endToEndId: string | null }[];
    }>(await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`), 200);
    expect(detail.status).toBe('PAID');
    // The file page's facts: the rejected transfer with its reason, the report, the line that paid it.
    expect(detail.transfers.find((t) => t.id === rejected!.id)?.rejection?.reasonCode).toBe('AC04');
    expect(detail.statusReports).toMatchObject([{ outcome: 'PARTIAL', fileStatus: 'AVAILABLE' }]);
    expect(detail.statementLines).toMatchObject([
      { lineId: debit!.id, amountCents: -acceptedCents, role: 'PAYMENT', endToEndId: null },
    ]);
    expect(await transferStatus(world.db, rejected!.id)).toBe('REJECTED');
    for (const t of accepted) expect(await transferStatus(world.db, t.id)).toBe('INCLUDED');
    const bySettlement = (transferId: string) =>
      world.db
        .query<{ settlement_id: string }>(
          'SELECT settlement_id FROM sepa_transaction_settlements WHERE sepa_transaction_id = $1',
          [transferId],
        )
        .then((r) => r.rows.map((row) => row.settlement_id));
    expect(await settlementStatuses(world.db, await bySettlement(rejected!.id))).toEqual(['SETTLED']);
    const acceptedSettlements = (await Promise.all(accepted.map((t) => bySettlement(t.id)))).flat();
    expect(await settlementStatuses(world.db, acceptedSettlements)).toEqual(['PAID', 'PAID', 'PAID']);
  });

  it('still refuses a debit of the whole file once part of it was rejected: the difference is shown', async () => {
    const file = await generateSepaFile(world, [4100, 5100]);
    const [rejected, accepted] = file.transfers;
    await expectStatus(
      await uploadReport(
        statusReportFor(file, [{ endToEndId: rejected!.endToEndId, rejectedFor: 'AC04' }, accepted!]),
      ),
      200,
    );
    // The bank debits the file's total anyway: the matcher does not pay the file with it.
    const [debit] = await importThroughApi(
      world,
      camt053([{ cents: -file.amountCents, date: '2026-05-08', paymentInfoId: file.paymentInfoId }]),
    );
    expect(debit!.status).not.toBe('MATCHED');
    expect(
      (await world.db.query<{ status: string }>('SELECT status FROM sepa_files WHERE id = $1', [file.id]))
        .rows[0]!.status,
    ).toBe('AVAILABLE');
  });
});
