// A real spreadsheet program opens the generated .xlsx: LibreOffice (Debian's libreoffice-calc-nogui)
// converts it headlessly to CSV, values "as shown", i.e. through the file's number formats.
// Skipped where `soffice` is not installed; it takes several seconds, most of it LibreOffice starting.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ExportColumn, xlsxChunks } from '../../../domain/export-files';

const soffice = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

const dir = mkdtempSync(join(tmpdir(), 'export-files-lo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!soffice)('XLSX opened by LibreOffice', () => {
  it('reads every cell with its type and number format', async () => {
    const columns: ExportColumn[] = [
      { key: 'name', header: 'Nome', kind: 'text' },
      { key: 'n', header: 'Consultas', kind: 'integer' },
      { key: 'amount', header: 'Valor (€)', kind: 'cents' },
      { key: 'day', header: 'Data', kind: 'date' },
      { key: 'at', header: 'Criado em', kind: 'datetime' },
      { key: 'active', header: 'Ativo', kind: 'boolean' },
    ];
    const rows = [
      {
        name: 'Conceição & <Lda>',
        n: 42,
        amount: 123450,
        day: '2025-03-30',
        at: new Date('2025-07-01T12:00:00Z'),
        active: true,
      },
      { name: '=SUM(B2)', n: -1, amount: -5, day: '2024-02-29', at: '2025-01-15T06:00:00Z', active: false },
      { name: 'só texto\u0001', amount: 30 },
    ];
    const parts: Uint8Array[] = [];
    for await (const c of xlsxChunks(columns, rows, { sheetName: 'Teste', locale: 'pt-PT' })) parts.push(c);
    const file = join(dir, 'export.xlsx');
    writeFileSync(file, Buffer.concat(parts));

    // Filter options: `,` separator, `"` quote, UTF-8 (76), first line 1, …, save cell contents as shown.
    execFileSync(
      soffice!,
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true',
        '--outdir',
        dir,
        file,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    expect(readFileSync(join(dir, 'export.csv'), 'utf8').split(/\r?\n/)).toEqual([
      'Nome,Consultas,Valor (€),Data,Criado em,Ativo',
      'Conceição & <Lda>,42,"1,234.50",2025-03-30,2025-07-01 13:00:00,TRUE',
      "'=SUM(B2),-1,-0.05,2024-02-29,2025-01-15 06:00:00,FALSE",
      'só texto,,0.30,,,',
      '',
    ]);
  }, 180_000);
});
