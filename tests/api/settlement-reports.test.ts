import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLEMENT_STATUSES, type SettlementStatus } from '../../domain/settlement-status';
import { testDatabaseKinds } from '../support/databases';
import { type SettlementWorld, startSettlementWorld } from './settlement-support';

const MONTH = '2026-01';

interface Figures {
  settlementCount: number;
  caseCount: number;
  grossCents: number;
  feeCents: number;
  netCents: number;
  adjustedCents: number;
  payableCents: number;
  paidCents: number;
  toRecoverCents: number;
  statusCounts: Record<SettlementStatus, number>;
}
interface Report {
  month: string;
  items: (Figures & { professionalId: string; professionalName: string })[];
  totals: Figures;
}

interface RawSettlement {
  professional_id: string;
  case_id: string | null;
  gross_cents: number;
  fee_cents: number;
  net_cents: number;
  adjusted_cents: number | null;
  status: SettlementStatus;
}

/** The expected figures, summed here from the raw rows rather than by the server's GROUP BY. */
function independentFigures(rows: readonly RawSettlement[]): Figures {
  const sum = (pick: (row: RawSettlement) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const payable = (row: RawSettlement) => row.adjusted_cents ?? row.net_cents;
  return {
    settlementCount: rows.length,
    caseCount: rows.filter((row) => row.case_id !== null).length,
    grossCents: sum((row) => row.gross_cents),
    feeCents: sum((row) => row.fee_cents),
    netCents: sum((row) => row.net_cents),
    adjustedCents: sum((row) => row.adjusted_cents ?? 0),
    payableCents: sum(payable),
    paidCents: sum((row) => (row.status === 'PAID' || row.status === 'REFUNDED_PAID' ? payable(row) : 0)),
    toRecoverCents: sum((row) => (row.status === 'REFUNDED_PAID' ? payable(row) : 0)),
    statusCounts: Object.fromEntries(
      SETTLEMENT_STATUSES.map((status) => [status, rows.filter((row) => row.status === status).length]),
    ) as Figures['statusCounts'],
  };
}

/** `1.234,56` (pt-PT) or `1234.56` (en-GB) → cents, by string surgery, never through a float. */
const centsOf = (text: string, decimalMark: ',' | '.') => {
  const [units, fraction = ''] = text.replaceAll(decimalMark === ',' ? '.' : ',', '').split(decimalMark);
  return Number(units) * 100 + Math.sign(Number(units) || 1) * Number(fraction.padEnd(2, '0'));
};

const MONEY = [
  'grossCents',
  'feeCents',
  'netCents',
  'adjustedCents',
  'payableCents',
  'paidCents',
  'toRecoverCents',
] as const;
const COUNTS = ['settlementCount', 'caseCount'] as const;

describe.each(testDatabaseKinds())('settlement reports on $name', (kind) => {
  let world: SettlementWorld;
  let hostileName: string;
  beforeAll(async () => {
    world = await startSettlementWorld(kind);
    hostileName = '=HYPERLINK("http://evil.example","Dr")';
    const doctors = [
      await world.professional('Dra. Beatriz'),
      await world.professional(hostileName),
      await world.professional('Dr. Carlos', false),
    ];
    // Every status, odd prices (the 16 % fee rounds half-even), some adjustments; another month besides.
    let price = 500;
    for (const [index, professionalId] of doctors.entries())
      for (const status of SETTLEMENT_STATUSES) {
        price += 737;
        await world.settlement({
          professionalId,
          referenceMonth: MONTH,
          priceCents: price,
          status,
          adjustedCents: (price + index) % 3 === 0 ? Math.floor(price / 2) : undefined,
        });
      }
    await world.settlement({ professionalId: doctors[0]!, referenceMonth: '2026-02', priceCents: 9999 });
  }, 120_000);
  afterAll(async () => world?.stop());

  const raw = async () =>
    (
      await world.db.query<RawSettlement>(
        `SELECT professional_id, case_id, gross_cents, fee_cents, net_cents, adjusted_cents, v.status
           FROM settlements JOIN settlement_statuses v USING (id) WHERE reference_month = $1`,
        [MONTH],
      )
    ).rows;

  const report = async (month = MONTH): Promise<Report> => {
    const response = await world.request('GET', `/v2/admin/settlement/reports/?month=${month}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Report;
  };

  it('answers per doctor the figures an independent sum gives, and totals that add up to the cent', async () => {
    const rows = await raw();
    const body = await report();
    const doctors = [...new Set(rows.map((row) => row.professional_id))];
    expect(body.items.map((item) => item.professionalId).sort()).toEqual(doctors.sort());
    for (const item of body.items) {
      const { professionalId, professionalName, ...figures } = item;
      expect(figures, professionalName).toEqual(
        independentFigures(rows.filter((row) => row.professional_id === professionalId)),
      );
      expect(item.grossCents).toBe(item.feeCents + item.netCents);
    }
    expect(body.totals).toEqual(independentFigures(rows));
    for (const key of [...MONEY, ...COUNTS])
      expect(body.totals[key], key).toBe(body.items.reduce((total, item) => total + item[key], 0));
    expect(body.totals.paidCents).toBeGreaterThan(0);
    expect(body.totals.adjustedCents).toBeGreaterThan(0);
  });

  it('answers an empty month with zero totals, and refuses a malformed month', async () => {
    const body = await report('1999-01');
    expect(body.items).toEqual([]);
    expect(body.totals.payableCents).toBe(0);
    for (const query of ['', '?month=2026-13', '?month=2026-1', '?month=2026-01&month=2026-02'])
      expect((await world.request('GET', `/v2/admin/settlement/reports/${query}`)).status, query).toBe(400);
  });

  it('downloads the same figures as CSV (pt-PT: BOM, `;`, decimal comma), formula-like names neutralised', async () => {
    const body = await report();
    const response = await world.request(
      'GET',
      `/v2/admin/settlement/reports/download?month=${MONTH}&format=csv`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain(`relatorio-liquidacoes-${MONTH}.csv`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(new TextDecoder().decode(bytes.subarray(3)), { delimiter: ';' });
    const [header, ...lines] = parsed.data.filter((line) => line.length > 1);
    expect(header!.slice(0, 5)).toEqual(['Médico', 'ID do médico', 'Liquidações', 'Casos', 'Bruto (EUR)']);
    expect(lines).toHaveLength(body.items.length + 1);
    const expected = [...body.items, { ...body.totals, professionalName: 'Total', professionalId: '' }];
    for (const [index, line] of lines.entries()) {
      const want = expected[index]!;
      const name = want.professionalName.startsWith('=')
        ? `'${want.professionalName}`
        : want.professionalName;
      expect(line[0]).toBe(name);
      expect(line[1]).toBe(want.professionalId);
      expect(line.slice(2, 4).map(Number)).toEqual(COUNTS.map((key) => want[key]));
      expect(line.slice(4, 11).map((cell) => centsOf(cell, ','))).toEqual(MONEY.map((key) => want[key]));
      expect(line.slice(11).map(Number)).toEqual(
        SETTLEMENT_STATUSES.map((status) => want.statusCounts[status]),
      );
    }
    expect(lines.some((line) => line[0]!.startsWith("'=HYPERLINK"))).toBe(true);
  });

  it('downloads the same figures as XLSX (en-GB), read back by an independent reader', async () => {
    const body = await report();
    const response = await world.request(
      'GET',
      `/v2/admin/settlement/reports/download?month=${MONTH}&format=xlsx&locale=en-GB`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toContain(`settlement-report-${MONTH}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Settlements');
    const text = (value: ExcelJS.CellValue) => String(value ?? '');
    expect(text(sheet.getRow(1).getCell(5).value)).toBe('Gross (EUR)');
    const expected = [...body.items, { ...body.totals, professionalName: 'Total', professionalId: '' }];
    expect(sheet.actualRowCount).toBe(expected.length + 1);
    for (const [index, want] of expected.entries()) {
      const row = sheet.getRow(index + 2);
      const name = want.professionalName.startsWith('=')
        ? `'${want.professionalName}`
        : want.professionalName;
      expect(text(row.getCell(1).value)).toBe(name);
      expect(COUNTS.map((_, column) => Number(row.getCell(3 + column).value))).toEqual(
        COUNTS.map((key) => want[key]),
      );
      expect(MONEY.map((_, column) => Math.round(Number(row.getCell(5 + column).value) * 100))).toEqual(
        MONEY.map((key) => want[key]),
      );
      expect(SETTLEMENT_STATUSES.map((_, column) => Number(row.getCell(12 + column).value))).toEqual(
        SETTLEMENT_STATUSES.map((status) => want.statusCounts[status]),
      );
    }
  });

  it('refuses an unknown format or locale before reading anything', async () => {
    for (const query of ['format=pdf', 'format=csv&locale=fr-FR', 'format='])
      expect(
        (await world.request('GET', `/v2/admin/settlement/reports/download?month=${MONTH}&${query}`)).status,
        query,
      ).toBe(400);
  });
});
