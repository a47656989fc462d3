import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvChunks, type ExportColumn, ExportValueError, neutralise } from '../../../domain/export-files';
import { lisbonDateTime } from '../../../domain/export-files/lisbon-time';

async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const BOM = [0xef, 0xbb, 0xbf];
async function csvText(...args: Parameters<typeof csvChunks>): Promise<string> {
  const bytes = await bytesOf(csvChunks(...args));
  expect([...bytes.slice(0, 3)]).toEqual(BOM);
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.slice(3));
}

const COLUMNS: ExportColumn[] = [
  { key: 'name', header: 'Nome', kind: 'text' },
  { key: 'n', header: 'Consultas', kind: 'integer' },
  { key: 'amount', header: 'Valor (€)', kind: 'cents' },
  { key: 'day', header: 'Data', kind: 'date' },
  { key: 'at', header: 'Criado em', kind: 'datetime' },
  { key: 'active', header: 'Ativo', kind: 'boolean' },
];

const ROW = {
  name: 'Conceição Gonçalves',
  n: 3,
  amount: -1250,
  day: '2025-03-30',
  at: new Date('2025-07-01T12:34:56.789Z'),
  active: true,
};

describe('CSV writer', () => {
  it('pt-PT: BOM, `;`, decimal comma, Lisbon time, words for booleans, CRLF', async () => {
    const text = await csvText(
      COLUMNS,
      [ROW, { name: null, amount: 5, day: new Date('2025-01-01T00:30:00Z') }],
      {
        locale: 'pt-PT',
      },
    );
    expect(text).toBe(
      'Nome;Consultas;Valor (€);Data;Criado em;Ativo\r\n' +
        // negative money is typed, not neutralised; summer time is UTC+1 in Lisbon
        'Conceição Gonçalves;3;-12,50;2025-03-30;2025-07-01 13:34:56;Sim\r\n' +
        ';;0,05;2025-01-01;;\r\n',
    );
  });

  it('en-GB: `,` and decimal point, winter time is UTC', async () => {
    const text = await csvText(
      COLUMNS,
      [{ ...ROW, amount: 123456789, at: '2025-01-15T09:00:00Z', active: false }],
      { locale: 'en-GB' },
    );
    expect(text.split('\r\n')[1]).toBe('Conceição Gonçalves,3,1234567.89,2025-03-30,2025-01-15 09:00:00,No');
  });

  it('quotes fields with the separator, quotes, CR or LF (RFC 4180), only for that locale’s separator', async () => {
    const cols: ExportColumn[] = [{ key: 't', header: 'T', kind: 'text' }];
    const rows = ['a;b', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'plain'].map((t) => ({ t }));
    expect(await csvText(cols, rows, { locale: 'pt-PT' })).toBe(
      'T\r\n"a;b"\r\na,b\r\n"say ""hi"""\r\n"two\nlines"\r\n"cr\rhere"\r\nplain\r\n',
    );
    expect(await csvText(cols, rows, { locale: 'en-GB' })).toBe(
      'T\r\na;b\r\n"a,b"\r\n"say ""hi"""\r\n"two\nlines"\r\n"cr\rhere"\r\nplain\r\n',
    );
  });

  it('neutralises text that a spreadsheet would run, and quotes it when needed', async () => {
    const cols: ExportColumn[] = [{ key: 't', header: '=HEADER()', kind: 'text' }];
    const rows = [
      '=SUM(A1)',
      '+351 912 345 678',
      '-2+3',
      '@cmd',
      '\tTAB',
      '\rCR',
      '=HYPERLINK("http://x";"y")',
      'a=b',
      "'already",
    ].map((t) => ({ t }));
    const lines = (await csvText(cols, rows, { locale: 'pt-PT' })).split('\r\n');
    expect(lines.slice(0, 6)).toEqual([
      "'=HEADER()",
      "'=SUM(A1)",
      "'+351 912 345 678",
      "'-2+3",
      "'@cmd",
      "'\tTAB",
    ]);
    // CR inside forces quoting; the neutralised value keeps its quote inside the quoted field
    expect(lines[6]).toBe(`"'\rCR"`);
    expect(lines[7]).toBe(`"'=HYPERLINK(""http://x"";""y"")"`);
    expect(lines.slice(8)).toEqual(['a=b', "'already", '']);
  });

  it('writes an empty CSV as the BOM and the header', async () => {
    expect(await csvText(COLUMNS.slice(0, 2), [], { locale: 'en-GB' })).toBe('Nome,Consultas\r\n');
  });

  it('reads async rows lazily and yields ~64 KiB chunks', async () => {
    let produced = 0;
    async function* rows() {
      for (let i = 0; i < 20_000; i++) {
        produced++;
        yield { name: `Utilizador ${i}`, n: i, amount: 2500, day: '2025-01-02', at: 0, active: i % 2 === 0 };
      }
    }
    const it = csvChunks(COLUMNS, rows(), { locale: 'pt-PT' });
    const first = await it.next();
    expect(first.done).toBe(false);
    expect((first.value as Uint8Array).length).toBeGreaterThanOrEqual(64 * 1024);
    expect((first.value as Uint8Array).length).toBeLessThan(66 * 1024);
    expect(produced).toBeLessThan(2_000); // not the whole input
    let sizes = 0;
    let count = 1;
    for await (const c of it) {
      sizes += c.length;
      count++;
    }
    expect(produced).toBe(20_000);
    expect(count).toBeGreaterThan(10);
    expect(sizes).toBeGreaterThan(0);
  });

  it('refuses values a column cannot hold, naming the column and row', async () => {
    const bad = [
      [{ key: 'x', header: 'X', kind: 'cents' }, 1, 12.5],
      [{ key: 'x', header: 'X', kind: 'integer' }, 1, '12'],
      [{ key: 'x', header: 'X', kind: 'date' }, '2025-02-28', '2025-02-30'],
      [{ key: 'x', header: 'X', kind: 'datetime' }, 0, '2025-02-03 10:00'], // no offset: ambiguous
      [{ key: 'x', header: 'X', kind: 'boolean' }, false, 'yes'],
    ] as const;
    for (const [col, ok, x] of bad) {
      const err = await csvText([col as ExportColumn], [{ x: ok }, { x }], { locale: 'pt-PT' }).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(ExportValueError);
      expect(err).toMatchObject({ column: 'x', row: 2 });
    }
  });

  it('keeps big integers and bigints exact', async () => {
    const text = await csvText([{ key: 'x', header: 'X', kind: 'integer' }], [{ x: 2n ** 63n }, { x: -42 }], {
      locale: 'en-GB',
    });
    expect(text).toBe('X\r\n9223372036854775808\r\n-42\r\n');
  });

  it('formats Lisbon wall-clock time across both DST changes', () => {
    // 2025-03-30 01:00 UTC: 01:00 WET → 02:00 WEST; 2025-10-26 01:00 UTC: 02:00 WEST → 01:00 WET
    expect(lisbonDateTime(Date.parse('2025-03-30T00:59:59Z'))).toBe('2025-03-30 00:59:59');
    expect(lisbonDateTime(Date.parse('2025-03-30T01:00:00Z'))).toBe('2025-03-30 02:00:00');
    expect(lisbonDateTime(Date.parse('2025-10-26T00:59:59Z'))).toBe('2025-10-26 01:59:59');
    expect(lisbonDateTime(Date.parse('2025-10-26T01:00:00Z'))).toBe('2025-10-26 01:00:00');
    expect(lisbonDateTime(Date.parse('2025-12-31T23:59:59.999Z'))).toBe('2025-12-31 23:59:59');
  });

  it('agrees with Intl for arbitrary instants (the per-hour offset cache is exact)', () => {
    const intl = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Lisbon',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
        expect(lisbonDateTime(ms)).toBe(intl.format(ms));
      }),
      { numRuns: 2_000 },
    );
  });

  // Text as users type it, with every character the format treats specially mixed in.
  const cellText = fc.string({
    unit: fc.oneof(
      fc.constantFrom(';', ',', '"', '\r', '\n', '\t', '=', '+', '-', '@', "'", ' ', 'ç', 'É', '€', '😀'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 30,
  });

  for (const [locale, delimiter] of [
    ['pt-PT', ';'],
    ['en-GB', ','],
  ] as const) {
    it(`round-trips arbitrary text through papaparse (${locale}, "${delimiter}")`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(cellText, { minLength: 3, maxLength: 3 }), { maxLength: 20 }),
          async (rows) => {
            const cols: ExportColumn[] = ['a', 'b', 'c'].map((key) => ({
              key,
              header: key.toUpperCase(),
              kind: 'text',
            }));
            const text = await csvText(
              cols,
              rows.map(([a, b, c]) => ({ a, b, c })),
              { locale, chunkChars: 64 },
            );
            const parsed = Papa.parse<string[]>(text, { delimiter, newline: '\r\n', quoteChar: '"' });
            expect(parsed.errors).toEqual([]);
            // the file ends with CRLF, which papaparse reads as one last empty line
            expect(parsed.data.at(-1)).toEqual(['']);
            expect(parsed.data.slice(0, -1)).toEqual([
              ['A', 'B', 'C'],
              ...rows.map((r) => r.map(neutralise)),
            ]);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
