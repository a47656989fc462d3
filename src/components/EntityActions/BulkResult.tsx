import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';

/** What a bulk action did to one selected row. */
export interface BulkRowOutcome {
  id: string;
  /** How the row is named in the result (a person, a settlement's doctor, month and amount). */
  label: string;
  /** Null when the action was done; the refusal's code when the row stayed as it was. */
  refusedCode: string | null;
}

/** The result of a bulk action, row by row: done, or the translated reason it was refused. */
export function BulkResult({
  title,
  doneLabel,
  rows,
}: {
  title: string;
  doneLabel: string;
  rows: readonly BulkRowOutcome[];
}) {
  const { t } = useI18n();
  return (
    <section aria-label={title} data-testid="bulk-result">
      <h2>{title}</h2>
      <ul>
        {rows.map((row) => (
          <li key={row.id} data-testid={`bulk-${row.id}`}>
            {row.label}:{' '}
            {row.refusedCode === null
              ? doneLabel
              : t(errorCodeKey(row.refusedCode) ?? 'errorMessages.fallback')}
          </li>
        ))}
      </ul>
    </section>
  );
}
