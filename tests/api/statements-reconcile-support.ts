import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Database } from '../../server/db/client';
import { matchStatementFile } from '../../server/statements/matching';
import { expectStatus, insertDoctor, insertSettlements, MONTH, type SepaWorld } from './sepa-support';

/** A bank line as the import would write it; what is not given is blank. */
export interface NewLine {
  amountCents: number;
  bankDate?: string;
  description?: string;
  counterpartyName?: string | null;
  counterpartyIban?: string | null;
  endToEndId?: string | null;
  batchId?: string | null;
  bankReference?: string | null;
  kind?: 'transfer' | 'return' | 'fee' | 'other';
  returnReason?: string | null;
}

export const STATEMENT_DAY = '2026-05-08';

/**
 * A statement file and its lines written directly (the import is another branch's), then matched in
 * one transaction as the import does. Opening 0, closing the lines' sum unless told otherwise.
 */
export async function importStatement(
  db: Database,
  uploaderId: string,
  lines: NewLine[],
  options: { closingCents?: number } = {},
): Promise<{ fileId: string; lineIds: string[]; result: Awaited<ReturnType<typeof matchStatementFile>> }> {
  const sha = randomUUID().replace(/-/g, '').padEnd(64, '0');
  const { rows: stored } = await db.query<{ id: string }>(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('extrato.csv', 'text/csv', 1, $1, 'x/' || $1) RETURNING id`,
    [sha],
  );
  const sum = lines.reduce((s, l) => s + l.amountCents, 0);
  const { rows: file } = await db.query<{ id: string }>(
    `INSERT INTO statement_files (file_id, file_name, format, sha256, account_iban, opening_balance_cents,
                                  closing_balance_cents, line_count, uploaded_by)
     VALUES ($1, $2, 'CSV', $3, 'PT50000201231234567890154', 0, $4, $5, $6) RETURNING id`,
    [
      stored[0]!.id,
      `extrato-${sha.slice(0, 6)}.csv`,
      sha,
      options.closingCents ?? sum,
      lines.length,
      uploaderId,
    ],
  );
  const lineIds: string[] = [];
  for (const [index, line] of lines.entries()) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, value_date,
                                    description, counterparty_name, counterparty_iban, end_to_end_id, batch_id,
                                    bank_reference, kind, return_reason)
       VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        file[0]!.id,
        index + 1,
        `${sha}-${index}`,
        line.amountCents,
        line.bankDate ?? STATEMENT_DAY,
        line.description ?? '',
        line.counterpartyName ?? null,
        line.counterpartyIban ?? null,
        line.endToEndId ?? null,
        line.batchId ?? null,
        line.bankReference ?? null,
        line.kind ?? 'transfer',
        line.returnReason ?? null,
      ],
    );
    lineIds.push(rows[0]!.id);
  }
  const result = await db.transaction((tx) => matchStatementFile(tx, file[0]!.id));
  return { fileId: file[0]!.id, lineIds, result };
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
  const { lineIds, result } = await importStatement(world.db, world.adminId, [
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
