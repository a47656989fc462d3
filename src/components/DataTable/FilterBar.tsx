import { type Ref, useEffect, useRef, useState } from 'react';
import { formatCents } from '../../../domain/money';
import { useI18n } from '../../i18n/i18n';
import { Menu, type MenuHandle } from '../Menu/Menu';
import { useOutsideDismiss } from '../Menu/use-outside-dismiss';
import { formatDay } from './date-range';
import { FilterEditor, type FilterPatch } from './FilterControl';
import { type DataFilter, filterUrlKeys, filterValues, isFilterSet } from './filters';

interface FilterBarProps {
  /** The table's id: prefixes the editors' element ids. */
  tableId: string;
  filters: readonly DataFilter[];
  /** The table's filter state (URL key → values). */
  values: Readonly<Record<string, readonly string[]>>;
  onChange(patch: FilterPatch): void;
  /** Opens the "Filter" menu (the table's `f`). */
  menu: Ref<MenuHandle>;
}

/**
 * The toolbar's filters (issue 14): a "Filter" menu that adds one, and a removable chip per filter set
 * (or being edited). The URL stays the only state: a chip is shown because its keys have values, apart
 * from the one whose editor is open (a filter just picked has no value yet).
 */
export function FilterBar({ tableId, filters, values, onChange, menu }: FilterBarProps) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  // After the render that removes the chip (and may enable the button, disabled while nothing was left to add).
  const focusMenuButtonNext = useRef(false);
  useEffect(() => {
    if (!focusMenuButtonNext.current) return;
    focusMenuButtonNext.current = false;
    root.current?.querySelector<HTMLElement>('.filter-bar-button')?.focus({ preventScroll: true });
  });
  const focusMenuButton = () => {
    focusMenuButtonNext.current = true;
  };

  const shown = filters.filter((f) => f.key === editing || isFilterSet(f, values));
  const offered = filters.filter((f) => !shown.includes(f));

  const remove = (filter: DataFilter) => {
    onChange(Object.fromEntries(filterUrlKeys(filter).map((key) => [key, []])));
    if (editing === filter.key) setEditing(null);
    focusMenuButton();
  };

  return (
    <div className="filter-bar" ref={root}>
      <Menu
        className="filter-bar-menu"
        buttonClassName="filter-bar-button"
        button={t('table.filter')}
        label={t('table.filterMenu')}
        handle={menu}
        items={offered.map((filter) => ({
          id: filter.key,
          label: filter.label,
          onSelect: () => setEditing(filter.key),
        }))}
      />
      {shown.map((filter) => (
        <FilterChip
          key={filter.key}
          id={`${tableId}-filter-${filter.key}`}
          filter={filter}
          values={values}
          editing={editing === filter.key}
          onEdit={(open, byEscape) => {
            setEditing(open ? filter.key : null);
            // A chip picked but closed with Esc without a value goes away: the keyboard goes back to the menu.
            if (byEscape && !isFilterSet(filter, values)) focusMenuButton();
          }}
          onChange={onChange}
          onRemove={() => remove(filter)}
        />
      ))}
    </div>
  );
}

interface FilterChipProps {
  id: string;
  filter: DataFilter;
  values: Readonly<Record<string, readonly string[]>>;
  editing: boolean;
  /** Opens (true) or closes (false) the chip's editor; `byEscape` when Esc closed it (the keyboard stays here). */
  onEdit(open: boolean, byEscape?: boolean): void;
  onChange(patch: FilterPatch): void;
  onRemove(): void;
}

/** "Estado: Verificado, Desativado ×": opens its editor; Backspace, Delete or × removes it. */
function FilterChip({ id, filter, values, editing, onEdit, onChange, onRemove }: FilterChipProps) {
  const { t, locale } = useI18n();
  const chip = useRef<HTMLDivElement>(null);
  const valueButton = useRef<HTMLButtonElement>(null);
  const editor = useRef<HTMLDivElement>(null);

  // Opened from the menu or the chip: the keyboard goes to the editor's first control.
  useEffect(() => {
    if (editing) editor.current?.querySelector<HTMLElement>('input, select, button')?.focus();
  }, [editing]);

  const onBlur = useOutsideDismiss(editing, chip, () => onEdit(false));

  const summary = chipSummary(filter, values, locale, t);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a chip is a button pair, not a form group
    <div className="filter-chip" role="group" aria-label={filter.label} ref={chip} onBlur={onBlur}>
      <button
        ref={valueButton}
        type="button"
        className="filter-chip-value"
        aria-haspopup="dialog"
        aria-expanded={editing}
        onClick={() => onEdit(!editing)}
        onKeyDown={(event) => {
          if (event.key !== 'Backspace' && event.key !== 'Delete') return;
          event.preventDefault();
          onRemove();
        }}
      >
        {filter.label}: <span className="filter-chip-summary">{summary || t('table.any')}</span>
      </button>
      <button
        type="button"
        className="filter-chip-remove"
        aria-label={t('table.removeFilter', { filter: filter.label })}
        onClick={onRemove}
      >
        ×
      </button>
      {editing ? (
        <div
          className="filter-chip-editor"
          role="dialog"
          aria-label={filter.label}
          ref={editor}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Closes the editor only: the table's own Esc (clear the selection) is not for this press.
            event.preventDefault();
            event.stopPropagation();
            valueButton.current?.focus();
            onEdit(false, true);
          }}
        >
          {filter.kind === 'multi' || filter.kind === 'dateRange' ? null : (
            <label htmlFor={id}>{filter.label}</label>
          )}
          <FilterEditor id={id} filter={filter} values={filterValues(filter, values)} onChange={onChange} />
        </div>
      ) : null}
    </div>
  );
}

type Translate = ReturnType<typeof useI18n>['t'];

/** What a chip says its filter is set to: option labels, euros, a period; '' when unset. */
function chipSummary(
  filter: DataFilter,
  all: Readonly<Record<string, readonly string[]>>,
  locale: string,
  t: Translate,
): string {
  if (filter.kind === 'dateRange') {
    const from = formatDay(all[filter.from]?.[0] ?? '', locale);
    const to = formatDay(all[filter.to]?.[0] ?? '', locale);
    if (from && to) return `${from} – ${to}`;
    if (from) return t('table.range.since', { day: from });
    return to ? t('table.range.until', { day: to }) : '';
  }
  const values = all[filter.key] ?? [];
  switch (filter.kind) {
    case 'select':
    case 'multi':
      return values.map((v) => filter.options.find((o) => o.value === v)?.label ?? v).join(', ');
    case 'amount':
      return values.map((c) => (/^\d+$/.test(c) ? formatCents(Number(c), locale) : c)).join(', ');
    case 'text':
      return values.join(', ');
  }
}
