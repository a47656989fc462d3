import type { SourceKind } from '../../../domain/sources/source-ids';
import { containerKindOf } from '../../../domain/statements/sniff';

/** Containers a SAF-T file may come in (decision 0149); a payout report is CSV text, never any of them. */
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
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, HEAD)).replace(/^\uFEFF/, '');
  if (head.trimStart().startsWith('<')) return 'SAFT_INVOICES';
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? '';
  return /(^|[,;\t"])automatic_payout_id([,;\t"]|$)/i.test(firstLine)
    ? 'STRIPE_PAYOUTS'
    : 'COLLECTOR_PAYOUTS';
}

/**
 * The container the bytes are when they cannot be a file of `kind` (what `SOURCE_NOT_THIS_KIND` names,
 * as the server does): a payout report compressed or binary, a SAF-T file in a container other than
 * gzip or ZIP. Null: they may be.
 */
export function containerNotOf(kind: SourceKind, bytes: Uint8Array): string | null {
  const container = containerKindOf(bytes);
  if (container === null) return null;
  return kind === 'SAFT_INVOICES' && SAFT_CONTAINERS.has(container) ? null : container;
}
