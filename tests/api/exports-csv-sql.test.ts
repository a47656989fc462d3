import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvChunks, type ExportLocale } from '../../domain/export-files';
import type { Database } from '../../server/db/client';
import { SqlParams } from '../../server/db/list';
import { csvCopyCells, csvHead, type SqlCell, textCells } from '../../server/exports/csv-sql';
import { writeCsvCopy } from '../../server/exports/csv-stream';
import { testDatabaseKinds } from '../support/databases';
import { type AwkwardColumn, awkwardRowCount, createAwkwardTable } from './awkward-table';

// The CSV PostgreSQL's COPY writes for exports, finished by `CopyCsvReader` (decision 0090), read in
// keyset batches of 7 rows, against the domain's CSV writer, which
// the export tests and LibreOffice already hold to the specification: the same values must give the
// same bytes. The values are the awkward ones: separators, quotes, line breaks, formula starts, accents
// and emoji, negative and odd cents, Lisbon's clock changes, NULL and the empty string.

const TEXTS = [
  null,
  '',
  'plain',
  'a;b',
  'a,b',
  'say "hi"',
  'line\nbreak',
  'cr\rx',
  '=1+2',
  '+351',
  '-5',
  '@SUM(A1)',
  '\tTab',
  '\rCR',
  "'quoted",
  'Conceição ñ 😀',
  ' lead space ',
  '=a;b"c',
  '-',
];
const CENTS = [null, 0, 5, -5, 99, 100, 1250, -123_456, 2_147_483_647];
const INSTANTS = [
  null,
  '2026-03-29T00:59:59.999Z', // the last second of winter time
  '2026-03-29T01:00:00Z', // summer time from here: 02:00 in Lisbon
  '2025-10-26T00:30:00Z', // 01:30 summer time
  '2025-10-26T01:30:00Z', // 01:30 again, winter time
  '1969-12-31T23:59:59.500Z',
  '2024-02-29T12:00:00.123Z',
];
const BOOLEANS = [null, true, false];
const INTEGERS = [null, 0, -7, 2_147_483_647];
const DATES = [null, '2024-02-29', '1999-12-31'];

const PHONES = [null, '', '+351', '+351 912 345 678', '912345678', '=1+2', '+351 ', '-5', '+', '@x', '\tTab'];

const COLUMNS: AwkwardColumn[] = [
  { key: 'a', header: 'Texto "a"', kind: 'text', type: 'text', values: TEXTS },
  { key: 'b', header: '=Fórmula', kind: 'text', type: 'text', values: [...TEXTS].reverse() },
  { key: 'c', header: 'Preço', kind: 'cents', type: 'int', values: CENTS },
  { key: 'd', header: 'Quando', kind: 'datetime', type: 'timestamptz', values: INSTANTS },
  { key: 'e', header: 'Sim?', kind: 'boolean', type: 'boolean', values: BOOLEANS },
  { key: 'f', header: 'N.º', kind: 'integer', type: 'int', values: INTEGERS },
  { key: 'g', header: 'Dia', kind: 'date', type: 'date', values: DATES },
  { key: 'h', header: 'Plain', kind: 'text', type: 'text', values: ['x', 'Ana', 'Zé'] },
  // Phone numbers as written (no quote), and what is not one neutralised as text (decision 0128).
  { key: 'p', header: 'Telefone', kind: 'phone', type: 'text', values: PHONES },
];
const ROWS = awkwardRowCount(COLUMNS);

describe.each(testDatabaseKinds())('CSV exports through COPY on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
    await createAwkwardTable(db, COLUMNS);
  }, 120_000);
  afterAll(async () => db?.close());

  it.each<ExportLocale>(['pt-PT', 'en-GB'])(
    'equal the domain CSV writer byte for byte (%s)',
    async (locale) => {
      const cells: SqlCell[] = COLUMNS.map((c) => ({ sql: `t.${c.key}`, kind: c.kind }));
      const chunks: Uint8Array[] = [];
      const run = writeCsvCopy(
        db,
        {
          query: {
            select: csvCopyCells(cells, locale),
            from: 'FROM awkward t',
            where: [],
            params: new SqlParams(),
            sort: { sql: 't.n', type: 'int' },
            id: 't.n',
            idType: 'bigint',
            order: 'asc',
          },
          textCells: textCells(cells),
          locale,
        },
        csvHead(
          COLUMNS.map((c) => c.header),
          locale,
        ),
        7,
        async (chunk) => {
          chunks.push(Uint8Array.from(chunk));
        },
        () => undefined,
      );
      const written = await run.done;
      // The domain writer reads the values as the driver gives them; a date as its ISO text.
      const raw = await db.query<Record<string, unknown>>(
        `SELECT ${COLUMNS.map((c) => (c.kind === 'date' ? `to_char(${c.key}, 'YYYY-MM-DD') AS ${c.key}` : c.key)).join(', ')}
         FROM awkward ORDER BY n`,
      );
      let expected = '';
      const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      for await (const chunk of csvChunks(COLUMNS, raw.rows, { locale }))
        expected += decoder.decode(chunk, { stream: true });
      const actual = new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(chunks));
      expect(written).toBe(ROWS);
      expect(actual).toBe(expected);
      // The awkward values were really there: quoted cells, neutralised formulas, both clocks.
      expect(actual).toContain('"say ""hi"""');
      expect(actual).toContain("'=1+2");
      expect(actual).toContain('2026-03-29 00:59:59');
      expect(actual).toContain('2026-03-29 02:00:00');
    },
  );
});
