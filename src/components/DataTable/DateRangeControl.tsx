import { useI18n } from '../../i18n/i18n';
import { CommitInput } from './CommitInput';
import { formatDay, parseDay, presetRange, RANGE_PRESETS, type RangePreset } from './date-range';

const PRESET_KEYS: Record<RangePreset, string> = {
  today: 'table.range.today',
  last7Days: 'table.range.last7Days',
  thisMonth: 'table.range.thisMonth',
  lastMonth: 'table.range.lastMonth',
};

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
  const shown = (iso: string) => formatDay(iso, locale);
  const parse = (text: string) => parseDay(text, locale);
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
        <label htmlFor={`${id}-from`}>{t('table.range.from')}</label>
        <CommitInput
          id={`${id}-from`}
          className="date-range-day"
          placeholder={t('table.range.dayFormat')}
          committed={from}
          shown={shown}
          parse={parse}
          onCommit={(day) => onChange(day, to)}
          invalidHint={t('table.range.invalidDay')}
        />
        <label htmlFor={`${id}-to`}>{t('table.range.to')}</label>
        <CommitInput
          id={`${id}-to`}
          className="date-range-day"
          placeholder={t('table.range.dayFormat')}
          committed={to}
          shown={shown}
          parse={parse}
          onCommit={(day) => onChange(from, day)}
          invalidHint={t('table.range.invalidDay')}
        />
      </div>
    </div>
  );
}
