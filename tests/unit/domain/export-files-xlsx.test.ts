import { strFromU8, unzipSync } from 'fflate';
import { XmlDocument } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import {
  type ExportColumn,
  type ExportRow,
  safeSheetName,
  XlsxLimitError,
  xlsxChunks,
} from '../../../domain/export-files';
import { gzipHeaderLength } from '../../../domain/export-files/xlsx';

async function xlsx(
  columns: ExportColumn[],
  rows: Iterable<ExportRow> | AsyncIterable<ExportRow>,
  sheetName = 'Utilizadores',
  deflate: 'native' | 'fflate' = 'native',
) {
  const parts: Uint8Array[] = [];
  for await (const c of xlsxChunks(columns, rows, { sheetName, locale: 'pt-PT', deflate })) parts.push(c);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const files = unzipSync(bytes);
  return { bytes, chunks: parts.length, files, text: (name: string) => strFromU8(files[name]!) };
}

function assertWellFormed(xml: string): void {
  const doc = XmlDocument.fromString(xml); // throws on any well-formedness error
  doc.dispose();
}

const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

type Cell = { style?: string; type?: string; value: string };
/** The sheet's cells by reference (the writer's own shape: r, then s, then t). */
function cells(sheet: string): Map<string, Cell> {
  const out = new Map<string, Cell>();
  for (const m of sheet.matchAll(/<c r="([A-Z]+\d+)"(?: s="(\d+)")?(?: t="(\w+)")?>(.*?)<\/c>/gs)) {
    const inner = m[4]!;
    const v =
      /^<v>(.*)<\/v>$/.exec(inner) ?? /^<is><t(?: xml:space="preserve")?>(.*)<\/t><\/is>$/s.exec(inner);
    out.set(m[1]!, { style: m[2], type: m[3], value: decode(v![1]!) });
  }
  return out;
}

const COLUMNS: ExportColumn[] = [
  { key: 'name', header: 'Nome', kind: 'text' },
  { key: 'n', header: 'Consultas', kind: 'integer' },
  { key: 'amount', header: 'Valor (€)', kind: 'cents' },
  { key: 'day', header: 'Data', kind: 'date' },
  { key: 'at', header: 'Criado em', kind: 'datetime' },
  { key: 'active', header: 'Ativo', kind: 'boolean' },
];

describe('XLSX writer', () => {
  it('writes the minimal package, every part well-formed XML', async () => {
    const { files, text } = await xlsx(COLUMNS, [{ name: 'Ana', n: 1, amount: 1250 }]);
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    for (const name of Object.keys(files)) assertWellFormed(text(name));
    expect(text('xl/workbook.xml')).toContain('<sheet name="Utilizadores" sheetId="1" r:id="rId1"/>');
    const styles = text('xl/styles.xml');
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="#,##0.00"/>');
    expect(styles).toContain('<numFmt numFmtId="165" formatCode="yyyy-mm-dd"/>');
    // cellXfs: 0 default, 1 money (164), 2 date (165), 3 datetime (166), 4 bold header
    expect(/<cellXfs count="5">(.*)<\/cellXfs>/.exec(styles)![1]!.match(/numFmtId="(\d+)"/g)).toEqual([
      'numFmtId="0"',
      'numFmtId="164"',
      'numFmtId="165"',
      'numFmtId="166"',
      'numFmtId="0"',
    ]);
  });

  it('writes typed cells: exact money, Excel serials with date styles, booleans, inline strings', async () => {
    const { text } = await xlsx(COLUMNS, [
      {
        name: 'Conceição & Filhos <Lda>',
        n: 42,
        amount: 1250,
        day: '2025-03-30',
        at: new Date('2025-07-01T12:00:00Z'), // 13:00 in Lisbon
        active: true,
      },
      { name: null, amount: 30, day: '1900-03-01', at: '2025-01-15T06:00:00+00:00', active: false },
      { amount: -5 },
      { amount: 1200 },
      { amount: 9_007_199_254_740_991 },
    ]);
    const sheet = text('xl/worksheets/sheet1.xml');
    const c = cells(sheet);
    expect(c.get('A1')).toEqual({ style: '4', type: 'inlineStr', value: 'Nome' });
    expect(c.get('A2')).toEqual({ style: undefined, type: 'inlineStr', value: 'Conceição & Filhos <Lda>' });
    expect(c.get('B2')).toEqual({ style: undefined, type: undefined, value: '42' });
    expect(c.get('C2')).toEqual({ style: '1', type: undefined, value: '12.5' });
    expect(c.get('C3')!.value).toBe('0.3'); // not 0.30000000000000004
    expect(c.get('C4')!.value).toBe('-0.05');
    expect(c.get('C5')!.value).toBe('12');
    expect(c.get('C6')!.value).toBe('90071992547409.91');
    expect(c.get('D2')).toEqual({ style: '2', type: undefined, value: '45746' }); // 2025-03-30
    expect(c.get('D3')!.value).toBe('61'); // 1900-03-01, the first serial without the leap-year bug
    expect(c.get('E2')).toEqual({ style: '3', type: undefined, value: String(45839 + 13 / 24) });
    expect(c.get('E3')!.value).toBe(String(45672 + 6 / 24));
    expect(c.get('F2')).toEqual({ style: undefined, type: 'b', value: '1' });
    expect(c.get('F3')).toEqual({ style: undefined, type: 'b', value: '0' });
    expect(c.has('A3')).toBe(false); // empty cells are left out
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toMatch(/<col min="1" max="1" width="\d+" customWidth="1"\/>/);
  });

  it('neutralises formulas, drops characters illegal in XML (before neutralising) and keeps the rest', async () => {
    const columns: ExportColumn[] = [{ key: 't', header: '=Cabeçalho', kind: 'text' }];
    const { text } = await xlsx(
      columns,
      [
        '=SUM(A1)',
        '\u0001=cmd|calc', // a control character cannot hide the formula
        'bell\u0007 and \u000b vt, \uffff, lone \ud800 surrogate, pair 😀',
        '  spaces kept  ',
        'line\r\nbreaks',
        '_x0041_ stays literal',
        '-12,50',
        '@user',
        'x'.repeat(40_000),
      ].map((t) => ({ t })),
    );
    const sheet = text('xl/worksheets/sheet1.xml');
    assertWellFormed(sheet);
    const c = cells(sheet);
    expect(c.get('A1')!.value).toBe("'=Cabeçalho");
    expect(c.get('A2')!.value).toBe("'=SUM(A1)");
    expect(c.get('A3')!.value).toBe("'=cmd|calc");
    expect(c.get('A4')!.value).toBe('bell and  vt, , lone  surrogate, pair 😀');
    expect(c.get('A5')!.value).toBe('  spaces kept  ');
    expect(sheet).toContain('<t xml:space="preserve">  spaces kept  </t>');
    expect(c.get('A6')!.value).toBe('line\r\nbreaks');
    expect(sheet).toContain('line&#13;\nbreaks');
    expect(c.get('A7')!.value).toBe('_x005F_x0041_ stays literal');
    expect(c.get('A8')!.value).toBe("'-12,50");
    expect(c.get('A9')!.value).toBe("'@user");
    expect(c.get('A10')!.value).toHaveLength(32_767);
  });

  it('cleans the sheet name to what Excel accepts', () => {
    expect(safeSheetName('Liquidações [2025/06]: médicos?')).toBe('Liquidações  2025 06   médicos');
    expect(safeSheetName("'quoted'")).toBe('quoted');
    expect(safeSheetName('')).toBe('Sheet1');
    expect(safeSheetName('History')).toBe('Sheet1');
    expect(Array.from(safeSheetName('é'.repeat(40)))).toHaveLength(31);
  });

  it('streams: chunks come out while rows are still being read, from a sync or async source', async () => {
    let produced = 0;
    async function* rows() {
      for (let i = 0; i < 30_000; i++) {
        produced++;
        yield {
          name: `Utilizador ${i} <u${i}@exemplo.pt>`,
          n: i,
          amount: 2500 + (i % 7) * 500,
          day: '2025-01-02',
        };
      }
    }
    const it = xlsxChunks(COLUMNS, rows(), { sheetName: 'S', locale: 'en-GB' });
    let seenBeforeEnd = 0;
    for await (const _ of it) if (produced < 30_000) seenBeforeEnd++;
    expect(seenBeforeEnd).toBeGreaterThan(3);

    const sync = await xlsx(
      COLUMNS,
      Array.from({ length: 500 }, (_, i) => ({ n: i })),
    );
    const c = cells(sync.text('xl/worksheets/sheet1.xml'));
    expect(c.get('B501')!.value).toBe('499');
  });

  it('deflates natively (CompressionStream) or with fflate to the same content', async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      name: `Nº ${i} çã`,
      n: i,
      amount: i * 5,
      active: i % 2 === 0,
    }));
    const native = await xlsx(COLUMNS, rows, 'S', 'native');
    const js = await xlsx(COLUMNS, rows, 'S', 'fflate');
    expect(Object.keys(native.files)).toEqual(Object.keys(js.files));
    for (const name of Object.keys(native.files)) expect(native.text(name)).toBe(js.text(name));
  });

  it('skips any gzip header CompressionStream may write (RFC 1952 optional fields)', () => {
    const base = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
    expect(gzipHeaderLength(new Uint8Array(base))).toBe(10);
    expect(gzipHeaderLength(new Uint8Array(base.slice(0, 9)))).toBeNull();
    const named = [
      0x1f,
      0x8b,
      8,
      0x08 | 0x04 | 0x02,
      0,
      0,
      0,
      0,
      0,
      3,
      2,
      0,
      9,
      9,
      0x61,
      0x62,
      0,
      7,
      7,
      0xaa,
    ];
    expect(gzipHeaderLength(new Uint8Array(named))).toBe(19);
    expect(gzipHeaderLength(new Uint8Array(named.slice(0, 15)))).toBeNull();
    expect(() => gzipHeaderLength(new Uint8Array(10))).toThrow();
  });

  it('gives the same bytes for the same rows', async () => {
    const rows = [{ name: 'Ana', amount: 100 }];
    const a = await xlsx(COLUMNS, rows);
    const b = await xlsx(COLUMNS, rows);
    expect(a.bytes).toEqual(b.bytes);
  });

  it('stops with XlsxLimitError past Excel’s row limit', async () => {
    function* rows() {
      for (let i = 0; i < 1_048_576; i++) yield { n: 1 };
    }
    const err = await xlsx([{ key: 'n', header: 'N', kind: 'integer' }], rows()).catch((e) => e);
    expect(err).toBeInstanceOf(XlsxLimitError);
    expect(err.code).toBe('XLSX_TOO_MANY_ROWS');
  }, 60_000);
});
