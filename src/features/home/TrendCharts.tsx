import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import { CASE_STATUSES } from '../../../domain/case-status';
import type { DashboardTrends } from '../../api/dashboard';
import { useI18n } from '../../i18n/i18n';
import {
  axisWidth,
  type ChartData,
  chartSummary,
  formatAxisValue,
  formatPoint,
  formatValue,
} from './chart-summaries';

// Loaded lazily by the home screen: uPlot and this module never reach the entry chunk.

const COLOURS = [
  '#2563eb',
  '#16a34a',
  '#dc2626',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#4b5563',
  '#65a30d',
  '#9333ea',
  '#ea580c',
  '#0f766e',
];
const HEIGHT = 220;

function Chart({ id, title, data, bars }: { id: string; title: string; data: ChartData; bars?: boolean }) {
  const { t, locale } = useI18n();
  const host = useRef<HTMLDivElement>(null);
  const summary = useMemo(() => chartSummary(data, t, locale), [data, t, locale]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const xs = data.axis.map((_, i) => i);
    const money = data.series.some((s) => s.money);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: HEIGHT,
        scales: { x: { time: false } },
        axes: [
          {
            values: (_u, ticks) => ticks.map((i) => (data.axis[i] ? formatPoint(data.axis[i], locale) : '')),
          },
          {
            values: (_u, ticks) => ticks.map((v) => formatAxisValue(v, money, locale)),
            size: (_u, labels) => axisWidth(labels ?? []),
          },
        ],
        series: [
          {
            // Named, or uPlot's legend says "Value" in every language.
            label: data.pointLabel,
            value: (_u, i) => (i == null || !data.axis[i] ? '—' : formatPoint(data.axis[i], locale)),
          },
          ...data.series.map((s, i) => ({
            label: s.label,
            stroke: COLOURS[i % COLOURS.length],
            ...(bars
              ? { fill: `${COLOURS[i % COLOURS.length]}99`, paths: uPlot.paths.bars?.({ size: [0.6, 40] }) }
              : {}),
            value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatValue(v, s.money, locale)),
          })),
        ],
      },
      [xs, ...data.series.map((s) => [...s.values])],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(280, element.clientWidth), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [data, locale, bars]);

  return (
    <figure className="trend-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div ref={host} aria-hidden="true" />
      <p className="visually-hidden" data-testid={`${id}-summary`}>
        {summary}
      </p>
    </figure>
  );
}

/** The four trends of the home screen, each a chart with its text summary. */
export default function TrendCharts({ trends }: { trends: DashboardTrends }) {
  const { t } = useI18n();
  const charts = useMemo(() => {
    const cases: ChartData = {
      axis: trends.casesPerDay.days,
      pointLabel: t('home.charts.day'),
      series: trends.casesPerDay.byStatus
        .filter((s) => s.counts.some((n) => n > 0))
        .sort((a, b) => CASE_STATUSES.indexOf(a.status) - CASE_STATUSES.indexOf(b.status))
        .map((s) => ({ label: t(`cases.status.${s.status}`), values: s.counts })),
    };
    const revenue: ChartData = {
      axis: trends.revenuePerMonth.months,
      pointLabel: t('home.charts.month'),
      series: [
        { label: t('home.charts.fee'), values: trends.revenuePerMonth.feeCents, money: true },
        { label: t('home.charts.net'), values: trends.revenuePerMonth.netCents, money: true },
      ],
    };
    const payouts: ChartData = {
      axis: trends.payoutsPerMonth.months,
      pointLabel: t('home.charts.month'),
      series: [{ label: t('home.charts.paidOut'), values: trends.payoutsPerMonth.amountCents, money: true }],
    };
    const signups: ChartData = {
      axis: trends.signupsPerWeek.weeks,
      pointLabel: t('home.charts.week'),
      series: [
        { label: t('home.charts.customers'), values: trends.signupsPerWeek.customers },
        { label: t('home.charts.professionals'), values: trends.signupsPerWeek.professionals },
      ],
    };
    return { cases, revenue, payouts, signups };
  }, [trends, t]);

  return (
    <div className="trend-charts">
      <Chart id="chart-cases" title={t('home.charts.cases')} data={charts.cases} />
      <Chart id="chart-revenue" title={t('home.charts.revenue')} data={charts.revenue} bars />
      <Chart id="chart-payouts" title={t('home.charts.payouts')} data={charts.payouts} bars />
      <Chart id="chart-signups" title={t('home.charts.signups')} data={charts.signups} />
    </div>
  );
}
