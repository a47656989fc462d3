import type { z } from 'zod';
import type { settlementReportRowSchema, settlementReportSchema } from '../../contract/finance';
import type { LocaleId } from '../../contract/statuses';
import type { ExportColumn, ExportRow } from '../../domain/export-files';
import { SETTLEMENT_STATUSES } from '../../domain/settlement-status';
import enGB from '../../locales/finance.en-GB.json';
import ptPT from '../../locales/finance.pt-PT.json';
import type { Database } from '../db/client';
import { LIVE_LINK_JOIN, SHOWN_STATUS } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

export type SettlementReport = z.infer<typeof settlementReportSchema>;
export type SettlementReportRow = z.infer<typeof settlementReportRowSchema>;
type Figures = SettlementReport['totals'];

const PAID_STATUSES = ['PAID', 'REFUNDED_PAID'];

/** The month's figures, per doctor or (without GROUP BY) for everyone: one SELECT list for both reads. */
const FIGURES_SQL = `count(*) AS settlement_count, count(s.case_id) AS case_count,
  coalesce(sum(s.gross_cents), 0) AS gross_cents, coalesce(sum(s.fee_cents), 0) AS fee_cents,
  coalesce(sum(s.net_cents), 0) AS net_cents, coalesce(sum(s.adjusted_cents), 0) AS adjusted_cents,
  coalesce(sum(${PAYABLE_SQL}), 0) AS payable_cents,
  coalesce(sum(${PAYABLE_SQL}) FILTER (WHERE s.status = ANY($2::text[])), 0) AS paid_cents,
  coalesce(sum(${PAYABLE_SQL}) FILTER (WHERE s.status = 'REFUNDED_PAID'), 0) AS to_recover_cents,
  ${SETTLEMENT_STATUSES.map((status) => `count(*) FILTER (WHERE ${SHOWN_STATUS} = '${status}') AS "n_${status}"`).join(', ')}`;

type FigureRow = Record<string, number | string | bigint>;

/** Sums come back as int8 (text or number by driver); cents stay exact far beyond any real total. */
const whole = (value: number | string | bigint | undefined): number => {
  const n = Number(value ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`sum out of range: ${String(value)}`);
  return n;
};

function figuresOf(row: FigureRow): Figures {
  return {
    settlementCount: whole(row.settlement_count),
    caseCount: whole(row.case_count),
    grossCents: whole(row.gross_cents),
    feeCents: whole(row.fee_cents),
    netCents: whole(row.net_cents),
    adjustedCents: whole(row.adjusted_cents),
    payableCents: whole(row.payable_cents),
    paidCents: whole(row.paid_cents),
    toRecoverCents: whole(row.to_recover_cents),
    statusCounts: Object.fromEntries(
      SETTLEMENT_STATUSES.map((status) => [status, whole(row[`n_${status}`])]),
    ) as Figures['statusCounts'],
  };
}

const AMOUNTS = [
  'settlementCount',
  'caseCount',
  'grossCents',
  'feeCents',
  'netCents',
  'adjustedCents',
  'payableCents',
  'paidCents',
  'toRecoverCents',
] as const;

function addFigures(into: Figures, add: Figures): void {
  for (const key of AMOUNTS) into[key] += add[key];
  for (const status of SETTLEMENT_STATUSES) into.statusCounts[status] += add.statusCounts[status];
}

const zeroFigures = (): Figures => figuresOf({});

/**
 * "Reports": the month's settlements (every status) per doctor, and totals. The totals are the sum of
 * the rows, and are checked against the database's own sum over the month (a second query without
 * GROUP BY) and against gross = fee + net: a report that does not add up to the cent is a bug, and
 * answers 500 rather than wrong figures.
 */
export async function settlementReport(db: Database, month: string): Promise<SettlementReport> {
  const params = [month, PAID_STATUSES];
  // Both reads in one snapshot: a change committed between them (a generation, a refund) would make
  // the rows and the month's sum disagree, and the check below answer 500 for a correct database.
  const [rows, wholeMonth] = await db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const perDoctor = await tx.query<FigureRow & { professional_id: string; professional_name: string }>(
      `SELECT s.professional_id, p.name AS professional_name, ${FIGURES_SQL}
         FROM settlements s JOIN users p ON p.id = s.professional_id ${LIVE_LINK_JOIN}
        WHERE s.reference_month = $1
        GROUP BY s.professional_id, p.name
        ORDER BY p.name, s.professional_id`,
      params,
    );
    const all = await tx.query<FigureRow>(
      `SELECT ${FIGURES_SQL} FROM settlements s ${LIVE_LINK_JOIN} WHERE s.reference_month = $1`,
      params,
    );
    return [perDoctor.rows, all.rows] as const;
  });
  const items: SettlementReportRow[] = rows.map((row) => ({
    professionalId: row.professional_id,
    professionalName: row.professional_name,
    ...figuresOf(row),
  }));
  const totals = zeroFigures();
  for (const item of items) addFigures(totals, item);

  const database = figuresOf(wholeMonth[0]!);
  if (JSON.stringify(database) !== JSON.stringify(totals))
    throw new Error(`settlement report ${month}: the rows' totals differ from the month's sum`);
  for (const figures of [...items, totals])
    if (figures.grossCents !== figures.feeCents + figures.netCents)
      throw new Error(`settlement report ${month}: gross ≠ fee + net`);
  return { month, currency: 'EUR', items, totals };
}

const LABELS = { 'pt-PT': ptPT.settlementReport, 'en-GB': enGB.settlementReport } as const;

/** The report's file columns, headed in the reader's language; money as decimal euros from cents. */
export function reportColumns(locale: LocaleId): ExportColumn[] {
  const label = LABELS[locale];
  return [
    { key: 'professionalName', header: label.professional, kind: 'text' },
    { key: 'professionalId', header: label.professionalId, kind: 'text' },
    { key: 'settlementCount', header: label.settlementCount, kind: 'integer' },
    { key: 'caseCount', header: label.caseCount, kind: 'integer' },
    { key: 'grossCents', header: label.gross, kind: 'cents' },
    { key: 'feeCents', header: label.fee, kind: 'cents' },
    { key: 'netCents', header: label.net, kind: 'cents' },
    { key: 'adjustedCents', header: label.adjusted, kind: 'cents' },
    { key: 'payableCents', header: label.payable, kind: 'cents' },
    { key: 'paidCents', header: label.paid, kind: 'cents' },
    { key: 'toRecoverCents', header: label.toRecover, kind: 'cents' },
    ...SETTLEMENT_STATUSES.map((status): ExportColumn => ({ key: status, header: status, kind: 'integer' })),
  ];
}

/** The report's rows as the file writers take them: one per doctor, then the totals. */
export function* reportRows(report: SettlementReport, locale: LocaleId): Generator<ExportRow> {
  const flat = ({ statusCounts, ...figures }: Figures) => ({ ...figures, ...statusCounts });
  for (const item of report.items) yield flat(item);
  yield { ...flat(report.totals), professionalName: LABELS[locale].total, professionalId: '' };
}

export const reportSheetName = (locale: LocaleId) => LABELS[locale].sheet;

/** `relatorio-liquidacoes-2026-03.csv`, `settlement-report-2026-03.xlsx`. */
export const reportFileName = (month: string, locale: LocaleId, extension: string) =>
  `${LABELS[locale].fileName}-${month}.${extension}`;
