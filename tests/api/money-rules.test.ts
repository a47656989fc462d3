import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementImportJob } from '../../contract/statement-import';
import { testDatabaseKinds } from '../support/databases';
import { count, issueToken } from './harness';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  MONTH,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';
import { importStatement, type StatementApi } from './statement-support';
import { type GeneratedFile, generateSepaFile } from './statements-reconcile-support';

/**
 * Money rules that a one-character change of the product used to leave every test green (issue 30,
 * point 2). Each test here is named by the mutation of scripts/mutations.mjs it kills; all go over
 * HTTP through the routes the console uses, on PGlite and PostgreSQL. Today is Thursday 2026-05-07.
 */
describe.each(testDatabaseKinds())('money rules the mutation check guards, on $name', (kind) => {
  let world: SepaWorld;
  let statementApi: StatementApi;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
    statementApi = { url: world.url, token: await issueToken(world.db, world.adminId) };
  }, 120_000);
  afterAll(async () => world?.stop());

  const sepaFile = async (id: string) =>
    expectStatus<{ status: string }>(await world.call('GET', `/v2/admin/settlement/sepa/${id}`), 200);
  const shownStatuses = async (professionalId: string) =>
    (
      await expectStatus<{ items: { id: string; status: string }[] }>(
        await world.call('GET', `/v2/admin/settlement/?professionalId=${professionalId}`),
        200,
      )
    ).items.map((item) => item.status);

  /** A bank statement CSV debiting each transfer by its EndToEndId, imported through the upload route. */
  async function importDebits(debits: { endToEndId: string; cents: number }[], name: string) {
    const rows = debits.map(
      (debit) =>
        `08-05-2026;08-05-2026;"TRF SEPA ${debit.endToEndId}";"";-${Math.floor(debit.cents / 100)},${String(debit.cents % 100).padStart(2, '0')};${debit.endToEndId}`,
    );
    const csv = [
      'Conta;PT50 0002 0123 1234 5678 9015 4',
      '',
      'Data Movimento;Data Valor;Descrição;Beneficiário;Montante;End To End Id',
      ...rows,
      '',
    ].join('\r\n');
    const imported = await importStatement(statementApi, new Uint8Array(Buffer.from(csv, 'utf8')), name);
    expect(imported).toMatchObject({ status: 202, job: { status: 'DONE' } });
    return (imported.job as StatementImportJob).result!;
  }
  const linesOf = async (statementFileId: string) =>
    (
      await expectStatus<{ items: { status: string; differenceCents: number | null }[] }>(
        await world.call('GET', `/v2/admin/statements/lines?statementFileId=${statementFileId}`),
        200,
      )
    ).items.map((line) => ({ status: line.status, differenceCents: line.differenceCents }));

  it('sepa-execution-date-today-refused: an execution date of today is accepted, the day before is not', async () => {
    const doctor = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 5000 }]);
    const dryRun = (executionDate: string) =>
      world.call('POST', '/v2/admin/settlement/sepa/dry-run', {
        body: { referenceMonth: MONTH, professionalIds: [doctor.id], executionDate },
      });
    expect(await expectStatus(await dryRun('2026-05-07'), 200)).toMatchObject({
      executionDate: '2026-05-07',
    });
    expect(await expectStatus(await dryRun('2026-05-06'), 422)).toMatchObject({
      code: 'SEPA_EXECUTION_DATE_IN_PAST',
    });
    const files = await count(world.db, 'sepa_files');
    const generated = await expectStatus<{ file: { executionDate: string } }>(
      await world.call('POST', '/v2/admin/settlement/sepa/', {
        body: { referenceMonth: MONTH, professionalIds: [doctor.id], executionDate: '2026-05-07' },
        headers: { 'idempotency-key': `today-${kind.name}` },
      }),
      200,
    );
    expect(generated.file.executionDate).toBe('2026-05-07');
    expect(await count(world.db, 'sepa_files')).toBe(files + 1);
  });

  it('adjustment-equal-to-gross-refused: a payout adjusted to exactly the gross is kept; one cent more is refused', async () => {
    const doctor = await insertDoctor(world.db);
    const [id] = await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 7000 }]);
    const adjust = (adjustedCents: number) =>
      world.call('PATCH', `/v2/admin/settlement/${id}`, {
        body: { adjustedCents, adjustmentNote: 'Acerto com o cliente' },
      });
    expect(await expectStatus(await adjust(7001), 422)).toMatchObject({ code: 'ADJUSTMENT_ABOVE_GROSS' });
    expect(await expectStatus(await adjust(7000), 200)).toMatchObject({ adjustedCents: 7000 });
    const { rows } = await world.db.query<{ adjusted_cents: number }>(
      'SELECT adjusted_cents FROM settlements WHERE id = $1',
      [id],
    );
    expect(rows[0]!.adjusted_cents).toBe(7000);
  });

  it('paid-shown-as-pending-transfer: once its file is PAID a settlement is shown PAID, in the list and by its filter', async () => {
    const file: GeneratedFile = await generateSepaFile(world, [9000]);
    const doctor = file.transfers[0]!.professionalId;
    expect(await shownStatuses(doctor)).toEqual(['PENDING_TRANSFER']);
    await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${file.id}/paid`), 200);
    expect(await shownStatuses(doctor)).toEqual(['PAID']);
    const paidOnly = await expectStatus<{ items: { id: string }[] }>(
      await world.call('GET', `/v2/admin/settlement/?professionalId=${doctor}&status=PAID`),
      200,
    );
    expect(paidOnly.items.map((item) => item.id)).toEqual(file.settlementIds);
  });

  it('available-file-never-paid-by-statement: a statement debiting every transfer of an AVAILABLE file marks it PAID', async () => {
    const file = await generateSepaFile(world, [20_000, 15_000]);
    await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${file.id}/available`), 200);
    expect((await sepaFile(file.id)).status).toBe('AVAILABLE');
    const result = await importDebits(
      file.transfers.map((t) => ({ endToEndId: t.endToEndId, cents: t.amountCents })),
      'extrato-disponivel.csv',
    );
    expect(result).toMatchObject({ newLines: 2, matched: 2, suggested: 0, unmatched: 0 });
    expect(await linesOf(result.statementFileId)).toEqual([
      { status: 'MATCHED', differenceCents: 0 },
      { status: 'MATCHED', differenceCents: 0 },
    ]);
    expect((await sepaFile(file.id)).status).toBe('PAID');
    expect(await shownStatuses(file.transfers[0]!.professionalId)).toEqual(['PAID']);
  });

  it('one-cent-difference-matched: a debit one cent off its transfer is a DISCREPANCY of 1 cent, and pays nothing', async () => {
    const file = await generateSepaFile(world, [12_000]);
    const transfer = file.transfers[0]!;
    const result = await importDebits(
      [{ endToEndId: transfer.endToEndId, cents: transfer.amountCents + 1 }],
      'extrato-um-centimo.csv',
    );
    const lines = await linesOf(result.statementFileId);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.status).toBe('DISCREPANCY');
    expect(Math.abs(lines[0]!.differenceCents!)).toBe(1);
    expect((await sepaFile(file.id)).status).toBe('GENERATED');
  });
});
