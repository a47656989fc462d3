import type { SourceKind } from '../../../domain/sources/source-ids';
import { containerKindOf } from '../../../domain/statements/sniff';

/** Containers a SAF-T file may come in (decision 0149). */
const SAFT_CONTAINERS: ReadonlySet<string> = new Set(['gzip', 'zip']);

/** The first bytes looked at to tell an XML file from a CSV and a Stripe report from a collector's. */
const HEAD = 4_096;

/**
 * Which of the three files the bytes are, when the admin left it to them: gzip, a ZIP or XML is SAF-T;
 * CSV text whose header names Stripe's `automatic_payout_id` is Stripe's report; other text, a
 * collector's report. Null: another binary file (a PDF, an image, …), none of them.
 */
export function sourceKindOf(bytes: Uint8Array): SourceKind | null {
  const container = containerKindOf(bytes);
  if (container !== null) return SAFT_CONTAINERS.has(container) ? 'SAFT_INVOICES' : null;
  if (startsLikeXml(bytes)) return 'SAFT_INVOICES';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, HEAD)).replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? '';
  return /(^|[,;\t"])automatic_payout_id([,;\t"]|$)/i.test(firstLine)
    ? 'STRIPE_PAYOUTS'
    : 'COLLECTOR_PAYOUTS';
}

/** The first character after a byte-order mark and white space is `<`. */
function startsLikeXml(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)
  )
    at++;
  return bytes[at] === 0x3c;
}

/**
 * What the bytes are when they cannot be a file of `kind` (what `SOURCE_NOT_THIS_KIND` names), by the
 * server's rule (decision 0152): a SAF-T file is XML, or XML as gzip or a ZIP; a payout report is CSV
 * text, never a container and never XML. Null: they may be. The server branch's
 * `sourceContainerMismatch` (domain/sources/source-sniff.ts) is the same rule: once both are merged, this
 * one gives way to it.
 */
export function containerNotOf(kind: SourceKind, bytes: Uint8Array): string | null {
  if (bytes.byteLength === 0) return null;
  const container = containerKindOf(bytes);
  const xml = container === null && startsLikeXml(bytes);
  if (kind === 'SAFT_INVOICES')
    return container === 'gzip' || container === 'zip' ? null : (container ?? (xml ? null : 'text'));
  return container ?? (xml ? 'xml' : null);
}
