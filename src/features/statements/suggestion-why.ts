import type { Candidate } from '../../api/statements';
import type { Translate } from '../../i18n/i18n';

/**
 * Why the matcher offers a counterpart (issue 32: amount ✓, date ±n, reference, name similarity), in
 * the words the match picker and the table's suggestion cell both show.
 */
export function suggestionWhy(t: Translate, candidate: Pick<Candidate, 'reasons'>): string {
  const { reasons } = candidate;
  const mark = (yes: boolean) => t(yes ? 'statements.dialog.yes' : 'statements.dialog.no');
  return t('statements.dialog.reasons', {
    amount: mark(reasons.amountExact),
    days: reasons.dateDays,
    reference: mark(reasons.reference),
    name: Math.round(reasons.nameSimilarity * 100),
  });
}
