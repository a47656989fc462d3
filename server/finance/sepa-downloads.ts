import type { LocaleId } from '../../contract/statuses';
import { type ExportColumn, XLSX_MEDIA_TYPE, xlsxChunks } from '../../domain/export-files';
import { canDownloadSepa } from '../../domain/sepa-status';
import enGB from '../../locales/finance.en-GB.json';
import ptPT from '../../locales/finance.pt-PT.json';
import type { Database, Queryable } from '../db/client';
import { recordAudit } from '../platform/audit';
import { findStoredFile, type StoredFile } from '../platform/files/store';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { lockSepaFile } from './sepa-files';

const HEADERS: Record<LocaleId, typeof ptPT.sepaSpreadsheet> = {
  'pt-PT': ptPT.sepaSpreadsheet,
  'en-GB': enGB.sepaSpreadsheet,
};

/** A file can be downloaded only while GENERATED: once handed to the bank, it cannot be sent twice. */
async function downloadableFile(db: Queryable, id: string) {
  const file = await lockSepaFile(db, id);
  if (!canDownloadSepa(file.status)) throw refuse('SEPA_NOT_DOWNLOADABLE');
  return file;
}

/**
 * Who took a copy of the payment file, as an export download is recorded (decision 0128): written in
 * the transaction that locked the file and read what is sent, so a refused or failed read leaves no row.
 */
const auditDownload = (tx: Queryable, actor: Actor, id: string, format: 'XML' | 'XLSX', fileName: string) =>
  recordAudit(tx, {
    actorId: actor.userId,
    action: 'sepa.downloaded',
    entityType: 'sepa_file',
    entityId: id,
    after: { format, fileName },
    at: actor.at,
  });

/** The pain.001 XML as stored when it was generated, named `<MsgId>.xml` (what bank portals accept). */
export function sepaXmlFile(db: Database, actor: Actor, id: string): Promise<StoredFile> {
  return db.transaction(async (tx) => {
    const file = await downloadableFile(tx, id);
    const stored = file.xml_file_id ? await findStoredFile(tx, file.xml_file_id) : null;
    if (!stored) throw refuse('FILE_NOT_FOUND');
    const originalName = `${file.msg_id}.xml`;
    await auditDownload(tx, actor, id, 'XML', originalName);
    return { ...stored, originalName, contentType: 'application/xml' };
  });
}

/** The spreadsheet ("XLS" in the specification): one row per transfer, amounts as money cells. */
export async function sepaSpreadsheet(
  db: Database,
  actor: Actor,
  id: string,
  locale: LocaleId,
): Promise<{ name: string; mediaType: string; chunks: AsyncGenerator<Uint8Array> }> {
  // The rows are read whole in the transaction that audits the download; only writing the sheet streams.
  const { file, rows } = await db.transaction(async (tx) => {
    const file = await downloadableFile(tx, id);
    const { rows } = await tx.query(
      `SELECT t.end_to_end_id AS "endToEndId", p.name AS professional, t.creditor_name AS "creditorName",
            t.creditor_iban AS "creditorIban", t.creditor_bic AS "creditorBic", t.amount_cents::int AS "amountCents",
            (SELECT count(*)::int FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id = t.id) AS "settlementCount",
            (SELECT coalesce(sum(l.amount_cents), 0)::int FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id = t.id) AS "settledCents",
            (SELECT coalesce(sum(x.amount_cents), 0)::int FROM sepa_transaction_recoveries x WHERE x.sepa_transaction_id = t.id) AS "recoveredCents",
            t.remittance_information AS remittance
       FROM sepa_transactions t JOIN users p ON p.id = t.professional_id
      WHERE t.sepa_file_id = $1 ORDER BY t.end_to_end_id`,
      [id],
    );
    await auditDownload(tx, actor, id, 'XLSX', `${file.msg_id}.xlsx`);
    return { file, rows };
  });
  const h = HEADERS[locale];
  const columns: ExportColumn[] = [
    { key: 'endToEndId', header: h.endToEndId, kind: 'text' },
    { key: 'professional', header: h.professional, kind: 'text' },
    { key: 'creditorName', header: h.creditorName, kind: 'text' },
    { key: 'creditorIban', header: h.creditorIban, kind: 'text' },
    { key: 'creditorBic', header: h.creditorBic, kind: 'text' },
    { key: 'settlementCount', header: h.settlementCount, kind: 'integer' },
    { key: 'settledCents', header: h.settledCents, kind: 'cents' },
    { key: 'recoveredCents', header: h.recoveredCents, kind: 'cents' },
    { key: 'amountCents', header: h.amountCents, kind: 'cents' },
    { key: 'remittance', header: h.remittance, kind: 'text' },
  ];
  return {
    name: `${file.msg_id}.xlsx`,
    mediaType: XLSX_MEDIA_TYPE,
    chunks: xlsxChunks(columns, rows, { sheetName: h.sheet, locale }),
  };
}
