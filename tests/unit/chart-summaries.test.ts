import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';
import {
  axisWidth,
  chartSummary,
  formatAxisValue,
  formatPoint,
} from '../../src/features/home/chart-summaries';

type Tree = { [key: string]: string | Tree };
// A translator over the real locale files, so the summaries are read as a screen reader hears them.
const translator =
  (tree: Tree) =>
  (key: string, params: Record<string, string | number> = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], tree) as string;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
  };

describe('chart text summaries', () => {
  const data = {
    axis: ['2026-01', '2026-02', '2026-03'],
    pointLabel: 'Month',
    series: [
      { label: 'Fee', values: [1000, 4550, 250], money: true },
      { label: 'Empty', values: [0, 0, 0] },
    ],
  };

  it('says the period, each non-empty series total and its peak, in English', () => {
    expect(chartSummary(data, translator(enGB as Tree), 'en-GB')).toBe(
      'From Jan 2026 to Mar 2026. Fee: €58.00 in total, most on Feb 2026 (€45.50).',
    );
  });

  it('writes numbers, money and dates the Portuguese way', () => {
    const text = chartSummary(data, translator(ptPT as Tree), 'pt-PT');
    expect(text).toContain('58,00');
    expect(text).toContain('45,50');
    expect(text).toContain(formatPoint('2026-02', 'pt-PT'));
    expect(text.startsWith('De ')).toBe(true);
  });

  it('says when a period holds nothing', () => {
    const empty = {
      axis: ['2026-03-01', '2026-03-02'],
      pointLabel: 'Day',
      series: [{ label: 'Cases', values: [0, 0] }],
    };
    expect(chartSummary(empty, translator(enGB as Tree), 'en-GB')).toBe(
      'From 1 Mar to 2 Mar. Nothing in this period.',
    );
  });

  // Issue 29 point 9: the value axis was 70 px wide, so "12 345,00 €" showed as "000,00 €".
  it.each(['pt-PT', 'en-GB'])('keeps every money tick whole within the axis width in %s', (locale) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (cents) => {
        const label = formatAxisValue(cents, true, locale);
        expect(label).toMatch(/\d/);
        expect(label).toContain('€');
        // Compact and without cents, so a tick stays short and the axis is sized to it.
        expect(label.length).toBeLessThanOrEqual(12);
        expect(axisWidth([label])).toBeGreaterThanOrEqual(label.length * 8);
      }),
    );
    expect(formatAxisValue(1_234_500, true, locale)).not.toMatch(/[,.]00\b/);
  });
});
