import { describe, expect, it } from 'vitest';
import { LINE, list, parseXmlSafely, text } from '../../../domain/xml';

const parse = (xml: string, arrays: string[] = []) => parseXmlSafely(xml, new Set(arrays));

describe('XML reader', () => {
  it('keeps every value as text and drops namespace prefixes', () => {
    const r = parse(
      '<?xml version="1.0"?><ns:Doc xmlns:ns="urn:x"><ns:Id>00012345</ns:Id><ns:N>1e5</ns:N><Amt Ccy="EUR">1.50</Amt></ns:Doc>',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(text(r.doc, 'Doc', 'Id')).toBe('00012345');
    expect(text(r.doc, 'Doc', 'N')).toBe('1e5');
    expect(r.doc.Doc).toMatchObject({ Amt: { '@Ccy': 'EUR', '#text': '1.50' } });
  });

  it('decodes entities and CDATA, skips comments', () => {
    const r = parse(
      '<a><!-- x --><b>&lt;A &amp; B&gt; &#231;&#xE3;</b><c><![CDATA[1 < 2 &amp;]]></c><d/></a>',
    );
    expect(r.ok && r.doc.a).toEqual({ b: '<A & B> çã', c: '1 < 2 &amp;', d: '' });
  });

  it('makes arrays of repeated or listed tags, and records lines', () => {
    const r = parseXmlSafely('<a>\n<x>1</x>\n<x>2</x>\n<y>3</y>\n</a>', new Set(['y']), {
      lineTags: new Set(['x']),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(list(r.doc, 'a', 'x').map((x) => (x as Record<string, unknown>)[LINE])).toEqual([2, 3]);
    expect(list(r.doc, 'a', 'y')).toEqual(['3']);
  });

  it.each([
    ['<a><b></a>', 'MALFORMED_XML', 1],
    ['<a>\n<b>x</b>\n', 'MALFORMED_XML', 3],
    ['<a></a><b></b>', 'MALFORMED_XML', 1],
    ['text', 'MALFORMED_XML', 1],
    ['', 'MALFORMED_XML', 1],
    ['<a x="1></a>', 'MALFORMED_XML', 1],
    ['<a><__proto__><polluted>1</polluted></__proto__></a>', 'MALFORMED_XML', 1],
    [`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`, 'TOO_DEEP', 1],
    ['<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', 'DOCTYPE_NOT_ALLOWED', 2],
  ])('refuses %j', (xml, code, line) => {
    expect(parse(xml)).toEqual({ ok: false, code, line });
  });

  it('leaves Object.prototype alone', () => {
    parse('<a><constructor>1</constructor><toString>2</toString><constructor>3</constructor></a>');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const r = parse('<a><constructor>1</constructor><constructor>3</constructor></a>');
    expect(r.ok && r.doc.a).toEqual({ constructor: ['1', '3'] });
  });

  it('refuses oversized input before reading it', () => {
    expect(parseXmlSafely('<a/>'.padEnd(100, ' '), new Set(), { maxChars: 10 })).toEqual({
      ok: false,
      code: 'FILE_TOO_LARGE',
    });
  });
});
