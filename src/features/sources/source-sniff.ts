import type { SourceKind } from '../../../domain/sources/source-ids';
import { payoutCsvKindOf, startsLikeXml } from '../../../domain/sources/source-sniff';
import { containerKindOf } from '../../../domain/statements/sniff';

/** Containers a SAF-T file may come in (decision 0149). */
const SAFT_CONTAINERS: ReadonlySet<string> = new Set(['gzip', 'zip']);

/** The first bytes looked at to tell an XML file from a CSV and a Stripe report from a collector's. */
const HEAD = 4_096;

/**
 * Which of the files the bytes are, when the admin left it to them: gzip, a ZIP or XML is SAF-T;
 * CSV text is the payout report its header says (`payoutCsvKindOf`: Stripe's itemized report, Stripe's
 * Balance report of payouts, else a collector's). Null: another binary file (a PDF, an image, …), none of them.
 */
export function sourceKindOf(bytes: Uint8Array): SourceKind | null {
  const container = containerKindOf(bytes);
  if (container !== null) return SAFT_CONTAINERS.has(container) ? 'SAFT_INVOICES' : null;
  if (startsLikeXml(bytes)) return 'SAFT_INVOICES';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, HEAD)).replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? '';
  return payoutCsvKindOf(firstLine);
}
