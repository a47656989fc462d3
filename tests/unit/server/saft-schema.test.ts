// An uploaded SAF-T checked against the official XSD read as 1.0 in-process (server/sources/saft-schema.ts,
// decisions 0152, 0163): AT's demonstration file (windows-1252) and the made-here one (UTF-8) pass,
// compressed too; a document without its signature fails with its line; a file whose sections other than
// customers, products and invoices are too big to repeat in every piece is not checked.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { saftSchemaErrors } from '../../../server/sources/saft-schema';
import { SOURCE_FIXTURES } from '../../support/saft-xsd';

const fixture = (name: string) => new Uint8Array(readFileSync(`${SOURCE_FIXTURES}${name}`));

describe('SAF-T against the official XSD', () => {
  it("passes AT's demonstration file and the marketplace's, plain and gzip", async () => {
    for (const name of ['saft-pt-at-demo-599999999.xml', 'made-here-saft-pt-marketplace-utf8.xml']) {
      expect(await saftSchemaErrors(fixture(name))).toEqual({
        checked: true,
        errors: [],
      });
      expect(await saftSchemaErrors(gzipSync(fixture(name)))).toEqual({
        checked: true,
        errors: [],
      });
    }
  });

  it('names the line of a document without its signature', async () => {
    const text = readFileSync(`${SOURCE_FIXTURES}made-here-saft-pt-marketplace-utf8.xml`, 'utf8');
    const hash = /[ \t]*<Hash>[^<]*<\/Hash>\r?\n/.exec(text)!;
    const line = text.slice(0, hash.index).split('\n').length;
    const bytes = new Uint8Array(Buffer.from(text.replace(hash[0], ''), 'utf8'));
    const check = await saftSchemaErrors(bytes);
    expect(check.checked).toBe(true);
    if (!check.checked) return;
    expect(check.errors[0]).toMatch(new RegExp(`^line ${line}: .*Hash`));
  });

  it('leaves unchecked a file whose header is too big to repeat in every piece', async () => {
    const text = readFileSync(`${SOURCE_FIXTURES}made-here-saft-pt-marketplace-utf8.xml`, 'utf8');
    const padded = text.replace('<Header>', `<Header><!--${' '.repeat(9 * 1_048_576)}-->`);
    const bytes = Buffer.from(padded, 'utf8');
    expect(await saftSchemaErrors(gzipSync(bytes))).toEqual({ checked: false });
    // The same file with a header of its usual size is checked.
    expect(await saftSchemaErrors(gzipSync(Buffer.from(text, 'utf8')))).toEqual({
      checked: true,
      errors: [],
    });
  });
});
