import { centsToDecimal, parseAmount } from '../../../domain/money';
import { useI18n } from '../../i18n/i18n';
import { CommitInput } from './CommitInput';
import { DateRangeControl } from './DateRangeControl';
import type { DataFilter } from './filters';

interface FilterControlProps {
  id: string;
  filter: DataFilter;
  values: readonly string[];
  onChange(values: string[]): void;
}

/** Changed URL keys → their new values (a date range writes two keys at once). */
export type FilterPatch = Record<string, string[]>;

interface FilterEditorProps {
  id: string;
  filter: DataFilter;
  /** The filter's values by URL key. */
  values: Readonly<Record<string, readonly string[]>>;
  onChange(patch: FilterPatch): void;
}

/** The editor in a filter chip's popover; every kind writes plain strings, the URL's repeated keys. */
export function FilterEditor({ id, filter, values, onChange }: FilterEditorProps) {
  if (filter.kind === 'dateRange')
    return (
      <DateRangeControl
        id={id}
        from={values[filter.from]?.[0] ?? ''}
        to={values[filter.to]?.[0] ?? ''}
        onChange={(from, to) => onChange({ [filter.from]: from ? [from] : [], [filter.to]: to ? [to] : [] })}
      />
    );
  return (
    <FilterControl
      id={id}
      filter={filter}
      values={values[filter.key] ?? []}
      onChange={(next) => onChange({ [filter.key]: next })}
    />
  );
}

function FilterControl({ id, filter, values, onChange }: FilterControlProps) {
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
    case 'dateRange':
      return null; // FilterEditor gives it both its keys
  }
}

/** Several values of one key (e.g. statuses): a list of checkboxes, in the chip's popover. */
function MultiFilter({ id, filter, values, onChange }: FilterControlProps) {
  if (filter.kind !== 'multi') return null;
  const chosen = new Set(values);
  return (
    <fieldset id={id} className="data-table-multi">
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
  );
}

/** Euros typed as the admin writes them (`12,50` or `12.50`); cents in the URL and the query. */
function AmountFilter({ id, values, onChange }: Omit<FilterControlProps, 'filter'>) {
  const { t } = useI18n();
  return (
    <CommitInput
      id={id}
      inputMode="decimal"
      className="data-table-amount"
      committed={values[0] ?? ''}
      shown={centsToInput}
      parse={(text) => {
        const parsed = parseAmount(text);
        return parsed.ok && parsed.cents >= 0 ? String(parsed.cents) : null;
      }}
      onCommit={(cents) => onChange(cents ? [cents] : [])}
      invalidHint={t('table.invalidAmount')}
    />
  );
}

/** Free text (an id pasted or set by a link). */
function TextFilter({ id, values, onChange }: Omit<FilterControlProps, 'filter'>) {
  return (
    <CommitInput
      id={id}
      className="data-table-text"
      committed={values[0] ?? ''}
      shown={(text) => text}
      parse={(text) => text}
      onCommit={(text) => onChange(text ? [text] : [])}
    />
  );
}

const centsToInput = (cents: string) => (/^\d+$/.test(cents) ? centsToDecimal(Number(cents)) : '');
