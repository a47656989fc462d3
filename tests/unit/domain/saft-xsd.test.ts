// The SAF-T (PT) fixtures against the official XSD (tests/fixtures/sources/SAFTPT1.04_01.xsd), with
// Debian's xmllint as the SEPA files are checked. The XSD is XSD 1.1 (`vc:minVersion="1.1"`: 19
// `xs:assert` and one `xs:all` of repeated elements), which libxml2 cannot compile; the test checks a
// 1.0 reading of it made here: the asserts dropped (tax-exemption and general-ledger rules the reader
// does not rely on) and that `xs:all` read as a repeated choice, both only ever more permissive.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWindows1252 } from '../../../domain/statements/decode';
import { SOURCE_FIXTURES as FIXTURES, saftSchemaCheck } from '../../support/saft-xsd';

const schema = saftSchemaCheck();
afterAll(() => schema.close());
const xmllintErrors = (bytes: Uint8Array | string, name: string) => schema.errors(bytes, name);

const DEMO_BYTES = readFileSync(`${FIXTURES}saft-pt-at-demo-599999999.xml`);

describe('SAF-T (PT) fixtures against the official XSD', () => {
  it('finds all of the XSD 1.1 constructs it reads as 1.0', () => {
    expect(schema).toMatchObject({ asserts: 19, alls: 1 });
  });

  it("AT's demonstration file is valid, as written (windows-1252) and re-encoded as UTF-8", () => {
    expect(xmllintErrors(DEMO_BYTES, 'demo.xml')).toBe('');
    const utf8 = decodeWindows1252(DEMO_BYTES).replace('encoding="Windows-1252"', 'encoding="UTF-8"');
    expect(xmllintErrors(utf8, 'demo-utf8.xml')).toBe('');
  });

  it('the marketplace file made here is valid', () => {
    const made = readFileSync(`${FIXTURES}made-here-saft-pt-marketplace-utf8.xml`);
    expect(xmllintErrors(made, 'made-here.xml')).toBe('');
  });

  it('a document without its ATCUD is not', () => {
    const withoutAtcud = decodeWindows1252(DEMO_BYTES)
      .replace('encoding="Windows-1252"', 'encoding="UTF-8"')
      .replace('<ATCUD>0</ATCUD>', '');
    expect(xmllintErrors(withoutAtcud, 'no-atcud.xml')).toMatch(/ATCUD|DocumentStatus/);
  });
});
