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
  /** What one point of the axis is ("Day", "Week", "Month"), translated: the legend's first entry. */
  pointLabel: string;
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
 * A value axis's tick: money in whole euros, compact from a thousand ("12 mil €", "€12K"), so a label
 * is never wider than the axis and never cut to "000,00 €" (issue 29 point 9).
 */
export function formatAxisValue(value: number, money: boolean | undefined, locale: string): string {
  return new Intl.NumberFormat(locale, {
    ...(money ? { style: 'currency', currency: 'EUR' } : {}),
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(money ? value / 100 : value);
}

/** Pixels per character of an axis label (12 px sans-serif, digits the widest) and the tick's margin. */
const AXIS_CHAR_PX = 8;
const AXIS_MARGIN_PX = 18;

/** The value axis's width: its widest label, whole. */
export const axisWidth = (labels: readonly string[]): number =>
  Math.max(1, ...labels.map((label) => label.length)) * AXIS_CHAR_PX + AXIS_MARGIN_PX;

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
