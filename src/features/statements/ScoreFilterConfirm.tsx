import type { SuggestionFilterTotals } from '../../../contract/reconciliation';
import { formatCents } from '../../../domain/money';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { LineDialog } from './LineDialog';
import { scorePoints } from './LineDialogs';

/**
 * `Shift+a` over a "score ≥ x" filter (decision 0147): money moves, so the count and the sum of what the
 * filter selects on every page are shown first; Enter accepts them, Esc leaves. A count of none only closes.
 */
export function ScoreFilterConfirm({
  minScore,
  totals,
  onConfirm,
  onClose,
}: {
  minScore: number;
  totals: SuggestionFilterTotals;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t, locale } = useI18n();
  const none = totals.count === 0;
  return (
    <LineDialog
      title={t('statements.filterAccept.title', { score: scorePoints(minScore) })}
      submitLabel={t('statements.filterAccept.accept')}
      focusSubmit
      {...(none ? {} : { onSubmit: onConfirm })}
      onClose={onClose}
    >
      <p data-testid="score-filter-count">
        {none
          ? t('statements.filterAccept.none')
          : t(
              pluralKey(locale, totals.count, {
                one: 'statements.filterAccept.count.one',
                other: 'statements.filterAccept.count.other',
              }),
              {
                count: new Intl.NumberFormat(locale).format(totals.count),
                sum: formatCents(totals.sumCents, locale, 'EUR'),
              },
            )}
      </p>
    </LineDialog>
  );
}
