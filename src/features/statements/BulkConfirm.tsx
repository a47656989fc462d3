import { useState } from 'react';
import { formatCents } from '../../../domain/money';
import type { BulkScope, BulkTotals } from '../../../machines/reconciliation';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { LineDialog } from './LineDialog';
import { scorePoints } from './LineDialogs';

/** Each bulk action's count (a filter's on every page, or the selection's) and what it says of none. */
const WORDS: Record<BulkScope['kind'], { count: { one: string; other: string }; none: string }> = {
  filterAccept: {
    count: { one: 'statements.filterAccept.count.one', other: 'statements.filterAccept.count.other' },
    none: 'statements.filterAccept.none',
  },
  filterIgnore: {
    count: { one: 'statements.bulkIgnore.count.one', other: 'statements.bulkIgnore.count.other' },
    none: 'statements.bulkIgnore.none',
  },
  bulkIgnore: {
    count: { one: 'statements.bulkIgnore.selection.one', other: 'statements.bulkIgnore.selection.other' },
    none: 'statements.bulkIgnore.noneSelected',
  },
};

/**
 * The confirmation of a bulk action, with the count and the sum of what it takes on every page:
 * `Shift+a` over a "score ≥ x" filter (decision 0147: money moves; focus on "Accept", Enter accepts) and
 * `Shift+i` over a filter or a selection (decision 0161: the ignore's note is required, as one line's is;
 * focus in the note, Enter ignores). Esc leaves; a count of none only closes.
 */
export function BulkConfirm({
  scope,
  totals,
  onConfirm,
  onClose,
}: {
  scope: BulkScope;
  totals: BulkTotals;
  onConfirm(note: string): void;
  onClose(): void;
}) {
  const { t, locale } = useI18n();
  const [note, setNote] = useState('');
  const none = totals.count === 0;
  const ignore = scope.kind !== 'filterAccept';
  const words = WORDS[scope.kind];
  return (
    <LineDialog
      title={
        scope.kind === 'filterAccept'
          ? t('statements.filterAccept.title', { score: scorePoints(scope.filter.minScore) })
          : t('statements.bulkIgnore.title')
      }
      submitLabel={t(ignore ? 'statements.bulkIgnore.ignore' : 'statements.filterAccept.accept')}
      focusSubmit={!ignore || none}
      canSubmit={!ignore || note.trim() !== ''}
      {...(none ? {} : { onSubmit: () => onConfirm(note.trim()) })}
      onClose={onClose}
    >
      <p data-testid="bulk-count">
        {none
          ? t(words.none)
          : t(pluralKey(locale, totals.count, words.count), {
              count: new Intl.NumberFormat(locale).format(totals.count),
              sum: formatCents(totals.sumCents, locale, 'EUR'),
            })}
      </p>
      {ignore && !none ? (
        <label className="statement-note">
          <span>{t('statements.bulkIgnore.note')}</span>
          <input value={note} maxLength={2000} required onChange={(e) => setNote(e.target.value)} />
        </label>
      ) : null}
    </LineDialog>
  );
}
