import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useSyncExternalStore } from 'react';
import { formatCents } from '../../../domain/money';
import type { KnownLine } from '../../api/statements';
import { ScrollRegion } from '../../components/DataTable/ScrollRegion';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';
import type { StatementPreviewRows } from './preview-client';

const ROW_HEIGHT = 28;
const OVERSCAN = 10;
/** Line, date, value date, amount, counterparty, description, kind, imported. */
const COLUMNS = '4rem 6.5rem 6.5rem 7.5rem minmax(0, 1fr) minmax(0, 2fr) 6.5rem minmax(0, 1.2fr)';

/** Why the server counts a line as imported already. */
const REASONS: Record<KnownLine['reason'], string> = {
  BANK_REFERENCE: 'statements.preview.reason.BANK_REFERENCE',
  SAME_STATEMENT: 'statements.preview.reason.SAME_STATEMENT',
  SAME_CONTENT: 'statements.preview.reason.SAME_CONTENT',
};

/**
 * Every line of the file being previewed, virtualised (a 100,000-line statement keeps a few dozen row
 * elements in the page), with whether the server already holds it, from which file and why.
 */
export function PreviewTable({
  rows,
  known,
}: {
  rows: StatementPreviewRows;
  known: ReadonlyMap<string, KnownLine> | null;
}) {
  const { t, locale } = useI18n();
  useSyncExternalStore(rows.subscribe, rows.getVersion);
  const scrollRef = useRef<HTMLElement>(null);
  const count = rows.count;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  return (
    <ScrollRegion
      ref={scrollRef}
      className="statement-preview-scroll"
      label={t('statements.preview.tableLabel')}
    >
      <table
        className="data-table-grid statement-preview"
        aria-label={t('statements.preview.tableLabel')}
        aria-rowcount={count + 1}
        data-testid="statement-preview"
      >
        <thead className="data-table-head">
          <tr className="data-table-row" style={{ gridTemplateColumns: COLUMNS, height: ROW_HEIGHT }}>
            <th scope="col">{t('statements.preview.line')}</th>
            <th scope="col">{t('statements.columns.bankDate')}</th>
            <th scope="col">{t('statements.columns.valueDate')}</th>
            <th scope="col">{t('statements.columns.amount')}</th>
            <th scope="col">{t('statements.columns.counterparty')}</th>
            <th scope="col">{t('statements.columns.description')}</th>
            <th scope="col">{t('statements.columns.kind')}</th>
            <th scope="col">{t('statements.preview.imported')}</th>
          </tr>
        </thead>
        <tbody className="data-table-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = rows.entry(item.index);
            if (!entry) return null;
            const earlier = known?.get(rows.keys[item.index] ?? '');
            return (
              <tr
                key={item.index}
                aria-rowindex={item.index + 2}
                className="data-table-row data-table-body-row"
                data-known={earlier ? true : undefined}
                style={{
                  gridTemplateColumns: COLUMNS,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <td>{entry.lineNumber}</td>
                <td>{formatDate(entry.bookingDate, locale)}</td>
                <td>{entry.valueDate ? formatDate(entry.valueDate, locale) : '—'}</td>
                <td className="money">{formatCents(entry.amountCents, locale, entry.currency || 'EUR')}</td>
                <td>{entry.counterpartyName ?? '—'}</td>
                <td title={entry.description}>{entry.description}</td>
                <td>{t(`statements.kind.${entry.kind}`)}</td>
                <td>
                  {known === null
                    ? '…'
                    : earlier
                      ? t('statements.preview.importedFrom', {
                          file: earlier.fileName,
                          at: formatDateTime(earlier.importedAt, locale),
                          reason: t(REASONS[earlier.reason]),
                        })
                      : t('statements.preview.new')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
