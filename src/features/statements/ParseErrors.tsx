import type { ParseError, StatementFormat } from '../../../domain/statements/types';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';

/** What the admin can do about lines that could not be read: only a CSV has a mapping to change. */
const ADVICE: Record<StatementFormat, string> = {
  csv: 'statements.errors.advice.csv',
  camt053: 'statements.errors.advice.camt053',
  mt940: 'statements.errors.advice.mt940',
};

/**
 * The file's problems, each translated (`statements.parseErrors.<CODE>`, every parser code has its text)
 * with its line, and the advice that fits the format.
 */
export function ParseErrors(props: {
  format: StatementFormat;
  errors: readonly ParseError[];
  count: number;
}) {
  const { t, locale } = useI18n();
  const describe = (code: ParseError['code']) => t(`statements.parseErrors.${code}`);
  return (
    <div className="statement-errors" role="alert" data-testid="statement-errors">
      <p>
        {t(
          pluralKey(locale, props.count, {
            one: 'statements.errors.count.one',
            other: 'statements.errors.count.other',
          }),
          { count: props.count },
        )}{' '}
        {t(ADVICE[props.format])}
      </p>
      <ul>
        {props.errors.map((error) => (
          <li key={`${error.line}-${error.code}`}>
            {error.line > 0
              ? t('statements.errors.line', { line: error.line, problem: describe(error.code) })
              : t('statements.errors.file', { problem: describe(error.code) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
