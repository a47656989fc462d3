import type { Candidate } from '../../api/statements';
import type { Translate } from '../../i18n/i18n';

/**
 * Why the matcher offers a counterpart (issue 32: amount ✓, date ±n, reference, name similarity, the MB WAY phone, booked on the rail's day, a learned rule, the payer's account, a twin document), in
 * the words the match picker and the table's suggestion cell both show.
 */
export function suggestionWhy(t: Translate, candidate: Pick<Candidate, 'reasons'>): string {
  const { reasons } = candidate;
  const mark = (yes: boolean) => t(yes ? 'statements.dialog.yes' : 'statements.dialog.no');
  const why = t('statements.dialog.reasons', {
    amount: mark(reasons.amountExact),
    days: reasons.dateDays,
    reference: mark(reasons.reference),
    name: Math.round(reasons.nameSimilarity * 100),
  });
  // The customer's phone agreed with the MB WAY line's visible digits (decision 0160).
  const phone = reasons.phone ? t('statements.dialog.phone') : '';
  // Booked on the rail's day: why a SEPA credit's candidate a day or a weekend away comes first (decision 0175).
  const railDay = reasons.railDay && reasons.dateDays > 0 ? t('statements.dialog.railDay') : '';
  // What the matcher read across the file: the payer's account, a twin document (decision 0177).
  const file = `${reasons.sameAccount ? t('statements.dialog.sameAccount') : ''}${reasons.twin ? t('statements.dialog.twin') : ''}`;
  // The operator's own earlier match named the party (decision 0146), said with the text it taught (0151).
  return reasons.learnedRule
    ? `${why}${phone}${railDay}${file}${t('statements.dialog.learnedRule', { text: reasons.learnedText ?? '' })}`
    : `${why}${phone}${railDay}${file}`;
}
