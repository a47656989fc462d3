import { type FormEvent, useId, useState } from 'react';
import type { ColumnMapping } from '../../../domain/statements/csv-mapping';
import { useI18n } from '../../i18n/i18n';

/** A mapping's column for `field` as a header index (names are resolved against the header). */
function columnOf<Field extends string>(
  mapping: ColumnMapping<Field>,
  field: Field,
  header: readonly string[],
): number | null {
  const value = mapping[field];
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const index = header.findIndex((cell) => cell.trim().toLowerCase() === value.trim().toLowerCase());
    return index >= 0 ? index : null;
  }
  return null;
}

/** The words every mapping editor finds under `<namespace>.mapping.`, beside `fields.<field>`. */
export const MAPPING_EDITOR_WORDS = ['title', 'hint', 'none', 'column', 'accept', 'apply', 'cancel'] as const;

/**
 * A CSV's column mapping (the one guessed, the one remembered for this header, or none yet), shown and
 * editable: one choice of column per field. Accepting it as it is or applying a change both remember it
 * for files with the same header. Serves every CSV read through a mapping — bank statements
 * and collectors' payout reports —, each screen's words under its own `<namespace>.mapping`.
 */
export function MappingEditor<Field extends string>(props: {
  fields: readonly Field[];
  /** The screen whose words it speaks: `statements.mapping.*` or `sources.mapping.*`. */
  namespace: 'statements' | 'sources';
  header: readonly string[];
  mapping: ColumnMapping<Field>;
  editable: boolean;
  onAccept(): void;
  onApply(mapping: ColumnMapping<Field>): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const words = (key: string, params?: Record<string, string | number>) =>
    t(`${props.namespace}.mapping.${key}`, params);
  const [draft, setDraft] = useState<Record<Field, number | null>>(
    () =>
      Object.fromEntries(
        props.fields.map((field) => [field, columnOf(props.mapping, field, props.header)]),
      ) as Record<Field, number | null>,
  );
  const changed = props.fields.some((field) => draft[field] !== columnOf(props.mapping, field, props.header));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return props.onAccept();
    const mapping: ColumnMapping<Field> = {};
    if (props.mapping.headerLine !== undefined) mapping.headerLine = props.mapping.headerLine;
    if (props.mapping.delimiter !== undefined) mapping.delimiter = props.mapping.delimiter;
    for (const field of props.fields) {
      const column = draft[field];
      if (column !== null) (mapping as Record<Field, number>)[field] = column;
    }
    props.onApply(mapping);
  };
  return (
    <form className="statement-mapping" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{words('title')}</h3>
      <p>{words('hint')}</p>
      <div className="statement-mapping-fields">
        {props.fields.map((field) => (
          <label key={field}>
            <span>{words(`fields.${field}`)}</span>
            <select
              value={draft[field] ?? ''}
              disabled={!props.editable}
              data-testid={`mapping-${field}`}
              onChange={(e) =>
                setDraft({ ...draft, [field]: e.target.value === '' ? null : Number(e.target.value) })
              }
            >
              <option value="">{words('none')}</option>
              {props.header.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positions; two may share a name
                <option key={index} value={index}>
                  {cell || words('column', { n: index + 1 })}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {props.editable ? (
        <button type="submit" className="primary" data-focus-home>
          {words(changed ? 'apply' : 'accept')}
        </button>
      ) : null}{' '}
      <button type="button" onClick={props.onCancel}>
        {words('cancel')}
      </button>
    </form>
  );
}
