import { type FormEvent, useId, useState } from 'react';
import { CSV_FIELDS, type CsvField, type CsvMapping } from '../../../domain/statements/types';
import { useI18n } from '../../i18n/i18n';

/** A mapping's column for `field` as a header index (names are resolved against the header). */
function columnOf(mapping: CsvMapping, field: CsvField, header: readonly string[]): number | null {
  const value = mapping[field];
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const index = header.findIndex((cell) => cell.trim().toLowerCase() === value.trim().toLowerCase());
    return index >= 0 ? index : null;
  }
  return null;
}

/**
 * The CSV column mapping the parser guessed (or the one remembered for this header), shown and editable:
 * one choice of column per field. Accepting it as it is or applying a change both remember it for
 * files with the same header.
 */
export function MappingEditor(props: {
  header: readonly string[];
  mapping: CsvMapping;
  editable: boolean;
  onAccept(): void;
  onApply(mapping: CsvMapping): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState<Record<CsvField, number | null>>(
    () =>
      Object.fromEntries(
        CSV_FIELDS.map((field) => [field, columnOf(props.mapping, field, props.header)]),
      ) as Record<CsvField, number | null>,
  );
  const changed = CSV_FIELDS.some((field) => draft[field] !== columnOf(props.mapping, field, props.header));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return props.onAccept();
    const mapping: CsvMapping = {};
    if (props.mapping.headerLine !== undefined) mapping.headerLine = props.mapping.headerLine;
    if (props.mapping.delimiter !== undefined) mapping.delimiter = props.mapping.delimiter;
    for (const field of CSV_FIELDS) {
      const column = draft[field];
      if (column !== null) mapping[field] = column;
    }
    props.onApply(mapping);
  };
  return (
    <form className="statement-mapping" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('statements.mapping.title')}</h3>
      <p>{t('statements.mapping.hint')}</p>
      <div className="statement-mapping-fields">
        {CSV_FIELDS.map((field) => (
          <label key={field}>
            <span>{t(`statements.mapping.fields.${field}`)}</span>
            <select
              value={draft[field] ?? ''}
              disabled={!props.editable}
              data-testid={`mapping-${field}`}
              onChange={(e) =>
                setDraft({ ...draft, [field]: e.target.value === '' ? null : Number(e.target.value) })
              }
            >
              <option value="">{t('statements.mapping.none')}</option>
              {props.header.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positions; two may share a name
                <option key={index} value={index}>
                  {cell || t('statements.mapping.column', { n: index + 1 })}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {props.editable ? (
        <button type="submit" className="primary" data-focus-home>
          {t(changed ? 'statements.mapping.apply' : 'statements.mapping.accept')}
        </button>
      ) : null}{' '}
      <button type="button" onClick={props.onCancel}>
        {t('statements.import.cancel')}
      </button>
    </form>
  );
}
