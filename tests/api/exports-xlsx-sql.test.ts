import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportRow, xlsxChunks } from '../../domain/export-files';
import type { Database } from '../../server/db/client';
import { SqlParams } from '../../server/db/list';
import { writeXlsxCopy } from '../../server/exports/xlsx-stream';
import { testDatabaseKinds } from '../support/databases';
import { type AwkwardColumn, awkwardRowCount, createAwkwardTable } from './awkward-table';

// The sheet PostgreSQL builds for XLSX exports (decision 0105), read through COPY in keyset batches of 7
// rows and deflated by zlib, against the domain's XLSX writer, which the export tests and LibreOffice
// already hold to the specification: the same values must give the same sheet XML, byte for byte. The
// values are the awkward ones: XML's specials, quotes, characters XML forbids, Excel's `_xHHHH_`,
// white space at either end, formula starts, accents and emoji, text past Excel's 32,767 UTF-16 units
// (an emoji at the cut), integers past 15 digits, odd and negative cents, Lisbon's clock changes,
// dates Excel cannot show, NULL and the empty string.

const LONG = `=${'x'.repeat(32_764)}😀tail`; // neutralised, the emoji straddles the cut
const TEXTS = [
  null,
  '',
  'plain',
  'a < b & c > d',
  'say "hi" it\'s',
  'line\nbreak',
  'cr\rx',
  'ctrl\u0001\u000b\u001f\uFFFEgone',
  '\u0001=after a control',
  '_x0041_ stays',
  '=1+2',
  '+351',
  '-5',
  '@SUM(A1)',
  '\tTab',
  '\rCR',
  ' lead space',
  'trail space ',
  'trail tab\t',
  'mid\ttab',
  'a|b',
  'a| b',
  'Conceição ñ 😀',
  LONG,
  'x'.repeat(20_000),
];
const CENTS = [null, 0, 5, -5, 99, 100, 1250, 1200, 30, -123_456, 2_147_483_647];
const INSTANTS = [
  null,
  '2026-03-29T00:59:59.999Z', // the last second of winter time
  '2026-03-29T01:00:00Z', // summer time from here: 02:00 in Lisbon
  '2025-10-26T00:30:00Z', // 01:30 summer time
  '2025-10-26T01:30:00Z', // 01:30 again, winter time
  '1969-12-31T23:59:59.500Z',
  '2024-02-29T12:00:00.123Z',
  '1890-05-01T10:00:00Z', // before Excel's first safe serial: an ISO date as text
];
const BOOLEANS = [null, true, false];
const INTEGERS = [
  null,
  0,
  -7,
  2_147_483_647,
  999_999_999_999_999,
  1_000_000_000_000_000,
  -1_000_000_000_000_000,
];
const DATES = [null, '2024-02-29', '1999-12-31', '1900-03-01', '1900-02-28'];

const PHONES = [null, '', '+351', '+351 912 345 678', '912345678', '=1+2', '+351 ', '-5', '+', '@x', '\tTab'];

const COLUMNS: AwkwardColumn[] = [
  { key: 'a', header: 'Texto "a" & <b>', kind: 'text', type: 'text', values: TEXTS },
  { key: 'b', header: '=Fórmula', kind: 'text', type: 'text', values: [...TEXTS].reverse() },
  { key: 'c', header: 'Preço', kind: 'cents', type: 'int', values: CENTS },
  { key: 'd', header: 'Quando', kind: 'datetime', type: 'timestamptz', values: INSTANTS },
  { key: 'e', header: 'Sim?', kind: 'boolean', type: 'boolean', values: BOOLEANS },
  { key: 'f', header: 'N.º', kind: 'integer', type: 'bigint', values: INTEGERS },
  { key: 'g', header: 'Dia', kind: 'date', type: 'date', values: DATES },
  { key: 'h', header: 'Plain', kind: 'text', type: 'text', values: ['x', 'Ana', 'Zé'] },
  // Phone numbers as written (no quote), and what is not one neutralised as text (decision 0128).
  { key: 'p', header: 'Telefone', kind: 'phone', type: 'text', values: PHONES },
];
const ROWS = awkwardRowCount(COLUMNS);

async function domainSheet(rows: ExportRow[]): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of xlsxChunks(COLUMNS, rows, { locale: 'pt-PT', sheetName: 'Awkward' }))
    chunks.push(chunk);
  return strFromU8(unzipSync(Buffer.concat(chunks))['xl/worksheets/sheet1.xml']!);
}

describe.each(testDatabaseKinds())('XLSX sheets built by PostgreSQL on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
    await createAwkwardTable(db, COLUMNS);
  }, 120_000);
  afterAll(async () => db?.close());

  it('equal the domain XLSX writer byte for byte, and the package unzips', async () => {
    // The domain writer reads the values as the driver gives them; a date as its ISO text.
    const raw = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS.map((c) => (c.kind === 'date' ? `to_char(${c.key}, 'YYYY-MM-DD') AS ${c.key}` : c.key)).join(', ')}
         FROM awkward ORDER BY n`,
    );
    const chunks: Uint8Array[] = [];
    const run = writeXlsxCopy(
      db,
      {
        keyset: {
          from: 'FROM awkward t',
          where: [],
          params: new SqlParams(),
          sort: { sql: 't.n', type: 'int' },
          id: 't.n',
          idType: 'bigint',
          order: 'asc',
        },
        cells: COLUMNS.map((c) => ({ sql: `t.${c.key}`, kind: c.kind })),
      },
      { columns: COLUMNS, sheetName: 'Awkward', sample: async () => raw.rows.slice(0, 100) },
      7,
      async (chunk) => {
        chunks.push(Uint8Array.from(chunk));
      },
      () => undefined,
    );
    expect(await run.done).toBe(ROWS);
    const parts = unzipSync(Buffer.concat(chunks));
    expect(Object.keys(parts).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const actual = strFromU8(parts['xl/worksheets/sheet1.xml']!);
    expect(actual).toBe(await domainSheet(raw.rows));
    // The awkward values were really there: escaped, dropped, neutralised, preserved, clipped, typed.
    expect(actual).toContain('<t>a &lt; b &amp; c &gt; d</t>');
    expect(actual).toContain('<t>ctrlgone</t>');
    expect(actual).toContain(`<t>'=after a control</t>`);
    expect(actual).toContain('<t>_x005F_x0041_ stays</t>');
    expect(actual).toContain('<t xml:space="preserve">trail space </t>');
    expect(actual).toContain('cr&#13;x');
    expect(actual).toContain(`<t>'=${'x'.repeat(100)}`);
    expect(actual).not.toContain('😀tail');
    expect(actual).toContain('<t>1000000000000000</t>');
    expect(actual).toContain('<v>12.5</v>');
    expect(actual).toContain('<t>1890-05-01</t>');
  });
});
