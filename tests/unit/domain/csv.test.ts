import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvStatement } from '../../../domain/statements/csv';
import { csvRows, readCsvRows } from '../../../domain/statements/csv-rows';
import { parseStatement } from '../../../domain/statements/detect';
import { BANKING, sample } from './shared-fixtures';

const rows = (text: string) => parseCsvStatement(text).entries.map((e) => [e.lineNumber, e.description]);

describe('CSV tokenising (papaparse)', () => {
  it('reads quoted fields holding line breaks, the separator and doubled quotes, and keeps line numbers', () => {
    const text =
      'Data;Descrição;Valor\n' +
      '05-05-2026;"TRF CR SEPA+\nDE ""CLÍNICA SORRISO""; LDA";10,00\n' +
      '06-05-2026;"linha 1\r\nlinha 2\rlinha 3";-2,50\n' +
      '07-05-2026;simples;1,00\n';
    const r = parseCsvStatement(text);
    expect(r.errors).toEqual([]);
    expect(r.entries.map((e) => [e.lineNumber, e.description, e.amountCents])).toEqual([
      [2, 'TRF CR SEPA+ DE "CLÍNICA SORRISO"; LDA', 1000],
      [4, 'linha 1 linha 2 linha 3', -250],
      [7, 'simples', 100],
    ]);
    expect(csvRows('a;"b\nc";d\ne;f', ';')).toEqual({
      rows: [
        ['a', 'b\nc', 'd'],
        ['e', 'f'],
      ],
      lines: [1, 3],
      unterminated: [],
      stoppedAt: null,
    });
  });

  it('detects `;` and `,` (and tab) even when quoted cells hold the other separators', () => {
    const semi = 'Data;Descrição;Valor\n05-05-2026;"a, b, c";1,50\n06-05-2026;"d, e";2,50\n';
    const comma = 'Date,Description,Amount\n05/05/2026,"a; b; c",1.50\n06/05/2026,"d; e","2.50"\n';
    expect(parseCsvStatement(semi).entries.map((e) => [e.description, e.amountCents])).toEqual([
      ['a, b, c', 150],
      ['d, e', 250],
    ]);
    expect(parseCsvStatement(comma).entries.map((e) => [e.description, e.amountCents])).toEqual([
      ['a; b; c', 150],
      ['d; e', 250],
    ]);
    const tab = 'Data\tDescrição\tValor\n05-05-2026\t"x;y,z"\t1,00\n';
    expect(parseCsvStatement(tab).entries[0]).toMatchObject({ description: 'x;y,z', amountCents: 100 });
  });

  it('drops a UTF-8 BOM, as text or as bytes', () => {
    const text = '\uFEFFData;Descrição;Valor\n05-05-2026;TRF;1,00\n';
    expect(parseCsvStatement(text).entries).toHaveLength(1);
    const bytes = new TextEncoder().encode(text);
    expect(bytes.slice(0, 3)).toEqual(Uint8Array.of(0xef, 0xbb, 0xbf));
    expect(parseStatement(bytes).entries.map((e) => [e.lineNumber, e.amountCents])).toEqual([[2, 100]]);
  });

  it('counts CRLF, CR and LF line ends alike, mixed in one file', () => {
    const text = 'Data;Descrição;Valor\r\n05-05-2026;a;1,00\r06-05-2026;b;x\n07-05-2026;c;3,00\r\n';
    const r = parseCsvStatement(text);
    expect(r.entries.map((e) => [e.lineNumber, e.description])).toEqual([
      [2, 'a'],
      [4, 'c'],
    ]);
    expect(r.errors).toEqual([{ line: 3, code: 'INVALID_AMOUNT' }]);
  });

  it('costs one row for a quote that never closes, and reads on from the next line', () => {
    const text =
      'Data;Descrição;Valor\n05-05-2026;a;1,00\n06-05-2026;"nunca fecha;2,00\n07-05-2026;c;3,00\n08-05-2026;d;4,00\n';
    const r = parseCsvStatement(text);
    expect(r.entries.map((e) => [e.lineNumber, e.amountCents])).toEqual([
      [2, 100],
      [4, 300],
      [5, 400],
    ]);
    expect(r.errors).toEqual([{ line: 3, code: 'UNTERMINATED_QUOTE' }]);
  });

  it('keeps quotes inside an unquoted cell as text, and reads a malformed closing quote leniently', () => {
    expect(rows('Data;Descrição;Valor\n05-05-2026;TRF "X" LDA;1,00\n')).toEqual([[2, 'TRF "X" LDA']]);
    expect(rows('Data;Descrição;Valor\n05-05-2026;"TRF "X" LDA";1,00\n')).toEqual([[2, 'TRF "X" LDA']]);
  });

  it('still parses every shared sample and the project CSV fixture', () => {
    const statements = ['camt053.v2.minimal.xml', 'mt940.sta', 'sepa_snippet.sta'];
    statements.push('synthetic-statement-pt.camt.053.001.02.xml');
    const names = readdirSync(`${BANKING}samples`, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(`${BANKING}samples`, path.join(d.parentPath, d.name)));
    expect(names.length).toBeGreaterThanOrEqual(statements.length);
    for (const name of names) {
      const r = parseStatement(sample(name));
      if (statements.includes(name)) expect(r.entries.length, name).toBeGreaterThan(0);
      else expect(r.entries, name).toEqual([]); // pain.001 / pain.002 files: not statements
    }
    const fixture = fileURLToPath(
      new URL('../../fixtures/statements/cgd-windows-1252-c1.csv', import.meta.url),
    );
    expect(parseStatement(new Uint8Array(readFileSync(fixture))).entries).toHaveLength(2);
  });
});

describe('CSV properties', () => {
  it('never throws, whatever the text', () => {
    const csvish = fc
      .array(
        fc.constantFrom(
          'Data;Valor;Descrição\n',
          '05-05-2026',
          ';',
          ',',
          '\t',
          '"',
          '""',
          '\n',
          '\r\n',
          '\r',
        ),
        { maxLength: 40 },
      )
      .map((p) => p.join(''));
    const withText = fc.tuple(csvish, fc.string(), csvish).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(csvish, withText, fc.string({ unit: 'binary' })), (text) => {
        const r = parseCsvStatement(text);
        const lineCount = text.split(/\r\n|\n|\r/).length;
        for (const e of [...r.entries.map((x) => x.lineNumber), ...r.errors.map((x) => x.line)]) {
          expect(e).toBeGreaterThanOrEqual(1);
          expect(e).toBeLessThanOrEqual(lineCount);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports each entry and each error at the source line its row starts on, counting quoted line breaks', () => {
    const piece = fc.constantFrom('TRF', ' ', ';', ',', '"', '\n', '\r\n', '\r', 'ç');
    const row = fc.record({
      kind: fc.constantFrom('ok', 'ok', 'badDate', 'badAmount'),
      description: fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
      end: fc.constantFrom('\n', '\r\n', '\r'),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (list) => {
        const body = [...list, { kind: 'ok', description: 'fim', end: '\n' }];
        let text = 'Data;Descrição;Valor\r\n';
        const expectedEntries: number[] = [];
        const expectedErrors: { line: number; code: string }[] = [];
        for (const r of body) {
          const line = text.split(/\r\n|\n|\r/).length;
          const date = r.kind === 'badDate' ? '31-02-2026' : '05-05-2026';
          const amount = r.kind === 'badAmount' ? 'abc' : '1,00';
          text += `${date};"${r.description.replace(/"/g, '""')}";${amount}${r.end}`;
          if (r.kind === 'ok') expectedEntries.push(line);
          else expectedErrors.push({ line, code: r.kind === 'badDate' ? 'INVALID_DATE' : 'INVALID_AMOUNT' });
        }
        const parsed = parseCsvStatement(text);
        expect(parsed.entries.map((e) => e.lineNumber)).toEqual(expectedEntries);
        expect(parsed.errors).toEqual(expectedErrors);
      }),
      { numRuns: 500 },
    );
  });

  it('reads the same rows, lines and unterminated quotes whatever the slice size', () => {
    const text = fc
      .array(fc.constantFrom('a', 'bb', ';', '"', '""', '\n', '\r\n', '\r', ' '), { maxLength: 60 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), (t, chunk) => {
        const whole = csvRows(t, ';');
        const rows: string[][] = [];
        const lines: number[] = [];
        const summary = readCsvRows(
          t,
          ';',
          (cells, line) => {
            rows.push(cells);
            lines.push(line);
          },
          chunk,
        );
        expect({ rows, lines, ...summary }).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });
});
