import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { MonthCloseSource } from '../../../contract/statuses';
import { fetchMonthClose, type MonthCloseRow, monthCloseKeys } from '../../api/month-close';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useActiveRowFocus } from '../../kernel/focus';
import { useScreenKeyHandler } from '../../kernel/key-dispatcher';
import { helpLines, type KeyBinding, keyAction } from '../../kernel/key-table';
import { useScreenKeys } from '../../kernel/screen-keys';
import './finance-messages';
import { formatMoney, formatMonth, recentMonths } from './format';

/** The month `delta` months from `month` (`YYYY-MM`). */
export function shiftMonth(month: string, delta: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + delta;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const lastDay = (month: string) => {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()).padStart(2, '0')}`;
};

/**
 * Where each row's Enter goes: the list it summarises, filtered to what is left of the month (what the
 * row counts as unmatched, decision 0155).
 */
export function unmatchedListHref(source: MonthCloseSource, month: string): string {
  switch (source) {
    case 'BANK_LINES':
      return `/statements?from=${month}-01&to=${lastDay(month)}&status=UNMATCHED&status=SUGGESTED&status=DISCREPANCY`;
    case 'PAYOUTS':
      return `/provider-documents?kind=PAYOUT&month=${month}&matched=false`;
    case 'INVOICES':
      return `/provider-documents?kind=INVOICE&month=${month}&matched=false`;
    case 'SETTLEMENTS':
      return `/settlement?tab=manage&referenceMonth=${month}&customerInvoiced=false`;
    case 'SEPA_FILES':
      return `/sepa?tab=history&referenceMonth=${month}&status=GENERATED&status=AVAILABLE&status=UNAVAILABLE`;
  }
}

/** Each source's words: its name, what "matched" means for it, and its counted noun. */
const SOURCE_WORDS: Record<MonthCloseSource, { name: string; means: string; one: string; other: string }> = {
  BANK_LINES: {
    name: 'monthClose.source.BANK_LINES',
    means: 'monthClose.means.BANK_LINES',
    one: 'monthClose.count.BANK_LINES.one',
    other: 'monthClose.count.BANK_LINES.other',
  },
  PAYOUTS: {
    name: 'monthClose.source.PAYOUTS',
    means: 'monthClose.means.PAYOUTS',
    one: 'monthClose.count.PAYOUTS.one',
    other: 'monthClose.count.PAYOUTS.other',
  },
  INVOICES: {
    name: 'monthClose.source.INVOICES',
    means: 'monthClose.means.INVOICES',
    one: 'monthClose.count.INVOICES.one',
    other: 'monthClose.count.INVOICES.other',
  },
  SETTLEMENTS: {
    name: 'monthClose.source.SETTLEMENTS',
    means: 'monthClose.means.SETTLEMENTS',
    one: 'monthClose.count.SETTLEMENTS.one',
    other: 'monthClose.count.SETTLEMENTS.other',
  },
  SEPA_FILES: {
    name: 'monthClose.source.SEPA_FILES',
    means: 'monthClose.means.SEPA_FILES',
    one: 'monthClose.count.SEPA_FILES.one',
    other: 'monthClose.count.SEPA_FILES.other',
  },
};

type Action = 'previous' | 'next' | 'down' | 'up' | 'open';
const KEYS: readonly KeyBinding<Action>[] = [
  { keys: ['ArrowLeft', '['], shown: '← / [', labelKey: 'monthClose.keys.previous', action: 'previous' },
  { keys: ['ArrowRight', ']'], shown: '→ / ]', labelKey: 'monthClose.keys.next', action: 'next' },
  { keys: ['j', 'ArrowDown'], shown: 'j / ↓', labelKey: 'monthClose.keys.down', action: 'down' },
  { keys: ['k', 'ArrowUp'], shown: 'k / ↑', labelKey: 'monthClose.keys.up', action: 'up' },
  { keys: ['Enter', 'o'], shown: 'Enter / o', labelKey: 'monthClose.keys.open', action: 'open' },
];
const HELP = helpLines(KEYS);

/**
 * `/month-close`: per reference month, bank lines, payouts, invoices, settlements and SEPA files, each
 * matched and unmatched (count and sum), with what "matched" means for it; Enter on a row opens its list
 * of what is left (decision 0155).
 */
export default function MonthCloseScreen() {
  const { t, locale } = useI18n();
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const requested = search.get('month');
  const month = requested && /^\d{4}-(0[1-9]|1[0-2])$/.test(requested) ? requested : recentMonths()[0]!;
  // No row active until the keyboard moves (`j` makes the first one active, as in every table).
  const [active, setActive] = useState(-1);
  const table = useRef<HTMLTableElement>(null);
  const { data, error, isPending } = useQuery({
    queryKey: monthCloseKeys.month(month),
    queryFn: () => fetchMonthClose(month),
  });

  useScreenKeys('month-close', HELP);
  useActiveRowFocus(table, active);
  const rows = data?.rows ?? [];
  useScreenKeyHandler((event) => {
    const action = keyAction(KEYS, event);
    switch (action) {
      case 'previous':
      case 'next':
        navigate(`/month-close?month=${shiftMonth(month, action === 'next' ? 1 : -1)}`);
        return true;
      case 'down':
        setActive((index) => Math.min(rows.length - 1, index + 1));
        return rows.length > 0;
      case 'up':
        setActive((index) => Math.max(0, index - 1));
        return rows.length > 0;
      case 'open': {
        const row = rows[active];
        if (row) navigate(unmatchedListHref(row.source, month));
        return row !== undefined;
      }
      default:
        return false;
    }
  });

  const money = (cents: number) => formatMoney(cents, locale);
  const counted = (row: MonthCloseRow, side: 'matched' | 'unmatched') =>
    t(
      pluralKey(locale, row[side].count, {
        one: SOURCE_WORDS[row.source].one,
        other: SOURCE_WORDS[row.source].other,
      }),
      { count: new Intl.NumberFormat(locale).format(row[side].count) },
    );
  const title = useMemo(() => formatMonth(month, locale), [month, locale]);

  return (
    <section className="month-close" aria-labelledby="month-close-title">
      <div className="month-close-nav">
        <Link href={`/month-close?month=${shiftMonth(month, -1)}`} data-testid="month-previous">
          {t('monthClose.previous')}
        </Link>
        <h2 id="month-close-title" data-testid="month-close-month">
          {title}
        </h2>
        <Link href={`/month-close?month=${shiftMonth(month, 1)}`} data-testid="month-next">
          {t('monthClose.next')}
        </Link>
      </div>
      {error ? <p role="alert">{t('monthClose.failed')}</p> : null}
      {isPending ? <p role="status">{t('table.loading')}</p> : null}
      {data ? (
        <table
          ref={table}
          className="review-table"
          aria-labelledby="month-close-title"
          data-testid="month-close"
        >
          <thead>
            <tr>
              <th scope="col">{t('monthClose.columns.source')}</th>
              <th scope="col">{t('monthClose.columns.matchedMeans')}</th>
              <th scope="col">{t('monthClose.columns.matched')}</th>
              <th scope="col">{t('monthClose.columns.unmatched')}</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row, index) => (
              <tr
                key={row.source}
                data-testid={`month-close-${row.source}`}
                data-active={index === active || undefined}
                // The active row holds the focus; Enter on it opens its list.
                tabIndex={-1}
              >
                <th scope="row">
                  <Link
                    href={unmatchedListHref(row.source, month)}
                    aria-label={t('monthClose.openUnmatched', {
                      source: t(SOURCE_WORDS[row.source].name),
                      count: counted(row, 'unmatched'),
                    })}
                  >
                    {t(SOURCE_WORDS[row.source].name)}
                  </Link>
                </th>
                <td>{t(SOURCE_WORDS[row.source].means)}</td>
                <td data-testid={`matched-${row.source}`}>
                  {counted(row, 'matched')} · {money(row.matched.amountCents)}
                </td>
                <td
                  data-testid={`unmatched-${row.source}`}
                  className={row.unmatched.count > 0 ? 'month-close-left' : undefined}
                >
                  {counted(row, 'unmatched')} · {money(row.unmatched.amountCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
