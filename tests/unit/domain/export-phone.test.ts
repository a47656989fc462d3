import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  csvChunks,
  csvPhoneText,
  type ExportColumn,
  neutralise,
  PHONE_PATTERN,
  xlsxChunks,
} from '../../../domain/export-files';

// Issue 29: a pt-PT export showed the phone country code as `'+351`. A phone column writes a phone
// number as people read it; anything else in it is still neutralised (decision 0128).

const PHONE: ExportColumn = { key: 'phone', header: 'Telefone', kind: 'phone' };

async function text(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const csvCells = async (values: (string | null)[]) =>
  new TextDecoder()
    .decode(
      await text(
        csvChunks(
          [PHONE],
          values.map((phone) => ({ phone })),
          { locale: 'pt-PT' },
        ),
      ),
    )
    .replace('\uFEFF', '')
    .split('\r\n')
    .slice(1, -1);

const xlsxCells = async (values: string[]) => {
  const bytes = await text(
    xlsxChunks(
      [PHONE],
      values.map((phone) => ({ phone })),
      { locale: 'pt-PT', sheetName: 'S' },
    ),
  );
  const sheet = strFromU8(unzipSync(bytes)['xl/worksheets/sheet1.xml']!);
  return [...sheet.matchAll(/<c r="A(\d+)"[^>]*><is><t[^>]*>([^<]*)<\/t><\/is><\/c>/g)]
    .filter((m) => m[1] !== '1')
    .map((m) => m[2]);
};

describe('phone cells', () => {
  it('CSV: a number starting with + is kept from the formula reading by a tab, not a quote', async () => {
    expect(await csvCells(['+351', '+351 912 345 678', '912345678', null])).toEqual([
      '\t+351',
      '\t+351 912 345 678',
      '912345678',
      '',
    ]);
  });

  it('XLSX: a phone number is a string cell as written, with no quote', async () => {
    expect(await xlsxCells(['+351', '+351 912 345 678', '912345678'])).toEqual([
      '+351',
      '+351 912 345 678',
      '912345678',
    ]);
  });

  it('anything that is not a phone number is neutralised as text, in both formats', async () => {
    expect(await csvCells(['=1+2', '+351 ', '@x', '-5'])).toEqual(["'=1+2", "'+351 ", "'@x", "'-5"]);
    expect(await xlsxCells(['=1+2', '@x', '-5'])).toEqual(["'=1+2", "'@x", "'-5"]);
  });

  it('never lets a cell start with a formula character unless it is a plain phone number behind a tab', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const cell = csvPhoneText(value);
        if (PHONE_PATTERN.test(value)) expect(cell.replace(/^\t/, '')).toBe(value);
        else expect(cell).toBe(neutralise(value));
        // What a spreadsheet would evaluate: a first character of = + - @ that is not ours.
        expect(/^[=+\-@]/.test(cell)).toBe(false);
      }),
    );
  });
});
