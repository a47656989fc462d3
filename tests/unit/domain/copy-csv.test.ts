import { describe, expect, it } from 'vitest';
import { CopyCsvReader } from '../../../domain/export-files';

// COPY's CSV output (what PostgreSQL writes: NULL empty, '' as "", quoted when a value holds the
// separator, a quote, CR or LF) → the export's lines. The byte-for-byte equality with the domain CSV
// writer on real databases is tests/api/exports-csv-sql.test.ts; here: the pieces COPY's output may
// arrive in (pg hands over a row at a time, but a reader must not care where a piece ends).

const COPIED = [
  '=1+2;"a;b";;"";12,50;Sim;2024-01-01 10:00:00+00;id-1\n',
  '"say ""hi""";"=x;y";"";-5;-0,05;;2024-01-01 10:00:01+00;id-2\n',
  '"line\nbreak";"\r=cr";@SUM;"""q";0,00;Não;"2024-01-01 ""10;00""";id-3\n',
].join('');
const EXPECTED = [
  '\'=1+2;"a;b";;;12,50;Sim\r\n',
  '"say ""hi""";"\'=x;y";;\'-5;-0,05;\r\n',
  '"line\nbreak";"\'\r=cr";\'@SUM;"""q";0,00;Não\r\n',
].join('');
// Four text cells, then money and a boolean (not neutralised); then the key (a text key may be quoted).
const TEXT = [true, true, true, true, false, false];

const read = (pieces: Uint8Array[]) => {
  const reader = new CopyCsvReader(TEXT, ';');
  for (const piece of pieces) reader.push(piece);
  return reader.take();
};

describe('CopyCsvReader', () => {
  const bytes = new TextEncoder().encode(COPIED);

  it('neutralises text cells, writes the empty string empty, ends lines in CRLF and keeps the last key', () => {
    const { bytes: out, rows, lastKey } = read([bytes]);
    expect(new TextDecoder().decode(out)).toBe(EXPECTED);
    expect(rows).toBe(3);
    expect(lastKey).toEqual(['2024-01-01 "10;00"', 'id-3']);
  });

  it('gives the same bytes wherever the output is cut into pieces', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const { bytes: out } = read([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(new TextDecoder().decode(out), `cut at ${cut}`).toBe(EXPECTED);
    }
    const { bytes: byByte } = read([...bytes].map((b) => Uint8Array.of(b)));
    expect(new TextDecoder().decode(byByte)).toBe(EXPECTED);
  });

  it('refuses output that ends inside a line', () => {
    const reader = new CopyCsvReader(TEXT, ';');
    reader.push(bytes.subarray(0, 30));
    expect(() => reader.take()).toThrow(/inside a line/);
  });
});
