import { formatCents } from '../../../domain/money';
import type { SourceRefusalView } from '../../../machines/source-import';
import { useI18n } from '../../i18n/i18n';

/** Why a row could not be read, as the readers say it (`reason`), where the screen has words for it. */
const REASONS: Record<string, string> = {
  EMPTY: 'sources.reasons.EMPTY',
  NOT_A_DATE: 'sources.reasons.NOT_A_DATE',
  NOT_AN_AMOUNT: 'sources.reasons.NOT_AN_AMOUNT',
  INVALID_AMOUNT: 'sources.reasons.INVALID_AMOUNT',
  TOO_MANY_DECIMALS: 'sources.reasons.TOO_MANY_DECIMALS',
  OUT_OF_RANGE: 'sources.reasons.OUT_OF_RANGE',
  NET_NOT_GROSS_MINUS_FEE: 'sources.reasons.NET_NOT_GROSS_MINUS_FEE',
  NOT_A_CURRENCY: 'sources.reasons.NOT_A_CURRENCY',
  DIFFERS_WITHIN_PAYOUT: 'sources.reasons.DIFFERS_WITHIN_PAYOUT',
  DUPLICATE: 'sources.reasons.DUPLICATE',
  NOT_A_STATUS: 'sources.reasons.NOT_A_STATUS',
  NOT_EUR: 'sources.reasons.NOT_EUR',
  CELL_COUNT: 'sources.reasons.CELL_COUNT',
  UNTERMINATED_QUOTE: 'sources.reasons.UNTERMINATED_QUOTE',
  NO_HEADER: 'sources.reasons.NO_HEADER',
  INVALID_BYTES: 'sources.reasons.INVALID_BYTES',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const cents = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const names = (value: unknown): string | null =>
  Array.isArray(value) && value.length > 0 ? value.map(String).join(', ') : null;

/**
 * The facts a refusal carries beside its words (contract/source-import.ts, `sourceImportRefusalSchema`):
 * its line, the column and why, both numbers of a payout that does not add up, each control total
 * declared and computed, the columns missing, the container the bytes are, the XSD's first faults.
 */
export function RefusalFacts({ refusal }: { refusal: SourceRefusalView }) {
  const { t, locale } = useI18n();
  const money = (value: number) => formatCents(value, locale, 'EUR');
  const { facts } = refusal;
  const items: string[] = [];
  if (refusal.line !== undefined) items.push(t('sources.facts.line', { line: refusal.line }));
  const column = text(facts.column);
  const reasonKey = REASONS[text(facts.reason) ?? ''];
  if (column && reasonKey) items.push(t('sources.facts.columnReason', { column, reason: t(reasonKey) }));
  else if (column) items.push(t('sources.facts.column', { column }));
  else if (reasonKey) items.push(t(reasonKey));
  const stated = cents(facts.payoutCents);
  const rows = cents(facts.rowsNetCents);
  if (stated !== null && rows !== null)
    items.push(
      t('sources.facts.payoutSum', {
        payout: text(facts.payoutId) ?? '',
        stated: money(stated),
        rows: money(rows),
      }),
    );
  if (Array.isArray(facts.mismatches))
    for (const mismatch of facts.mismatches as { total: string; declared: string; computed: string }[])
      items.push(t('sources.facts.mismatch', mismatch));
  // The schema validator's own words for a SAF-T file the official XSD refuses (`line N: message`).
  if (Array.isArray(facts.schemaErrors)) for (const fault of facts.schemaErrors) items.push(String(fault));
  const missing = names(facts.missing);
  if (missing) items.push(t('sources.facts.missing', { columns: missing }));
  const notInHeader = names(facts.notInHeader);
  if (notInHeader) items.push(t('sources.facts.notInHeader', { columns: notInHeader }));
  const invoiceNo = text(facts.invoiceNo);
  if (invoiceNo) items.push(t('sources.facts.document', { invoiceNo }));
  const container = text(facts.container);
  if (container) items.push(t('sources.facts.container', { container }));
  const expectedRows = cents(facts.expectedRows);
  const foundRows = cents(facts.foundRows);
  const expectedTotal = cents(facts.expectedTotalCents);
  const foundTotal = cents(facts.foundTotalCents);
  if (expectedRows !== null && foundRows !== null && expectedTotal !== null && foundTotal !== null)
    items.push(
      t('sources.facts.previewMismatch', {
        expectedRows,
        foundRows,
        expectedTotal: money(expectedTotal),
        foundTotal: money(foundTotal),
      }),
    );
  if (items.length === 0) return null;
  return (
    <ul className="source-refusal-facts" data-testid="source-refusal-facts">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
