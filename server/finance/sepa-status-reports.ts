import type { z } from 'zod';
import type { sepaStatusReportResultSchema } from '../../contract/sepa';
import { type Pain002Report, readPain002, type StatusReason } from '../../domain/sepa/read-pain002';
import {
  decisionForTransfer,
  interpretStatusReport,
  reasonsForTransfer,
  type StatusInterpretation,
} from '../../domain/sepa/status-report';
import { decodeXmlBytes } from '../../domain/sepa/xml-bytes';
import { sha256Hex } from '../../domain/sha256';
import type { Database } from '../db/client';
import { recordAudit } from '../platform/audit';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { applySepaEvent, type LockedFile, lockSepaFile } from './sepa-files';
import { rejectTransfer } from './transfer-rejection';

export type SepaStatusReportResult = z.infer<typeof sepaStatusReportResultSchema>;
type RejectedTransfer = SepaStatusReportResult['rejectedTransfers'][number];

interface FileTransfer {
  id: string;
  end_to_end_id: string;
  professional_id: string;
  professional_name: string;
  creditor_iban: string;
  amount_cents: number | string;
  status: 'INCLUDED' | 'REJECTED';
}

/** The reason shown for a rejection: the first ISO code given (else the bank's own), with its words. */
function reasonOf(reasons: readonly StatusReason[]): { code: string | null; text: string | null } {
  const chosen = reasons.find((r) => r.code) ?? reasons[0];
  if (!chosen) return { code: null, text: null };
  const text = reasons.flatMap((r) => r.additionalInfo).join(' ');
  return { code: chosen.code ?? chosen.proprietary, text: text === '' ? null : text };
}

/** The report's bytes in the encoding its XML declaration names (decision 0123), then read. */
function readReport(bytes: Uint8Array): Pain002Report {
  const decoded = decodeXmlBytes(bytes);
  if (!decoded.ok)
    throw refuse(
      decoded.code === 'UNSUPPORTED_ENCODING'
        ? 'STATUS_REPORT_ENCODING_UNSUPPORTED'
        : 'STATUS_REPORT_UNREADABLE',
    );
  const read = readPain002(decoded.xml);
  if (!read.ok) throw refuse('STATUS_REPORT_UNREADABLE');
  return read.report;
}

/** Every block and every named transfer of the report must be ours, or nothing is applied. */
function checkMatches(
  interpretation: StatusInterpretation,
  file: LockedFile,
  transfers: FileTransfer[],
): void {
  const ours = new Set(transfers.map((t) => t.end_to_end_id));
  const blocksMatch = interpretation.paymentInformation.every(
    (p) => p.paymentInformationId === file.payment_info_id,
  );
  const transfersMatch = interpretation.transfers.every(
    (t) => t.paymentInformationId === file.payment_info_id && ours.has(t.endToEndId),
  );
  if (!blocksMatch || !transfersMatch) throw refuse('STATUS_REPORT_MISMATCH');
}

/**
 * The bank's answer to one of our files (DESIGN §6 "The bank's answer", decision 0071), in one
 * transaction with its audit row: matched by OrgnlMsgId to the file, by OrgnlPmtInfId/OrgnlEndToEndId
 * to its block and transfers. Accepted → AVAILABLE; rejected → UNAVAILABLE (settlements back to
 * SETTLED); partially accepted → each rejected transfer is marked with its reason, its settlements go
 * back to SETTLED, its recoveries are owed again and the doctor's payouts are blocked for that IBAN,
 * while the rest goes on (AVAILABLE). The same report again (same bytes, or the same report MsgId
 * for the file) changes nothing and answers what it did the first time. An undetermined report is
 * answered with its notes and applies nothing.
 */
export async function applyStatusReport(
  db: Database,
  actor: Actor,
  bytes: Uint8Array,
): Promise<SepaStatusReportResult> {
  const report = readReport(bytes);
  const interpretation = interpretStatusReport(report);
  const sha256 = sha256Hex(bytes);
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ id: string }>('SELECT id FROM sepa_files WHERE msg_id = $1', [
      interpretation.originalMessageId,
    ]);
    if (!found[0]) throw refuse('STATUS_REPORT_UNKNOWN_FILE');
    const file = await lockSepaFile(tx, found[0].id);
    const { rows: seen } = await tx.query<{ result: SepaStatusReportResult | string }>(
      'SELECT result FROM sepa_status_reports WHERE sha256 = $1 OR (sepa_file_id = $2 AND message_id = $3) LIMIT 1',
      [sha256, file.id, interpretation.reportMessageId],
    );
    if (seen[0]) {
      const first = typeof seen[0].result === 'string' ? JSON.parse(seen[0].result) : seen[0].result;
      return { ...(first as SepaStatusReportResult), applied: false, alreadyApplied: true };
    }
    const { rows: transfers } = await tx.query<FileTransfer>(
      `SELECT t.id, t.end_to_end_id, t.professional_id, p.name AS professional_name, t.creditor_iban,
              t.amount_cents, t.status
         FROM sepa_transactions t JOIN users p ON p.id = t.professional_id
        WHERE t.sepa_file_id = $1 ORDER BY t.end_to_end_id`,
      [file.id],
    );
    checkMatches(interpretation, file, transfers);
    const base = {
      reportMessageId: interpretation.reportMessageId,
      sepaFileId: file.id,
      msgId: file.msg_id,
      outcome: interpretation.outcome,
      fileStatusBefore: file.status,
      notes: interpretation.notes,
    };
    if (interpretation.outcome === 'UNDETERMINED')
      return {
        ...base,
        applied: false,
        alreadyApplied: false,
        fileStatus: file.status,
        rejectedTransfers: [],
      };
    const changes = interpretation.outcome !== 'PENDING';
    if (changes && (file.status === 'PAID' || file.status === 'UNAVAILABLE'))
      throw refuse('STATUS_REPORT_TOO_LATE');

    const reportId = crypto.randomUUID();
    // Recorded first so the blocks below can name it; its result is written once known.
    await tx.query(
      `INSERT INTO sepa_status_reports (id, sepa_file_id, sha256, message_id, outcome, file_status_before,
                                        file_status_after, result, uploaded_by, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6, '{}', $7, $8)`,
      [
        reportId,
        file.id,
        sha256,
        interpretation.reportMessageId,
        interpretation.outcome,
        file.status,
        actor.userId,
        actor.at,
      ],
    );
    const context = { statusReportId: reportId, reportMessageId: interpretation.reportMessageId };
    const rejectedTransfers: RejectedTransfer[] = [];
    for (const transfer of transfers) {
      if (transfer.status === 'REJECTED') continue;
      if (decisionForTransfer(interpretation, file.payment_info_id, transfer.end_to_end_id) !== 'REJECTED')
        continue;
      const reason = reasonOf(
        reasonsForTransfer(interpretation, file.payment_info_id, transfer.end_to_end_id),
      );
      rejectedTransfers.push({
        endToEndId: transfer.end_to_end_id,
        professionalId: transfer.professional_id,
        professionalName: transfer.professional_name,
        amountCents: Number(transfer.amount_cents),
        reasonCode: reason.code,
        reasonText: reason.text,
      });
      // Whichever level rejected it, the transfer is marked with its reason and its settlements are
      // payable again; the doctor is blocked only for an account reason (decision 0123). A whole file
      // rejected then goes UNAVAILABLE below with nothing left in it.
      await rejectTransfer(tx, actor, transfer, reason, {
        ...context,
        sepaFileId: file.id,
        msgId: file.msg_id,
      });
    }
    let fileStatus = file.status;
    if (interpretation.fileStatus === 'UNAVAILABLE')
      fileStatus = await applySepaEvent(tx, actor, file, 'REJECTED', context);
    if (interpretation.fileStatus === 'AVAILABLE' && file.status === 'GENERATED')
      fileStatus = await applySepaEvent(tx, actor, file, 'HANDED_TO_BANK', context);

    const result: SepaStatusReportResult = {
      ...base,
      applied: true,
      alreadyApplied: false,
      fileStatus,
      rejectedTransfers,
    };
    await tx.query('UPDATE sepa_status_reports SET file_status_after = $2, result = $3 WHERE id = $1', [
      reportId,
      fileStatus,
      JSON.stringify(result),
    ]);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: 'sepa.status-report-applied',
      entityType: 'sepa_file',
      entityId: file.id,
      before: { status: file.status },
      after: {
        status: fileStatus,
        outcome: interpretation.outcome,
        ...context,
        rejected: rejectedTransfers.length,
      },
      at: actor.at,
    });
    return result;
  });
}
