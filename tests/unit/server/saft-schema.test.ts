// An uploaded SAF-T checked against the official XSD read as 1.0 in-process (server/sources/saft-schema.ts,
// decision 0152): AT's demonstration file (windows-1252) and the made-here one (UTF-8) pass, compressed too;
// a document without its signature fails with its line; a file over the size checked is not checked.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SAFT_SCHEMA_CHECK_MAX_BYTES, saftSchemaErrors } from '../../../server/sources/saft-schema';
import { SOURCE_FIXTURES } from '../../support/saft-xsd';

const fixture = (name: string) => new Uint8Array(readFileSync(`${SOURCE_FIXTURES}${name}`));

describe('SAF-T against the official XSD', () => {
  it("passes AT's demonstration file and the marketplace's, plain and gzip", async () => {
    for (const name of ['saft-pt-at-demo-599999999.xml', 'made-here-saft-pt-marketplace-utf8.xml']) {
      expect(await saftSchemaErrors(fixture(name), fixture(name).length)).toEqual({
        checked: true,
        errors: [],
      });
      expect(await saftSchemaErrors(gzipSync(fixture(name)), fixture(name).length)).toEqual({
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
    const check = await saftSchemaErrors(bytes, bytes.length);
    expect(check.checked).toBe(true);
    if (!check.checked) return;
    expect(check.errors[0]).toMatch(new RegExp(`^line ${line}: .*Hash`));
  });

  it('leaves a file whose XML is over the size checked unchecked', async () => {
    const text = readFileSync(`${SOURCE_FIXTURES}made-here-saft-pt-marketplace-utf8.xml`, 'utf8');
    const padded = text.replace(
      '<AuditFile',
      `<!--${' '.repeat(SAFT_SCHEMA_CHECK_MAX_BYTES)}-->\n<AuditFile`,
    );
    const bytes = Buffer.from(padded, 'utf8');
    expect(await saftSchemaErrors(gzipSync(bytes), bytes.length)).toEqual({ checked: false });
  });
});
