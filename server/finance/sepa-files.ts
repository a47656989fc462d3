import type { z } from 'zod';
import type {
  sepaFileDetailSchema,
  sepaFileListQuerySchema,
  sepaFileSchema,
  sepaTransferSchema,
} from '../../contract/sepa';
import {
  canDeleteSepa,
  canDownloadSepa,
  nextSepaStatus,
  type SepaEvent,
  type SepaStatus,
  settlementEventFor,
} from '../../domain/sepa-status';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Database, Queryable } from '../db/client';
import { exactPage, type KeysetQuery, oneOf, SqlParams } from '../db/list';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { moveSettlements } from './ledger';
import { wholeCents } from './sepa-candidates';
import { LIVE_LINK_JOIN, SHOWN_STATUS } from './settlement-status-sql';

export type SepaFile = z.infer<typeof sepaFileSchema>;
export type SepaFileDetail = z.infer<typeof sepaFileDetailSchema>;
export type SepaFileListQuery = z.output<typeof sepaFileListQuerySchema>;
type SepaTransfer = z.infer<typeof sepaTransferSchema>;

const SUMMARY_COLUMNS = `f.id, f.msg_id, f.payment_info_id, f.status, f.reference_month, f.execution_date::text AS execution_date,
       f.amount_cents, f.transaction_count, f.currency, f.notes, f.created_at, f.updated_at, f.created_by,
       u.name AS created_by_name,
       (SELECT count(*) FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.status = 'REJECTED') AS rejected_count,
       (SELECT count(*) FROM sepa_transaction_settlements l WHERE l.sepa_file_id = f.id) AS settlement_count`;
const SUMMARY_FROM = `
    FROM sepa_files f
    LEFT JOIN users u ON u.id = f.created_by`;

interface SummaryRow {
  id: string;
  msg_id: string;
  payment_info_id: string;
  status: SepaStatus;
  reference_month: string;
  execution_date: string;
  amount_cents: number | string;
  transaction_count: number;
  currency: 'EUR';
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  rejected_count: number | string;
  settlement_count: number | string;
}

function toSepaFile(row: SummaryRow): SepaFile {
  return {
    id: row.id,
    msgId: row.msg_id,
    paymentInfoId: row.payment_info_id,
    status: row.status,
    referenceMonth: row.reference_month,
    executionDate: row.execution_date,
    amountCents: wholeCents(row.amount_cents),
    transferCount: row.transaction_count,
    rejectedTransferCount: wholeCents(row.rejected_count),
    settlementCount: wholeCents(row.settlement_count),
    currency: row.currency,
    notes: row.notes,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    createdBy: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    downloadable: canDownloadSepa(row.status),
  };
}

export async function sepaFileSummary(db: Queryable, id: string): Promise<SepaFile | null> {
  const { rows } = await db.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} ${SUMMARY_FROM} WHERE f.id = $1`, [
    id,
  ]);
  return rows[0] ? toSepaFile(rows[0]) : null;
}

/** The SEPA history: newest first by default, filters status / month, and a jump by MsgId. */
export async function listSepaFiles(db: Queryable, query: SepaFileListQuery) {
  const params = new SqlParams();
  const where: string[] = [];
  if (query.status?.length) where.push(...oneOf(params, 'f.status', query.status));
  if (query.referenceMonth) where.push(`f.reference_month = ${params.add(query.referenceMonth)}`);
  if (query.msgId) where.push(`f.msg_id = ${params.add(query.msgId)}`);
  const keyset: KeysetQuery = {
    select: SUMMARY_COLUMNS,
    from: SUMMARY_FROM,
    where,
    params,
    sort: { sql: 'f.created_at', type: 'timestamptz' },
    id: 'f.id',
    order: query.order,
  };
  const page = await exactPage<SummaryRow>(db, keyset, query);
  return { items: page.rows.map(toSepaFile), nextCursor: page.nextCursor, total: page.total };
}

interface TransferRow {
  id: string;
  end_to_end_id: string;
  professional_id: string;
  professional_name: string;
  creditor_name: string;
  creditor_iban: string;
  creditor_bic: string | null;
  amount_cents: number | string;
  status: SepaTransfer['status'];
  rejection_reason_code: string | null;
  rejection_reason_text: string | null;
}

/** A file with its transfers, the settlements each paid and the recoveries each deducted. */
export async function sepaFileDetail(db: Queryable, id: string): Promise<SepaFileDetail> {
  const file = await sepaFileSummary(db, id);
  if (!file) throw refuse('SEPA_FILE_NOT_FOUND');
  const [
    { rows: header },
    { rows: transfers },
    { rows: links },
    { rows: deductions },
    { rows: reports },
    { rows: statementLines },
  ] = await Promise.all([
    db.query<{ debtor_name: string; debtor_iban: string; debtor_bic: string | null }>(
      'SELECT debtor_name, debtor_iban, debtor_bic FROM sepa_files WHERE id = $1',
      [id],
    ),
    db.query<TransferRow>(
      `SELECT t.id, t.end_to_end_id, t.professional_id, p.name AS professional_name, t.creditor_name,
                t.creditor_iban, t.creditor_bic, t.amount_cents, t.status, t.rejection_reason_code,
                t.rejection_reason_text
           FROM sepa_transactions t JOIN users p ON p.id = t.professional_id
          WHERE t.sepa_file_id = $1 ORDER BY t.end_to_end_id`,
      [id],
    ),
    db.query<{
      sepa_transaction_id: string;
      id: string;
      case_id: string | null;
      subscription_payment_id: string | null;
      reference_month: string;
      amount_cents: number;
      status: SettlementStatus;
    }>(
      `SELECT l.sepa_transaction_id, s.id, s.case_id, s.subscription_payment_id, s.reference_month,
                l.amount_cents, ${SHOWN_STATUS} AS status
           FROM sepa_transaction_settlements l JOIN settlements s ON s.id = l.settlement_id ${LIVE_LINK_JOIN}
          WHERE l.sepa_file_id = $1 ORDER BY s.id`,
      [id],
    ),
    db.query<{ sepa_transaction_id: string; settlement_id: string; amount_cents: number }>(
      `SELECT sepa_transaction_id, settlement_id, amount_cents FROM sepa_transaction_recoveries
          WHERE sepa_file_id = $1 ORDER BY settlement_id`,
      [id],
    ),
    db.query<{
      id: string;
      message_id: string;
      outcome: SepaFileDetail['statusReports'][number]['outcome'];
      file_status_after: SepaStatus;
      received_at: Date;
    }>(
      `SELECT id, message_id, outcome, file_status_after, received_at FROM sepa_status_reports
          WHERE sepa_file_id = $1 ORDER BY received_at, id`,
      [id],
    ),
    db.query<StatementLineRow>(STATEMENT_LINES_OF_FILE, [id]),
  ]);
  const byTransfer = new Map<string, SepaTransfer>();
  const items = transfers.map((row): SepaTransfer => {
    const transfer: SepaTransfer = {
      id: row.id,
      endToEndId: row.end_to_end_id,
      professionalId: row.professional_id,
      professionalName: row.professional_name,
      creditorName: row.creditor_name,
      creditorIban: row.creditor_iban,
      creditorBic: row.creditor_bic,
      amountCents: wholeCents(row.amount_cents),
      settledCents: 0,
      recoveredCents: 0,
      status: row.status,
      rejection:
        row.status === 'REJECTED'
          ? { reasonCode: row.rejection_reason_code, reasonText: row.rejection_reason_text }
          : null,
      settlements: [],
      recoveries: [],
    };
    byTransfer.set(row.id, transfer);
    return transfer;
  });
  for (const link of links) {
    const transfer = byTransfer.get(link.sepa_transaction_id)!;
    transfer.settledCents += link.amount_cents;
    transfer.settlements.push({
      id: link.id,
      caseId: link.case_id,
      subscriptionPaymentId: link.subscription_payment_id,
      referenceMonth: link.reference_month,
      amountCents: link.amount_cents,
      status: link.status,
    });
  }
  for (const deduction of deductions) {
    const transfer = byTransfer.get(deduction.sepa_transaction_id)!;
    transfer.recoveredCents += deduction.amount_cents;
    transfer.recoveries.push({ settlementId: deduction.settlement_id, amountCents: deduction.amount_cents });
  }
  const debtor = header[0]!;
  return {
    ...file,
    debtorName: debtor.debtor_name,
    debtorIban: debtor.debtor_iban,
    debtorBic: debtor.debtor_bic,
    transfers: items,
    statusReports: reports.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      outcome: r.outcome,
      fileStatus: r.file_status_after,
      receivedAt: new Date(r.received_at).toISOString(),
    })),
    statementLines: statementLines.map((l) => ({
      lineId: l.id,
      statementFileId: l.statement_file_id,
      statementFileName: l.file_name,
      bankDate: l.bank_date,
      amountCents: wholeCents(l.bank_amount_cents),
      role: l.role,
      endToEndId: l.end_to_end_id,
    })),
  };
}

interface StatementLineRow {
  id: string;
  statement_file_id: string;
  file_name: string;
  bank_date: string;
  bank_amount_cents: number | string;
  role: 'PAYMENT' | 'RETURN';
  end_to_end_id: string | null;
}

/** The MATCHED statement lines linked to a file ($1) — its batch debit — or to its transfers. */
const STATEMENT_LINES_OF_FILE = `
  SELECT l.id, l.statement_file_id, sf.file_name, l.bank_date::text AS bank_date, l.bank_amount_cents, m.role,
         t.end_to_end_id
    FROM statement_line_matches m
    JOIN statement_lines l ON l.id = m.statement_line_id AND l.status = 'MATCHED'
    JOIN statement_files sf ON sf.id = l.statement_file_id
    LEFT JOIN sepa_transactions t ON t.id = m.sepa_transaction_id
   WHERE m.state = 'MATCHED'
     AND (m.sepa_file_id = $1
          OR m.sepa_transaction_id IN (SELECT id FROM sepa_transactions WHERE sepa_file_id = $1))
   ORDER BY l.bank_date, l.id, t.end_to_end_id`;

export interface LockedFile {
  id: string;
  msg_id: string;
  payment_info_id: string;
  status: SepaStatus;
  xml_file_id: string | null;
}

/** The file's row, locked until the transaction ends: every change of a file starts here. */
export async function lockSepaFile(tx: Queryable, id: string): Promise<LockedFile> {
  const { rows } = await tx.query<LockedFile>(
    'SELECT id, msg_id, payment_info_id, status, xml_file_id FROM sepa_files WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!rows[0]) throw refuse('SEPA_FILE_NOT_FOUND');
  return rows[0];
}

/** Settlements of the file's transfers still in it (not those of a transfer the bank rejected). */
export const LIVE_IN_FILE = `s.id IN (SELECT l.settlement_id FROM sepa_transaction_settlements l WHERE l.sepa_file_id = $1 AND l.live)`;

/**
 * A file moves along DESIGN §6 and its settlements with it: PAID → PAID, UNAVAILABLE → SETTLED (their
 * links and recoveries stop being live, by trigger, so they can be paid and deducted again). Inside
 * the caller's transaction, the file locked by lockSepaFile. Answers the new status.
 */
export async function applySepaEvent(
  tx: Queryable,
  actor: Actor,
  file: LockedFile,
  event: SepaEvent,
  context: Record<string, unknown> = {},
): Promise<SepaStatus> {
  const next = nextSepaStatus(file.status, event);
  if (!next) throw refuse('SEPA_TRANSITION_NOT_ALLOWED');
  const audit = { actor, context: { sepaFileId: file.id, msgId: file.msg_id, ...context } };
  const settlementEvent = settlementEventFor(event);
  if (settlementEvent === 'SEPA_PAID' || settlementEvent === 'SEPA_UNAVAILABLE')
    await moveSettlements(tx, settlementEvent, 'PENDING_TRANSFER', LIVE_IN_FILE, [file.id], audit);
  await tx.query('UPDATE sepa_files SET status = $2, updated_at = $3 WHERE id = $1', [
    file.id,
    next,
    actor.at,
  ]);
  return next;
}

const EVENT_OF = { available: 'HANDED_TO_BANK', paid: 'PAID', unavailable: 'REJECTED' } as const;

/** An administrator marks a file AVAILABLE, PAID or UNAVAILABLE, as DESIGN §6 allows. */
export async function markSepaFile(
  db: Database,
  actor: Actor,
  id: string,
  action: keyof typeof EVENT_OF,
): Promise<SepaFile> {
  await mutation(db, actor, { action: `sepa.marked-${action}`, entityType: 'sepa_file' }, async (tx) => {
    const file = await lockSepaFile(tx, id);
    const status = await applySepaEvent(tx, actor, file, EVENT_OF[action]);
    return { result: null, entityId: id, before: { status: file.status }, after: { status } };
  });
  return (await sepaFileSummary(db, id))!;
}

/** Deleting while GENERATED only: its settlements go back to SETTLED and its recoveries are owed again. */
export async function deleteSepaFile(db: Database, actor: Actor, id: string): Promise<void> {
  await mutation(db, actor, { action: 'sepa.deleted', entityType: 'sepa_file' }, async (tx) => {
    const file = await lockSepaFile(tx, id);
    if (!canDeleteSepa(file.status)) throw refuse('SEPA_NOT_DELETABLE');
    const moved = await moveSettlements(tx, 'SEPA_DELETED', 'PENDING_TRANSFER', LIVE_IN_FILE, [id], {
      actor,
      context: { sepaFileId: id, msgId: file.msg_id },
    });
    await tx.query('DELETE FROM sepa_files WHERE id = $1', [id]);
    return {
      result: undefined,
      entityId: id,
      before: { status: file.status, msgId: file.msg_id },
      after: { deleted: true, settlementsBackToSettled: moved.length },
    };
  });
}
