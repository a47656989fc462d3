import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { painSchemaErrors } from '../../../server/pain-schema';
import { BANKING, sampleText } from '../domain/shared-fixtures';

const XSD = `${BANKING}xsd/pain.001.001.03.xsd`;
// The CLI's copies (decision 0032) are the same schemas.
const CLI_XSD = path.resolve(import.meta.dirname, '../../../domain/sepa/xsd/pain.001.001.03.xsd');

describe('painSchemaErrors (libxml2-wasm, schema compiled once per process)', () => {
  const valid = sampleText('synthetic-payout-pt.pain.001.001.03.xml');

  it('accepts a valid file, again and again with the same compiled schema, from either copy', async () => {
    for (let i = 0; i < 3; i++) expect(await painSchemaErrors(valid, XSD)).toEqual([]);
    expect(await painSchemaErrors(valid, CLI_XSD)).toEqual([]);
  });

  it('reports each schema error with its line', async () => {
    const bad = valid
      .replace(/<NbOfTxs>\d+<\/NbOfTxs>/, '<NbOfTxs>three</NbOfTxs>')
      .replace('<ChrgBr>SLEV</ChrgBr>', '<ChrgBr>SLEV</ChrgBr><Extra/>');
    const errors = await painSchemaErrors(bad, XSD);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^line \d+: .*NbOfTxs.*'three' is not accepted by the pattern/);
    expect(errors[1]).toMatch(/^line \d+: .*Extra': This element is not expected/);
  });

  it('reports a file that is not well-formed instead of throwing', async () => {
    const errors = await painSchemaErrors(valid.slice(0, 400), XSD);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/^line \d+: /);
  });

  it('refuses a DOCTYPE (external entities, entity expansion) without parsing it', async () => {
    const xxe = valid
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/hostname">]>',
      )
      .replace(/<MsgId>[^<]*<\/MsgId>/, '<MsgId>&x;</MsgId>');
    expect(await painSchemaErrors(xxe, XSD)).toEqual(['line 2: DOCTYPE not allowed']);
  });
});
