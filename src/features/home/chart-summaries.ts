import type { Translate } from '../../i18n/i18n';

/** One chart: an x axis of calendar points and the series drawn over it. */
export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** Cents: shown as euros. */
  money?: boolean;
}

export interface ChartData {
  /** `YYYY-MM-DD` days or Mondays, or `YYYY-MM` months. */
  axis: readonly string[];
  series: readonly ChartSeries[];
}

/** `2026-03` or `2026-03-15` as the console's language writes it. */
export function formatPoint(point: string, locale: string): string {
  const month = point.length === 7;
  const date = new Date(`${month ? `${point}-01` : point}T12:00:00Z`);
  return new Intl.DateTimeFormat(
    locale,
    month
      ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
      : { day: 'numeric', month: 'short', timeZone: 'UTC' },
  ).format(date);
}

export function formatValue(value: number, money: boolean | undefined, locale: string): string {
  return money
    ? new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(value / 100)
    : new Intl.NumberFormat(locale).format(value);
}

/**
 * What a chart shows, in one or two sentences for screen readers: the period, each series' total and
 * where it peaked. Written from the same numbers the chart draws.
 */
export function chartSummary(data: ChartData, t: Translate, locale: string): string {
  const first = data.axis[0];
  const last = data.axis.at(-1);
  if (first === undefined || last === undefined) return t('home.charts.empty');
  const parts = data.series
    .map((series) => {
      const total = series.values.reduce((sum, v) => sum + v, 0);
      if (total === 0) return null;
      const peak = series.values.indexOf(Math.max(...series.values));
      return t('home.charts.seriesSummary', {
        series: series.label,
        total: formatValue(total, series.money, locale),
        peak: formatValue(series.values[peak] ?? 0, series.money, locale),
        at: formatPoint(data.axis[peak] ?? first, locale),
      });
    })
    .filter((part): part is string => part !== null);
  const period = t('home.charts.period', { from: formatPoint(first, locale), to: formatPoint(last, locale) });
  return parts.length === 0 ? `${period} ${t('home.charts.empty')}` : `${period} ${parts.join(' ')}`;
}
