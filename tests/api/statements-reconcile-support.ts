import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Database } from '../../server/db/client';
import { insertUser } from './harness';
import { type CamtEntry, camt053, importCamt } from './sepa-statement-support';
import { expectStatus, insertDoctor, insertSettlements, MONTH, type SepaWorld } from './sepa-support';

/** A bank line of a test statement; what is not given is blank. */
export interface NewLine {
  amountCents: number;
  bankDate?: string;
  description?: string;
  counterpartyName?: string;
  counterpartyIban?: string;
  endToEndId?: string;
  batchId?: string;
  bankReference?: string;
  kind?: 'transfer' | 'return' | 'fee' | 'other';
  returnReason?: string;
}

export const STATEMENT_DAY = '2026-05-08';

/** How a camt.053 says what kind of entry a line is (`BkTxCd` family and sub-family). */
const BANK_TRANSACTION_CODE: Record<NonNullable<NewLine['kind']>, { family: string; subFamily: string }> = {
  transfer: { family: 'ICDT', subFamily: 'ESCT' },
  return: { family: 'ICDT', subFamily: 'RRTN' },
  fee: { family: 'CHRG', subFamily: 'CHRG' },
  other: { family: 'MCOP', subFamily: 'OTHR' },
};

/**
 * A statement of these lines through the product's own import (`POST /v2/admin/statements/imports`, a
 * camt.053 of the test account, opening 0, closing the lines' sum unless told, then imported with a
 * note): the file, its lines' ids in the given order, and what the import's matching did.
 */
export async function importStatement(
  world: SepaWorld,
  lines: readonly NewLine[],
  options: { closingCents?: number } = {},
): Promise<{
  fileId: string;
  lineIds: string[];
  result: { matched: number; suggested: number; unmatched: number };
}> {
  const entries: CamtEntry[] = lines.map((line) => ({
    cents: line.amountCents,
    date: line.bankDate ?? STATEMENT_DAY,
    paymentInfoId: line.batchId,
    endToEndId: line.endToEndId,
    returnReason: line.returnReason,
    ...BANK_TRANSACTION_CODE[line.kind ?? 'transfer'],
    text: line.description || undefined,
    counterpartyName: line.counterpartyName,
    counterpartyIban: line.counterpartyIban,
    bankReference: line.bankReference,
  }));
  const note =
    options.closingCents === undefined ? {} : { mismatchNote: 'Saldo final do banco por conferir' };
  const { statementFileId, matched, suggested, unmatched } = await importCamt(
    world,
    camt053(entries, options),
    note,
  );
  // The camt's entries are stored in file order: their line numbers follow the order given.
  const { rows } = await world.db.query<{ id: string }>(
    'SELECT id FROM statement_lines WHERE statement_file_id = $1 ORDER BY line_number',
    [statementFileId],
  );
  expect(rows).toHaveLength(lines.length);
  return {
    fileId: statementFileId,
    lineIds: rows.map((row) => row.id),
    result: { matched, suggested, unmatched },
  };
}

export interface GeneratedFile {
  id: string;
  msgId: string;
  paymentInfoId: string;
  amountCents: number;
  transfers: { id: string; endToEndId: string; professionalId: string; amountCents: number }[];
  settlementIds: string[];
}

let keys = 0;

/** A SEPA file of `doctors` doctors (one settlement each, of these gross amounts), through the API. */
export async function generateSepaFile(world: SepaWorld, grossCents: number[]): Promise<GeneratedFile> {
  const settlementIds: string[] = [];
  const professionalIds: string[] = [];
  for (const gross of grossCents) {
    const doctor = await insertDoctor(world.db);
    professionalIds.push(doctor.id);
    settlementIds.push(
      ...(await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: gross }])),
    );
  }
  const generated = await expectStatus<{ file: { id: string } }>(
    await world.call('POST', '/v2/admin/settlement/sepa/', {
      body: { referenceMonth: MONTH, professionalIds },
      headers: { 'idempotency-key': `reconcile-${++keys}-${randomUUID()}` },
    }),
    200,
  );
  const detail = await expectStatus<Omit<GeneratedFile, 'settlementIds'>>(
    await world.call('GET', `/v2/admin/settlement/sepa/${generated.file.id}`),
    200,
  );
  return { ...detail, settlementIds };
}

export const settlementStatuses = async (db: Database, ids: string[]) =>
  (
    await db.query<{ status: string }>(
      'SELECT status FROM settlement_statuses WHERE id = ANY($1::uuid[]) ORDER BY status',
      [ids],
    )
  ).rows.map((r) => r.status);

export const sepaStatus = async (db: Database, id: string) =>
  (await db.query<{ status: string }>('SELECT status FROM sepa_files WHERE id = $1', [id])).rows[0]!.status;

export const transferStatus = async (db: Database, id: string) =>
  (await db.query<{ status: string }>('SELECT status FROM sepa_transactions WHERE id = $1', [id])).rows[0]!
    .status;

export const lineStatus = async (db: Database, id: string) =>
  (await db.query<{ status: string }>('SELECT status FROM statement_lines WHERE id = $1', [id])).rows[0]!
    .status;

/** A statement line returning `transfer` (AC04), imported and matched to it: the line's id. */
export async function importReturn(
  world: SepaWorld,
  transfer: { amountCents: number; endToEndId: string },
): Promise<string> {
  const { lineIds, result } = await importStatement(world, [
    {
      amountCents: transfer.amountCents,
      bankDate: '2026-05-11',
      endToEndId: transfer.endToEndId,
      kind: 'return',
      returnReason: 'AC04',
      description: `DEVOLUCAO ${transfer.endToEndId}`,
    },
  ]);
  expect(result).toEqual({ matched: 1, suggested: 0, unmatched: 0 });
  return lineIds[0]!;
}

/** `u` on a statement line: its match undone, with every consequence (a return's included). */
export const unmatchLine = (world: SepaWorld, lineId: string) =>
  world.call('POST', `/v2/admin/statements/lines/${lineId}/unmatch`);

export async function insertPayout(db: Database, amountCents: number, date = STATEMENT_DAY): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ($1, $2, $3) RETURNING id`,
    [`po_${randomUUID().replace(/-/g, '').slice(0, 20)}`, amountCents, date],
  );
  return rows[0]!.id;
}

/** A customer of this full name (a sales document names its customer, migration 0053). */
export async function insertNamedCustomer(db: Database, fullName: string): Promise<string> {
  const id = await insertUser(db, { email: `c-${randomUUID()}@demo.pt`, role: 'CUSTOMER' });
  await db.query('UPDATE users SET full_name = $2 WHERE id = $1', [id, fullName]);
  return id;
}

/** An invoice (FT) of `cents`, dated `day`, billing a paid case of the customer's with the doctor: its id. */
export async function insertCustomerInvoice(
  db: Database,
  customerId: string,
  doctorId: string,
  cents: number,
  day: string,
): Promise<string> {
  const [settlementId] = await insertSettlements(db, customerId, doctorId, [{ grossCents: cents }]);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO provider_invoices (provider_invoice_id, invoice_no, document_type, amount_cents, invoice_date, settlement_id)
     VALUES ($1, $1, 'FT', $2, $3, $4) RETURNING id`,
    [`FT ${randomUUID()}`, cents, day, settlementId],
  );
  return rows[0]!.id;
}
