// A payment collector's payout report read through a saved column mapping (domain/sources/provider-csv.ts,
// decision 0149): no public layout of a Portuguese Multibanco / MB WAY collector's export was found, so
// the files are made here in the shapes Portuguese exports take (`;`, decimal commas, accented headers).
// Payouts rebuilt exactly, in any order of rows, files cut anywhere, and every refusal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimal } from '../../../domain/money';
import {
  type ProviderCsvMapping,
  type ProviderPayoutReport,
  readProviderPayoutCsv,
} from '../../../domain/sources/provider-csv';
import type { SourceRead } from '../../../domain/sources/refusal';

const MAPPING: ProviderCsvMapping = {
  payoutId: 'Transferência',
  date: 'Data da transferência',
  gross: 'Valor',
  fee: 'Comissão',
  net: 'Valor líquido',
  reference: 'Referência MB',
};

const SAMPLE = [
  'Entidade;Referência MB;Data do pagamento;Valor;Comissão;Valor líquido;Transferência;Data da transferência',
  '21234;123 456 789;02-03-2026;45,00;0,68;44,32;TR-0301;03-03-2026',
  '21234;987 654 321;02-03-2026;1.200,00;4,50;1.195,50;TR-0301;03-03-2026',
  'MBWAY;351912345678;03-03-2026;30,00;0,45;29,55;TR-0302;04-03-2026',
  'MBWAY;351912345678;03-03-2026;-30,00;0,00;-30,00;TR-0302;04-03-2026',
  '21234;555 000 111;03-03-2026;60,00;0,90;59,10;TR-0302;04-03-2026',
  '',
].join('\n');

function read(result: SourceRead<ProviderPayoutReport>): ProviderPayoutReport {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.value;
}

const refusalOf = (text: string, mapping = MAPPING) => {
  const result = readProviderPayoutCsv(text, mapping);
  return result.ok ? null : result.refusal;
};

describe("a collector's payout CSV through a saved mapping", () => {
  it('rebuilds each payout from its rows: gross, fee and net exact, each row its reference', () => {
    const report = read(readProviderPayoutCsv(SAMPLE, MAPPING));
    expect(report).toMatchObject({ delimiter: ';', rowCount: 5, incomplete: false });
    expect(report.payouts.map(({ rows, ...payout }) => payout)).toEqual([
      { id: 'TR-0301', date: '2026-03-03', grossCents: 124500, feeCents: 518, netCents: 123982 },
      { id: 'TR-0302', date: '2026-03-04', grossCents: 6000, feeCents: 135, netCents: 5865 },
    ]);
    expect(report.payouts[1]!.rows.map((r) => [r.reference, r.netCents, r.line])).toEqual([
      ['351912345678', 2955, 4],
      ['351912345678', -3000, 5],
      ['555 000 111', 5910, 6],
    ]);
  });

  it('reads columns by index in a file without a header, and a fee printed negative the same', () => {
    const body = SAMPLE.split('\n')
      .slice(1)
      .join('\n')
      .replace(/;0,68;/, ';-0,68;');
    const byIndex = read(
      readProviderPayoutCsv(body, {
        payoutId: 6,
        date: 7,
        gross: 3,
        fee: 4,
        net: 5,
        reference: 1,
        headerLine: 0,
      }),
    );
    expect(withoutLines(byIndex)).toEqual(withoutLines(read(readProviderPayoutCsv(SAMPLE, MAPPING))));
  });

  it('takes gross and fee as optional: net alone, or net with one of them', () => {
    const netOnly = read(
      readProviderPayoutCsv(SAMPLE, {
        payoutId: 'Transferência',
        date: 'Data da transferência',
        net: 'Valor líquido',
      }),
    );
    expect(netOnly.payouts[0]).toMatchObject({ grossCents: 123982, feeCents: 0, netCents: 123982 });
    const withGross = read(readProviderPayoutCsv(SAMPLE, { ...MAPPING, fee: undefined }));
    expect(withGross.payouts[0]).toMatchObject({ grossCents: 124500, feeCents: 518, netCents: 123982 });
  });

  it('refuses a mapping without payout, date or net, or naming a column the header lacks', () => {
    expect(refusalOf(SAMPLE, { payoutId: 'Transferência', gross: 'Valor' })).toEqual({
      code: 'PROVIDER_CSV_MAPPING_INVALID',
      line: 1,
      extra: { missing: ['date', 'net'] },
    });
    expect(refusalOf(SAMPLE, { ...MAPPING, fee: 'Taxa', reference: 'Ref' })).toEqual({
      code: 'PROVIDER_CSV_MAPPING_INVALID',
      line: 1,
      extra: { notInHeader: ['fee', 'reference'] },
    });
  });

  it('refuses a report with only its header, a header line past the end, a quote never closed', () => {
    expect(refusalOf(`${SAMPLE.split('\n')[0]}\n`)).toEqual({ code: 'PROVIDER_CSV_EMPTY', line: 1 });
    expect(refusalOf(SAMPLE, { ...MAPPING, headerLine: 40 })).toMatchObject({
      code: 'PROVIDER_CSV_UNREADABLE',
      extra: { reason: 'NO_HEADER' },
    });
    expect(
      refusalOf(SAMPLE.replace('TR-0302;04-03-2026\n21234', 'TR-0302;"04-03-2026\n21234')),
    ).toMatchObject({
      code: 'PROVIDER_CSV_UNREADABLE',
      extra: { reason: 'UNTERMINATED_QUOTE' },
    });
  });

  it.each([
    ['an empty payout id', ';TR-0301;03-03-2026', ';;03-03-2026', 'payoutId', 'EMPTY'],
    [
      'a date that is none',
      'TR-0301;03-03-2026\n21234;987',
      'TR-0301;31-02-2026\n21234;987',
      'date',
      'NOT_A_DATE',
    ],
    ['an amount that is none', ';45,00;', ';45,0x;', 'gross', 'INVALID_AMOUNT'],
    ['a net that is not gross minus fee', ';44,32;', ';44,33;', 'net', 'NET_NOT_GROSS_MINUS_FEE'],
    [
      'two dates in one payout',
      '1.195,50;TR-0301;03-03-2026',
      '1.195,50;TR-0301;05-03-2026',
      'date',
      'DIFFERS_WITHIN_PAYOUT',
    ],
  ])('refuses %s, naming the line and column', (_name, from, to, column, reason) => {
    const text = SAMPLE.replace(from, to);
    expect(text).not.toBe(SAMPLE);
    expect(refusalOf(text)).toMatchObject({ code: 'PROVIDER_CSV_ROW_INVALID', extra: { column, reason } });
  });
});

interface Row {
  payout: number;
  gross: number;
  fee: number;
  day: number;
}

/** Portuguese decimals with thousands dots: 123456 → `1.234,56`. */
const pt = (cents: number) => {
  const [units, decimals] = centsToDecimal(cents).split('.');
  const sign = units!.startsWith('-') ? '-' : '';
  return `${sign}${units!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${decimals}`;
};

const generatedRow = fc.record({
  payout: fc.integer({ min: 0, max: 4 }),
  gross: fc.integer({ min: -500_000_00, max: 500_000_00 }),
  fee: fc.integer({ min: 0, max: 5_000_00 }),
  day: fc.integer({ min: 1, max: 28 }),
});

/** Each payout's date follows from its number, so the rows of one payout agree. */
function reportText(rows: readonly Row[], order: readonly number[]): string {
  const lines = order.map((k) => {
    const r = rows[k]!;
    const date = `${String((r.payout % 28) + 1).padStart(2, '0')}/03/2026`;
    return `${k};${pt(r.gross)};${pt(r.fee)};${pt(r.gross - r.fee)};P${r.payout};${date}`;
  });
  return `Ref;Bruto;Comissão;Líquido;Lote;Data\n${lines.join('\n')}\n`;
}

const GENERATED: ProviderCsvMapping = {
  reference: 'Ref',
  gross: 'Bruto',
  fee: 'Comissão',
  net: 'Líquido',
  payoutId: 'Lote',
  date: 'Data',
};

const withoutLines = (report: ProviderPayoutReport) =>
  report.payouts.map((p) => ({
    ...p,
    rows: p.rows
      .map(({ line, ...row }) => row)
      .sort((a, b) => (String(a.reference) < String(b.reference) ? -1 : 1)),
  }));

describe('collector reports, generated', () => {
  it('amounts are exact and any order of the rows gives the same payouts', () => {
    fc.assert(
      fc.property(
        fc
          .array(generatedRow, { minLength: 1, maxLength: 25 })
          .chain((rows) =>
            fc.tuple(fc.constant(rows), fc.shuffledSubarray([...rows.keys()], { minLength: rows.length })),
          ),
        ([rows, shuffled]) => {
          const inOrder = read(readProviderPayoutCsv(reportText(rows, [...rows.keys()]), GENERATED));
          const reordered = read(readProviderPayoutCsv(reportText(rows, shuffled), GENERATED));
          expect(withoutLines(reordered)).toEqual(withoutLines(inOrder));
          for (const payout of inOrder.payouts) {
            const mine = rows.filter((r) => `P${r.payout}` === payout.id);
            expect(payout.grossCents).toBe(mine.reduce((s, r) => s + r.gross, 0));
            expect(payout.feeCents).toBe(mine.reduce((s, r) => s + r.fee, 0));
            expect(payout.netCents).toBe(mine.reduce((s, r) => s + r.gross - r.fee, 0));
          }
        },
      ),
    );
  });

  it('a file cut anywhere is refused, or reads the rows before the cut, flagged incomplete', () => {
    fc.assert(
      fc.property(
        fc.array(generatedRow, { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, where) => {
          const full = reportText(rows, [...rows.keys()]);
          const cut = Math.floor(where * full.length);
          const result = readProviderPayoutCsv(full.slice(0, cut), GENERATED);
          if (!result.ok) return;
          const refs = result.value.payouts
            .flatMap((p) => p.rows.map((r) => Number(r.reference)))
            .sort((a, b) => a - b);
          expect(refs).toEqual([...rows.keys()].slice(0, refs.length));
          const endsMidLine = !/\n$/.test(full.slice(0, cut));
          expect(result.value.incomplete).toBe(endsMidLine);
          if (endsMidLine) expect(refs.length).toBeLessThan(rows.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
