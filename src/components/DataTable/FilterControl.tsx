import { useEffect, useState } from 'react';
import { centsToDecimal, parseAmount } from '../../../domain/money';
import { useI18n } from '../../i18n/i18n';
import type { DataFilter } from './filters';

interface FilterControlProps {
  id: string;
  filter: DataFilter;
  values: readonly string[];
  onChange(values: string[]): void;
}

/** One filter of the toolbar; every kind writes plain strings, the URL's repeated keys. */
export function FilterControl({ id, filter, values, onChange }: FilterControlProps) {
  const { t } = useI18n();
  switch (filter.kind) {
    case 'select':
      return (
        <select
          id={id}
          value={values[0] ?? ''}
          onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}
        >
          <option value="">{t('table.any')}</option>
          {filter.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'multi':
      return <MultiFilter id={id} filter={filter} values={values} onChange={onChange} />;
    case 'amount':
      return <AmountFilter id={id} values={values} onChange={onChange} />;
    case 'text':
      return <TextFilter id={id} values={values} onChange={onChange} />;
    case 'date':
      return (
        <input
          id={id}
          type="date"
          value={values[0] ?? ''}
          onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}
        />
      );
  }
}

/** Several values of one key (e.g. statuses): a keyboard-reachable list of checkboxes. */
function MultiFilter({ id, filter, values, onChange }: FilterControlProps) {
  const { t } = useI18n();
  if (filter.kind !== 'multi') return null;
  const chosen = new Set(values);
  const summary =
    values.length === 0
      ? t('table.any')
      : values.length === 1
        ? (filter.options.find((o) => o.value === values[0])?.label ?? values[0])
        : t('table.selected', { count: values.length });
  return (
    <details className="data-table-multi">
      <summary id={id}>{summary}</summary>
      <fieldset>
        <legend>{filter.label}</legend>
        {filter.options.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              checked={chosen.has(o.value)}
              onChange={(e) =>
                // kept in the options' order so equal selections give equal URLs
                onChange(
                  filter.options
                    .map((x) => x.value)
                    .filter((v) => (v === o.value ? e.target.checked : chosen.has(v))),
                )
              }
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** Euros typed as the admin writes them (`12,50` or `12.50`); cents in the URL and the query. */
function AmountFilter({ id, values, onChange }: Omit<FilterControlProps, 'filter'>) {
  const { t } = useI18n();
  const committed = values[0] ?? '';
  const [draft, setDraft] = useState(() => centsToInput(committed));
  const [invalid, setInvalid] = useState(false);
  useEffect(() => setDraft(centsToInput(committed)), [committed]);

  const commit = () => {
    const text = draft.trim();
    if (text === '') {
      setInvalid(false);
      if (committed !== '') onChange([]);
      return;
    }
    const parsed = parseAmount(text);
    const cents = parsed.ok && parsed.cents >= 0 ? parsed.cents : null;
    setInvalid(cents === null);
    if (cents !== null && String(cents) !== committed) onChange([String(cents)]);
  };

  return (
    <input
      id={id}
      type="text"
      inputMode="decimal"
      className="data-table-amount"
      aria-invalid={invalid}
      title={invalid ? t('table.invalidAmount') : undefined}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}

/** Free text committed on Enter or blur, so typing does not fetch a page per key. */
function TextFilter({ id, values, onChange }: Omit<FilterControlProps, 'filter'>) {
  const committed = values[0] ?? '';
  const [draft, setDraft] = useState(committed);
  useEffect(() => setDraft(committed), [committed]);
  const commit = () => {
    const text = draft.trim();
    if (text !== committed) onChange(text ? [text] : []);
  };
  return (
    <input
      id={id}
      type="text"
      className="data-table-text"
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}

const centsToInput = (cents: string) => (/^\d+$/.test(cents) ? centsToDecimal(Number(cents)) : '');
