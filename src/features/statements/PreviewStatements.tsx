import { formatCents } from '../../../domain/money';
import { balanceMismatch, type PreviewStatement } from '../../../machines/statement-import';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { formatDate } from '../../kernel/dates';
import { printedIban } from './iban-format';

/** How far a statement's closing balance is from its opening plus its entries (0: consistent). */
export const balanceDifference = (statement: PreviewStatement) =>
  statement.balance ? statement.balance.closing - statement.balance.opening - statement.totalCents : 0;

/**
 * Each statement of the file (one per account and period): its account — the file's, the one the admin
 * gave, or none yet —, period, lines, and whether opening + entries = closing, else by how much not.
 */
export function PreviewStatements(props: {
  statements: readonly PreviewStatement[];
  /** The account the admin gave the statements that name none. */
  givenAccount: string | null;
}) {
  const { t, locale } = useI18n();
  const money = (cents: number, statement: PreviewStatement) =>
    formatCents(cents, locale, statement.currency ?? 'EUR');
  return (
    <ul className="statement-statements" data-testid="statement-statements">
      {props.statements.map((statement) => (
        <li
          key={statement.firstEntry}
          data-mismatch={balanceMismatch(statement) ? true : undefined}
          data-testid="statement-statement"
        >
          <strong>
            {statement.accountIban
              ? printedIban(statement.accountIban)
              : props.givenAccount
                ? t('statements.statement.accountGiven', { iban: printedIban(props.givenAccount) })
                : t('statements.statement.accountMissing')}
          </strong>
          {' · '}
          {statement.periodStart && statement.periodEnd
            ? t('statements.statement.period', {
                start: formatDate(statement.periodStart, locale),
                end: formatDate(statement.periodEnd, locale),
              })
            : t('statements.statement.noPeriod')}
          {' · '}
          {t(
            pluralKey(locale, statement.entryCount, {
              one: 'statements.statement.lines.one',
              other: 'statements.statement.lines.other',
            }),
            { count: statement.entryCount },
          )}
          {' · '}
          <span data-testid="statement-balance">
            {statement.balance === null
              ? t('statements.balance.none')
              : balanceMismatch(statement)
                ? t('statements.balance.inconsistent', {
                    opening: money(statement.balance.opening, statement),
                    closing: money(statement.balance.closing, statement),
                    difference: money(balanceDifference(statement), statement),
                  })
                : t('statements.balance.consistent', {
                    opening: money(statement.balance.opening, statement),
                    closing: money(statement.balance.closing, statement),
                  })}
          </span>
        </li>
      ))}
    </ul>
  );
}
