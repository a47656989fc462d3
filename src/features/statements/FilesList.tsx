import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatCents } from '../../../domain/money';
import {
  type BankStatement,
  markStatementFileReconciled,
  type StatementFileRow,
  statementKeys,
} from '../../api/statements';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { formatDate, formatDateTime } from '../../kernel/dates';
import { notify } from '../../kernel/toast';
import { printedIban } from './iban-format';

const CONTINUITY = {
  FIRST: 'statements.files.continuity.FIRST',
  CONTINUES: 'statements.files.continuity.CONTINUES',
  OVERLAP: 'statements.files.continuity.OVERLAP',
} as const;

const FORMATS: Record<StatementFileRow['format'], string> = {
  CSV: 'CSV',
  CAMT053: 'camt.053',
  MT940: 'MT940',
};

/** Only when every line is matched or ignored and the balances add up (the server checks it again). */
export const canMarkReconciled = (file: StatementFileRow) =>
  file.reconciledAt === null && file.balanceConsistent && file.doneCount === file.lineCount;

/**
 * The imported files with their balances and progress; one is marked reconciled when it may be (item 6).
 * Each file's statements say how they follow the account's previous one (a gap: by how much, since which
 * period; an overlap) and why one was imported although its balances do not add up.
 */
export function FilesList({ files }: { files: readonly StatementFileRow[] }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const money = (cents: number | null) => (cents === null ? '—' : formatCents(cents, locale, 'EUR'));
  const period = (start: string, end: string) =>
    t('statements.statement.period', { start: formatDate(start, locale), end: formatDate(end, locale) });
  const continuity = (statement: BankStatement) => {
    if (statement.continuity !== 'GAP') return t(CONTINUITY[statement.continuity]);
    const gap = money(statement.gapCents);
    return statement.previousPeriodStart && statement.previousPeriodEnd
      ? t('statements.files.continuity.gapAfter', {
          gap,
          previous: period(statement.previousPeriodStart, statement.previousPeriodEnd),
        })
      : t('statements.files.continuity.GAP', { gap });
  };
  const mark = async (file: StatementFileRow) => {
    try {
      await markStatementFileReconciled(file.id);
      await queryClient.invalidateQueries({ queryKey: statementKeys.files });
    } catch (error) {
      notify('danger', t(errorCodeKey((error as { code?: string }).code ?? '') ?? 'errorMessages.fallback'));
    }
  };
  return (
    <section className="statement-files" aria-labelledby="statement-files-title">
      <h2 id="statement-files-title">{t('statements.files.title')}</h2>
      <table
        className="statement-files-table"
        aria-label={t('statements.files.label')}
        data-testid="statement-files"
      >
        <thead>
          <tr>
            <th scope="col">{t('statements.files.name')}</th>
            <th scope="col">{t('statements.files.format')}</th>
            <th scope="col">{t('statements.files.opening')}</th>
            <th scope="col">{t('statements.files.closing')}</th>
            <th scope="col">{t('statements.files.consistent')}</th>
            <th scope="col">{t('statements.files.statements')}</th>
            <th scope="col">{t('statements.files.progress')}</th>
            <th scope="col">{t('statements.files.importedAt')}</th>
            <th scope="col">{t('statements.files.reconciled')}</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.id} data-file={file.fileName}>
              <td>
                <Link href={`/statements?statementFileId=${encodeURIComponent(file.id)}`}>
                  {file.fileName}
                </Link>
              </td>
              <td>{FORMATS[file.format]}</td>
              <td className="money">{money(file.openingBalanceCents)}</td>
              <td className="money">{money(file.closingBalanceCents)}</td>
              <td>{t(file.balanceConsistent ? 'statements.files.yes' : 'statements.files.no')}</td>
              <td>
                {file.statements.length > 0 ? (
                  <ul className="statement-file-statements">
                    {file.statements.map((statement) => (
                      <li key={statement.id} data-continuity={statement.continuity}>
                        {statement.accountIban ? printedIban(statement.accountIban) : '—'} ·{' '}
                        {period(statement.periodStart, statement.periodEnd)} · {continuity(statement)}
                        {statement.mismatchNote ? (
                          <p className="statement-mismatch-note" data-testid="statement-mismatch-note">
                            {t('statements.files.mismatchNote', { note: statement.mismatchNote })}
                          </p>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <progress max={file.lineCount || 1} value={file.doneCount} />{' '}
                {t('statements.files.progressValue', { done: file.doneCount, total: file.lineCount })}
              </td>
              <td>{formatDateTime(file.importedAt, locale)}</td>
              <td>
                {file.reconciledAt ? (
                  `${formatDateTime(file.reconciledAt, locale)} · ${file.reconciledBy?.name ?? ''}`
                ) : (
                  <button type="button" disabled={!canMarkReconciled(file)} onClick={() => void mark(file)}>
                    {t('statements.files.markReconciled')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
