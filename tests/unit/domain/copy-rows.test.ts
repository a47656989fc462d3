import { describe, expect, it } from 'vitest';
import { CopyRowsReader } from '../../../domain/export-files';

// COPY's binary output of (row bytes, sort key, id) → the rows' bytes one after another and the last
// key. The equality of the sheet with the domain XLSX writer on real databases is
// tests/api/exports-xlsx-sql.test.ts; here: the format's framing, and the pieces it may arrive in (pg
// hands over a row at a time, PGlite everything at once; a reader must not care where a piece ends).

const encoder = new TextEncoder();

/** PostgreSQL's binary COPY of rows of text fields, with a header extension of `extension` bytes. */
function binaryCopy(rows: string[][], extension = 0): Uint8Array {
  const parts: number[] = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
  const int32 = (n: number) => parts.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  const int16 = (n: number) => parts.push((n >>> 8) & 0xff, n & 0xff);
  int32(0);
  int32(extension);
  for (let i = 0; i < extension; i++) parts.push(0xaa);
  for (const row of rows) {
    int16(row.length);
    for (const field of row) {
      const bytes = encoder.encode(field);
      int32(bytes.length);
      parts.push(...bytes);
    }
  }
  int16(-1);
  return Uint8Array.from(parts);
}

const ROWS = [
  ['<row r="2"><c r="A2"><v>1</v></c></row>', '2024-01-01 10:00:00+00', 'id-1'],
  ['<row r="3"><c r="A3" t="inlineStr"><is><t>Conceição 😀 \\ \t\n</t></is></c></row>', 'key "3"', 'id-3'],
  ['', '2024-01-01 10:00:02+00', 'id-4'],
];
const EXPECTED = ROWS.map((r) => r[0]).join('');

const read = (pieces: Uint8Array[]) => {
  const reader = new CopyRowsReader(16);
  for (const piece of pieces) reader.push(piece);
  return reader.take();
};

describe('CopyRowsReader', () => {
  const bytes = binaryCopy(ROWS, 3);

  it('collects the rows’ bytes as they are and keeps the last key', () => {
    const { bytes: out, rows, lastKey } = read([bytes]);
    expect(new TextDecoder().decode(out)).toBe(EXPECTED);
    expect(rows).toBe(3);
    expect(lastKey).toEqual(['2024-01-01 10:00:02+00', 'id-4']);
  });

  it('gives the same bytes wherever the output is cut, in two pieces or byte by byte', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const taken = read([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(new TextDecoder().decode(taken.bytes)).toBe(EXPECTED);
      expect(taken.lastKey).toEqual(['2024-01-01 10:00:02+00', 'id-4']);
    }
    const single = read(Array.from(bytes, (b) => Uint8Array.of(b)));
    expect(new TextDecoder().decode(single.bytes)).toBe(EXPECTED);
    expect(single.rows).toBe(3);
  });

  it('reads batch after batch, each taken batch valid until the second take after it', () => {
    const reader = new CopyRowsReader(16);
    reader.push(bytes);
    const first = reader.take();
    const firstText = new TextDecoder().decode(first.bytes);
    reader.push(binaryCopy([['<row r="5"/>', 'k', 'id-5']]));
    const second = reader.take();
    expect(new TextDecoder().decode(first.bytes)).toBe(firstText);
    expect(new TextDecoder().decode(second.bytes)).toBe('<row r="5"/>');
    expect(second.lastKey).toEqual(['k', 'id-5']);
    reader.push(binaryCopy([]));
    expect(reader.take()).toMatchObject({ rows: 0, lastKey: [] });
  });

  it('refuses what is not binary COPY, output cut short and rows of other shapes', () => {
    expect(() => read([encoder.encode('PGCOPY\nnot binary here')])).toThrow(/not PostgreSQL binary/);
    expect(() => read([bytes.subarray(0, bytes.length - 1)])).toThrow(/ended inside/);
    expect(() => read([binaryCopy([['a', 'b']])])).toThrow(/2 fields/);
  });
});
