import { containerKindOf } from '../statements/sniff';
import type { SourceKind } from './source-ids';

/**
 * Whether an upload's bytes can be the kind of file it is said to be, from its first bytes alone
 * (decision 0152), before it waits for the instance's reader: a SAF-T file is XML, or XML compressed as
 * gzip or a ZIP (decision 0149); a payout report is CSV text, never a container and never XML. Answers
 * what the bytes are instead (`zip`, `pdf`, `xml`, `text`, …), or null when they may be the kind.
 */
export function sourceContainerMismatch(kind: SourceKind, bytes: Uint8Array): string | null {
  if (bytes.byteLength === 0) return null;
  const container = containerKindOf(bytes);
  const xml = container === null && startsLikeXml(bytes);
  if (kind === 'SAFT_INVOICES') {
    if (container === 'gzip' || container === 'zip') return null;
    return container ?? (xml ? null : 'text');
  }
  return container ?? (xml ? 'xml' : null);
}

/**
 * The first character after a byte-order mark and white space is `<`: the console's guess of a file's kind
 * reads XML by the same test as the rule above.
 */
export function startsLikeXml(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)
  )
    at++;
  return bytes[at] === 0x3c;
}

/** A header naming this column: a CSV cell of its own, quoted or not, whatever the delimiter. */
const namesColumn = (headerLine: string, column: string) =>
  new RegExp(`(^|[,;\\t"])${column}([,;\\t"]|$)`, 'i').test(headerLine);

/**
 * Which payout report a CSV's header line is: Stripe's itemized reconciliation report names
 * `automatic_payout_id`; its Balance report of payouts names `payout_id` and `payout_status` (decision
 * 0171); any other CSV is a collector's. The console guesses a dropped file's kind by it.
 */
export function payoutCsvKindOf(
  headerLine: string,
): 'STRIPE_PAYOUTS' | 'STRIPE_BALANCE_PAYOUTS' | 'COLLECTOR_PAYOUTS' {
  if (namesColumn(headerLine, 'automatic_payout_id')) return 'STRIPE_PAYOUTS';
  if (namesColumn(headerLine, 'payout_id') && namesColumn(headerLine, 'payout_status'))
    return 'STRIPE_BALANCE_PAYOUTS';
  return 'COLLECTOR_PAYOUTS';
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The case or subscription payment a row or document names: the first UUID in its texts (the
 * marketplace prints the case id, or the subscription payment id, on the charge and on the invoice).
 */
export function caseReferenceOf(texts: readonly (string | null | undefined)[]): string | null {
  for (const text of texts) {
    const found = text ? UUID.exec(text) : null;
    if (found) return found[0].toLowerCase();
  }
  return null;
}
