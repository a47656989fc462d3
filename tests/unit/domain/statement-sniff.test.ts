import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containerKindOf, controlCharacterLine } from '../../../domain/statements/sniff';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));

/** Any character a statement may hold: TAB, LF, CR, and everything from the space up (accents, €, C1 too). */
const allowed = fc.oneof(
  fc.constantFrom('\t', '\n', '\r', '\r\n'),
  fc.string({ minLength: 1, maxLength: 1 }).filter((c) => c.charCodeAt(0) >= 0x20),
  fc.constantFrom('ã', 'ç', '€', '\u0085', '–'),
);
const statementText = fc.array(allowed, { maxLength: 200 }).map((cs) => cs.join(''));
const forbidden = fc
  .integer({ min: 0, max: 0x1f })
  .filter((code) => code !== 0x09 && code !== 0x0a && code !== 0x0d)
  .map((code) => String.fromCharCode(code));
const linesBefore = (s: string) => s.split('\n').length;

describe('a statement upload sniffed from its bytes (decision 0122)', () => {
  it('knows the containers a statement never is, whatever the file is named', () => {
    expect(containerKindOf(bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0))).toBe('zip');
    expect(containerKindOf(bytes(0x50, 0x4b, 0x05, 0x06))).toBe('zip');
    expect(containerKindOf(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBe('ole');
    expect(containerKindOf(text('%PDF-1.4\n'))).toBe('pdf');
    expect(containerKindOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png');
    expect(containerKindOf(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(containerKindOf(text('GIF89a'))).toBe('gif');
    expect(containerKindOf(bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50))).toBe('webp');
    expect(containerKindOf(bytes(0x1f, 0x8b, 8))).toBe('gzip');
    expect(containerKindOf(text('BZh91AY&SY'))).toBe('bzip2');
    expect(containerKindOf(bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c))).toBe('7z');
    expect(containerKindOf(bytes(0x28, 0xb5, 0x2f, 0xfd))).toBe('zstd');
    expect(containerKindOf(text('SQLite format 3\0'))).toBe('sqlite');
    // Too short to be the signature, or only its start: not a container.
    expect(containerKindOf(bytes(0x50, 0x4b))).toBeNull();
    expect(containerKindOf(text('RIFF1234WAVE'))).toBeNull();
    expect(containerKindOf(text('BZh9 is a column header'))).toBeNull();
  });

  it('never takes a statement for a container: CSV, camt.053, MT940, with or without a BOM, in UTF-16 too', () => {
    for (const start of [
      'Data;Descrição;Montante',
      '<?xml version="1.0"?>',
      ':20:STMT',
      '{1:F01',
      'PK;not a zip',
    ])
      for (const encoded of [
        text(start),
        text(`\uFEFF${start}`),
        new Uint8Array(Buffer.from(`\uFEFF${start}`, 'utf16le')),
      ])
        expect(containerKindOf(encoded)).toBeNull();
  });

  it('finds no control character in any text of allowed characters', () => {
    fc.assert(
      fc.property(statementText, fc.boolean(), (s, xml) => {
        expect(controlCharacterLine(s, { xml })).toBeNull();
      }),
    );
  });

  it('names the line of the first control character, raw anywhere or as an XML reference in XML', () => {
    fc.assert(
      fc.property(statementText, forbidden, statementText, (before, control, after) => {
        const raw = `${before}${control}${after}`;
        expect(controlCharacterLine(raw, { xml: false })).toBe(linesBefore(before));
        const code = control.charCodeAt(0);
        // Written as a reference instead, in a text whose other ampersands are escaped as XML escapes them.
        const escaped = (part: string) => part.replaceAll('&', '&amp;');
        for (const reference of [
          `&#${code};`,
          `&#x${code.toString(16)};`,
          `&#X${code.toString(16).toUpperCase()};`,
          `&#000${code};`,
        ])
          expect(controlCharacterLine(`${escaped(before)}${reference}${escaped(after)}`, { xml: true })).toBe(
            linesBefore(before),
          );
      }),
    );
  });

  it('leaves references to allowed characters alone, and references anywhere in a text that is not XML', () => {
    for (const allowedReference of [
      '&#9;',
      '&#10;',
      '&#13;',
      '&#x9;',
      '&#xA;',
      '&#xD;',
      '&#32;',
      '&#x20;',
      '&#127;',
      '&#233;',
    ])
      expect(controlCharacterLine(`<Ustrd>a${allowedReference}b</Ustrd>`, { xml: true })).toBeNull();
    expect(controlCharacterLine('x;"&#0;";1,00', { xml: false })).toBeNull();
    expect(controlCharacterLine('line 1\nline 2 &#0;\n', { xml: true })).toBe(2);
  });

  it("allows an MT940's SWIFT framing where SWIFT puts it (mBank's SOH … ETX), and only there", () => {
    const framed = '\u0001:20:MT940\r\n:25:PL12\r\n:62F:C170119PLN0,43\r\n-\u0003\r\n';
    expect(controlCharacterLine(framed, { xml: false, mt940: true })).toBeNull();
    expect(controlCharacterLine(`${framed}\u001a`, { xml: false, mt940: true })).toBeNull();
    // The same characters anywhere else, or in another format, are refused with their line.
    expect(controlCharacterLine(framed, { xml: false })).toBe(1);
    expect(controlCharacterLine(':20:A\n:86:PAGA\u0003MENTO\n', { xml: false, mt940: true })).toBe(2);
    expect(controlCharacterLine(':20:A\n\u001a:86:X\n', { xml: false, mt940: true })).toBe(2);
    expect(controlCharacterLine(':20:A\n:86:B\u0000C\n', { xml: false, mt940: true })).toBe(2);
  });
});
