import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINE, list, type OpenElement, parseXmlSafely, text } from '../../../domain/xml';

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

  it('tells of the listed elements as they close, inside what is still open, and builds the same tree', () => {
    const xml =
      '<d:Doc xmlns:d="urn:x"><Stmt><Acct>A</Acct><Ntry n="1"><Amt>1</Amt></Ntry><Ntry/></Stmt></d:Doc>';
    const seen: [string, unknown, string[], string[]][] = [];
    const handle = (name: string, value: unknown, open: readonly OpenElement[]) => {
      seen.push([name, value, open.map((o) => o.name), Object.keys(open[open.length - 1]!.obj)]);
    };
    const r = parseXmlSafely(xml, new Set(['Ntry']), { onClose: { tags: new Set(['Ntry']), handle } });
    expect(seen).toEqual([
      ['Ntry', { '@n': '1', Amt: '1' }, ['', 'Doc', 'Stmt'], ['Acct']],
      ['Ntry', '', ['', 'Doc', 'Stmt'], ['Acct', 'Ntry']],
    ]);
    expect(r).toEqual(parseXmlSafely(xml, new Set(['Ntry'])));
  });

  it('keeps what the listener returns in the place of the element', () => {
    const xml = '<Doc><Ntry><Amt>1</Amt></Ntry><Other>x</Other><Ntry><Amt>2</Amt></Ntry></Doc>';
    const handle = (_: string, value: unknown) => `read ${(value as { Amt: string }).Amt}`;
    expect(parseXmlSafely(xml, new Set(), { onClose: { tags: new Set(['Ntry']), handle } })).toEqual({
      ok: true,
      doc: { Doc: { Ntry: ['read 1', 'read 2'], Other: 'x' } },
    });
  });

  it('reads back any tree it is given, however its tags are spaced (property)', () => {
    type Tree = { name: string; attr: string | null; text: string; children: Tree[] };
    const name = fc.constantFrom('a', 'Ntry', 'constructor', 'x.y-1', 'toString');
    const words = fc.constantFrom('', '1.50', 'A & B', '<x>', 'çã €', '  pad  ', 'it\'s "q"');
    const space = fc.constantFrom('', ' ', '\n', '\r\n\t');
    const treeOf = (depth: number): fc.Arbitrary<Tree> =>
      fc.record({
        name,
        attr: fc.option(words, { nil: null }),
        text: words,
        children: depth === 0 ? fc.constant([]) : fc.array(treeOf(depth - 1), { maxLength: 3 }),
      });
    const tree = treeOf(3);
    const escaped = (s: string) =>
      s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const write = (t: Tree, prefix: string, gap: string): string =>
      `<${prefix}${t.name}${t.attr === null ? '' : ` v="${escaped(t.attr)}"`}${gap}>${escaped(t.text)}${t.children
        .map((c) => gap + write(c, prefix, gap))
        .join('')}</${prefix}${t.name}${gap}>`;
    // What the reader must give: text when an element has neither children nor attributes, else an
    // object; repeated names become arrays.
    const expected = (t: Tree): unknown => {
      const text = t.text.trim();
      if (t.children.length === 0 && t.attr === null) return text;
      const obj: Record<string, unknown> = {};
      if (t.attr !== null) obj['@v'] = t.attr;
      for (const c of t.children) {
        const prior = Object.hasOwn(obj, c.name) ? obj[c.name] : undefined;
        const value = expected(c);
        obj[c.name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
      }
      if (text !== '') obj['#text'] = text;
      return obj;
    };
    fc.assert(
      fc.property(tree, fc.constantFrom('', 'ns:'), space, (t, prefix, gap) => {
        const r = parseXmlSafely(`<?xml version="1.0"?>${gap}${write(t, prefix, gap)}${gap}`, new Set());
        expect(r).toEqual({ ok: true, doc: { [t.name]: expected(t) } });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses oversized input before reading it', () => {
    expect(parseXmlSafely('<a/>'.padEnd(100, ' '), new Set(), { maxChars: 10 })).toEqual({
      ok: false,
      code: 'FILE_TOO_LARGE',
    });
  });
});
