import { formatCents } from '../../../domain/money';
import type { SkippedEntry } from '../../../domain/statements/types';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';

const REASONS = {
  PENDING: 'statements.skipped.PENDING',
  INFORMATION: 'statements.skipped.INFORMATION',
} as const;

/** Pending and informational entries: read, not imported, listed on demand (a `details` opens with Enter). */
export function SkippedEntries(props: { entries: readonly SkippedEntry[]; count: number }) {
  const { t, locale } = useI18n();
  if (props.count === 0) return null;
  return (
    <details className="statement-skipped" data-testid="statement-skipped">
      <summary>
        {t(
          pluralKey(locale, props.count, {
            one: 'statements.skipped.count.one',
            other: 'statements.skipped.count.other',
          }),
          { count: props.count },
        )}
      </summary>
      <ul>
        {props.entries.map((entry) => (
          <li key={`${entry.statement}-${entry.line}`}>
            {t('statements.skipped.entry', {
              line: entry.line,
              date: entry.bookingDate ? formatDate(entry.bookingDate, locale) : '—',
              amount: entry.amountCents === null ? '—' : formatCents(entry.amountCents, locale, 'EUR'),
              reason: t(REASONS[entry.reason]),
              description: entry.description,
            })}
          </li>
        ))}
      </ul>
    </details>
  );
}
