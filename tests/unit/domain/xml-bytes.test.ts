import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeXmlBytes } from '../../../domain/sepa/xml-bytes';

// A status report's bytes decoded as its XML declaration says (decision 0123).

const latin1Bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const utf8Bytes = (text: string) => new TextEncoder().encode(text);
const xmlWith = (encoding: string | null, body: string) =>
  `<?xml version="1.0"${encoding ? ` encoding="${encoding}"` : ''}?>\n<Document>${body}</Document>`;
/** Text ISO-8859-1 can hold (C1 controls left out: no XML text carries them). */
const latin1Text = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
    .map((c) => String.fromCharCode(c)),
});

describe('decodeXmlBytes', () => {
  it('reads ISO-8859-1 as declared, whatever the spelling of the name', () => {
    fc.assert(
      fc.property(
        latin1Text,
        fc.constantFrom('ISO-8859-1', 'iso-8859-1', 'latin1', 'ISO8859-1'),
        (body, name) => {
          const xml = xmlWith(name, body);
          expect(decodeXmlBytes(latin1Bytes(xml))).toEqual({ ok: true, xml, encoding: 'iso-8859-1' });
        },
      ),
    );
  });

  it('reads UTF-8 when declared, when undeclared and after a byte order mark', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (body) => {
        const declared = xmlWith('UTF-8', body);
        const bare = xmlWith(null, body);
        expect(decodeXmlBytes(utf8Bytes(declared))).toMatchObject({ ok: true, xml: declared });
        expect(decodeXmlBytes(utf8Bytes(bare))).toMatchObject({ ok: true, xml: bare });
        expect(decodeXmlBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8Bytes(bare)]))).toMatchObject({
          ok: true,
          xml: bare,
        });
      }),
    );
  });

  it('reads windows-1252 with its own characters (€ is 0x80)', () => {
    const bytes = new Uint8Array([...latin1Bytes(xmlWith('windows-1252', '')), 0x80]);
    const read = decodeXmlBytes(bytes);
    expect(read.ok && read.xml.endsWith('€')).toBe(true);
  });

  it('refuses an encoding it does not read, and UTF-8 that is not', () => {
    expect(decodeXmlBytes(latin1Bytes(xmlWith('UTF-16', 'x')))).toEqual({
      ok: false,
      code: 'UNSUPPORTED_ENCODING',
      found: 'utf-16',
    });
    expect(decodeXmlBytes(latin1Bytes(xmlWith('UTF-8', 'Concei\u00e7\u00e3o')))).toEqual({
      ok: false,
      code: 'INVALID_BYTES',
    });
  });
});
