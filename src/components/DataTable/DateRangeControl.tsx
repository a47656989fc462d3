import { Fragment } from 'react';
import { useI18n } from '../../i18n/i18n';
import { CommitInput } from './CommitInput';
import { formatDay, parseDay, presetRange, RANGE_PRESETS, type RangePreset } from './date-range';

const PRESET_KEYS: Record<RangePreset, string> = {
  today: 'table.range.today',
  last7Days: 'table.range.last7Days',
  thisMonth: 'table.range.thisMonth',
  lastMonth: 'table.range.lastMonth',
};

const END_KEYS = { from: 'table.range.from', to: 'table.range.to' } as const;

interface DateRangeControlProps {
  id: string;
  /** `yyyy-mm-dd` or ''. */
  from: string;
  to: string;
  onChange(from: string, to: string): void;
}

/**
 * A period as one control: presets on Lisbon's calendar, then both ends typed in the console's
 * language (dd/mm/aaaa, dd/mm/yyyy), whatever the browser's own date format is.
 */
export function DateRangeControl({ id, from, to, onChange }: DateRangeControlProps) {
  const { t, locale } = useI18n();
  const current = (preset: RangePreset) => {
    const range = presetRange(preset, new Date());
    return range.from === from && range.to === to;
  };
  return (
    <div className="date-range">
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form group */}
      <div className="date-range-presets" role="group" aria-label={t('table.range.presets')}>
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={current(preset)}
            onClick={() => {
              const range = presetRange(preset, new Date());
              onChange(range.from, range.to);
            }}
          >
            {t(PRESET_KEYS[preset])}
          </button>
        ))}
      </div>
      <div className="date-range-days">
        {(['from', 'to'] as const).map((end) => (
          <Fragment key={end}>
            <label htmlFor={`${id}-${end}`}>{t(END_KEYS[end])}</label>
            <CommitInput
              id={`${id}-${end}`}
              className="date-range-day"
              placeholder={t('table.range.dayFormat')}
              committed={end === 'from' ? from : to}
              shown={(iso) => formatDay(iso, locale)}
              parse={(text) => parseDay(text, locale)}
              onCommit={(day) => (end === 'from' ? onChange(day, to) : onChange(from, day))}
              invalidHint={t('table.range.invalidDay')}
            />
          </Fragment>
        ))}
      </div>
    </div>
  );
}
