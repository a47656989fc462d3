// The SAF-T (PT) sales-invoice reader on AT's demonstration file (tests/fixtures/sources, SOURCES.md):
// what it must give, the control totals' rule, the encodings, and every way a file is refused.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SourceRead } from '../../../domain/sources/refusal';
import {
  readSaftSalesInvoices,
  readSaftSalesInvoicesText,
  type SaftSalesInvoices,
} from '../../../domain/sources/saft-pt';
import { decodeWindows1252 } from '../../../domain/statements/decode';

const FIXTURES = fileURLToPath(new URL('../../fixtures/sources/', import.meta.url));
/** AT's demonstration file as the invoicing program wrote it: windows-1252, declared so. */
const DEMO_BYTES = new Uint8Array(readFileSync(`${FIXTURES}saft-pt-at-demo-599999999.xml`));
const DEMO = decodeWindows1252(DEMO_BYTES);

/** The demonstration file as UTF-8 bytes, its declaration saying so. */
const demoAsUtf8 = () =>
  new TextEncoder().encode(DEMO.replace('encoding="Windows-1252"', 'encoding="UTF-8"'));

function read(result: SourceRead<SaftSalesInvoices>): SaftSalesInvoices {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.value;
}

/** The demonstration file with one edit, which must change it (a silent no-op would prove nothing). */
function edited(from: string | RegExp, to: string, xml = DEMO): string {
  const out = xml.replace(from, to);
  if (out === xml) throw new Error(`edit not applied: ${from}`);
  return out;
}

const refusalOf = (xml: string) => {
  const result = readSaftSalesInvoicesText(xml);
  return result.ok ? null : result.refusal;
};

describe("SAF-T (PT) sales invoices: AT's demonstration file", () => {
  const demo = read(readSaftSalesInvoices(DEMO_BYTES));

  it('reads its header and its 24 documents: 18 kept, the 6 cancelled listed apart', () => {
    expect(demo).toMatchObject({
      companyTaxId: '599999993',
      companyName: 'Entidade comercial - Demonstração',
      startDate: '2017-02-01',
      endDate: '2018-01-31',
      software: 'Software demo/AT',
      encoding: 'windows-1252',
      numberOfEntries: 24,
      totalDebit: '2201.7838',
      totalCredit: '14918.709',
    });
    expect(demo.documents).toHaveLength(18);
    expect(demo.cancelled.map((d) => d.invoiceNo)).toEqual([
      '1T 1/5',
      '1IECTR EC/1',
      '1IECTR EC/2',
      '1IECTR EC/3',
      '1IECTR EC/4',
      '1IECTR EC/5',
    ]);
    expect(
      demo.documents
        .map((d) => d.type)
        .sort()
        .join(' '),
    ).toBe(`${'FR '.repeat(2)}${'FT '.repeat(10)}${'NC '.repeat(5)}ND`);
  });

  it("gives each document's number, ATCUD, date, customer tax id and totals in cents", () => {
    expect(demo.documents[0]).toEqual({
      invoiceNo: '1T 1/1',
      atcud: '0',
      type: 'FT',
      crediting: false,
      status: 'N',
      date: '2017-03-10',
      customerId: 'CA3',
      customerTaxId: '123456789',
      grossCents: 2807,
      netCents: 2339,
      taxCents: 468,
      references: [],
      orderReferences: [],
      lineTexts: expect.any(Array),
      line: 458,
    });
    const sum = demo.documents.reduce((s, d) => s + (d.crediting ? -d.grossCents : d.grossCents), 0);
    // 10 FT (one of them the summary R) + 2 FR + 1 ND − 5 NC, from the file's own totals.
    expect(sum).toBe(1_625_511 + 132_000 + 3_600 - 264_214);
  });

  it("keeps a credit note's references to what it offsets and the lines' order references", () => {
    const byNo = new Map(demo.documents.map((d) => [d.invoiceNo, d]));
    expect(byNo.get('2T A/2')).toMatchObject({ type: 'NC', crediting: true, references: ['FT 1/2'] });
    expect(byNo.get('2T A/5')?.references).toEqual(['FTM V/23', 'FTM V/24']);
    expect(byNo.get('1N 8/00001')).toMatchObject({ type: 'ND', crediting: false, references: ['1T 1/6'] });
    expect(byNo.get('1T 1/2')?.orderReferences).toEqual(['GR 1/2', 'GR 1/3']);
    expect(byNo.get('1R RE1/1')).toMatchObject({ status: 'R', orderReferences: ['ADC 1/-1'] });
  });

  it('lists a cancelled document with its reason, and imports nothing of it', () => {
    expect(demo.cancelled[0]).toMatchObject({ invoiceNo: '1T 1/5', date: '2017-09-29', grossCents: 19802 });
    expect(demo.cancelled[0]!.reason).toEqual(expect.stringMatching(/\S/));
    expect(demo.documents.some((d) => d.invoiceNo === '1T 1/5')).toBe(false);
  });

  it('reads the same documents from the file re-encoded as UTF-8', () => {
    const utf8 = read(readSaftSalesInvoices(demoAsUtf8()));
    expect(utf8.encoding).toBe('utf-8');
    expect({ ...utf8, encoding: null }).toEqual({ ...demo, encoding: null });
  });

  it('reads ISO-8859-1 as declared', () => {
    const latin1 = DEMO_BYTES.slice();
    const declared = new TextEncoder().encode('encoding="ISO-8859-1"  ');
    const at = DEMO.indexOf('encoding="Windows-1252"');
    // Same length as `encoding="Windows-1252"`: the rest of the bytes stay where they were.
    latin1.set(declared.subarray(0, 'encoding="Windows-1252"'.length), at);
    const result = read(readSaftSalesInvoices(latin1));
    expect(result.encoding).toBe('iso-8859-1');
    expect(result.companyName).toBe('Entidade comercial - Demonstração');
  });
});

describe('SAF-T (PT) sales invoices: a marketplace file made here (UTF-8)', () => {
  const made = read(
    readSaftSalesInvoices(new Uint8Array(readFileSync(`${FIXTURES}made-here-saft-pt-marketplace-utf8.xml`))),
  );

  it("finds the case reference where the marketplace puts it, and the credit note's invoice", () => {
    expect(made).toMatchObject({ encoding: 'utf-8', companyName: 'Plataforma de Consultas Médicas, Lda.' });
    expect(
      made.documents.map(
        ({ invoiceNo, atcud, type, crediting, customerTaxId, grossCents, references, orderReferences }) => ({
          invoiceNo,
          atcud,
          type,
          crediting,
          customerTaxId,
          grossCents,
          references,
          orderReferences,
        }),
      ),
    ).toEqual([
      {
        invoiceNo: 'FR AVC/1',
        atcud: 'JFJ3K8ZM-1',
        type: 'FR',
        crediting: false,
        customerTaxId: '123456789',
        grossCents: 6000,
        references: [],
        orderReferences: ['C-2026-0041'],
      },
      {
        invoiceNo: 'FR AVC/2',
        atcud: 'JFJ3K8ZM-2',
        type: 'FR',
        crediting: false,
        customerTaxId: '999999990',
        grossCents: 4500,
        references: [],
        orderReferences: [],
      },
      {
        invoiceNo: 'NC AVCNC/1',
        atcud: 'KR7T2QWX-1',
        type: 'NC',
        crediting: true,
        customerTaxId: '123456789',
        grossCents: 6000,
        references: ['FR AVC/1'],
        orderReferences: [],
      },
    ]);
    expect(made.documents[1]!.lineTexts).toEqual([
      'Consulta médica por vídeo',
      'Teleconsulta — caso C-2026-0040',
    ]);
    expect(made.cancelled).toEqual([
      {
        invoiceNo: 'FR AVC/3',
        atcud: 'JFJ3K8ZM-3',
        type: 'FR',
        date: '2026-09-30',
        reason: 'Emitida ao cliente errado',
        grossCents: 12000,
        line: expect.any(Number),
      },
    ]);
  });

  it('reads the file with its elements prefixed, as some programs write the namespace', () => {
    const xml = readFileSync(`${FIXTURES}made-here-saft-pt-marketplace-utf8.xml`, 'utf8');
    const prefixed = edited(
      '<saft:AuditFile xmlns="urn:OECD',
      '<saft:AuditFile xmlns:saft="urn:OECD',
      xml.replace(/<(\/?)([A-Za-z])/g, '<$1saft:$2'),
    );
    expect(read(readSaftSalesInvoicesText(prefixed)).documents).toEqual(made.documents);
  });
});

describe('SAF-T (PT) control totals', () => {
  it('refuses a NumberOfEntries that is not the number of documents, with both numbers', () => {
    expect(refusalOf(edited('<NumberOfEntries>24<', '<NumberOfEntries>23<'))).toEqual({
      code: 'SAFT_CONTROL_TOTALS_MISMATCH',
      line: 1,
      extra: { mismatches: [{ total: 'NumberOfEntries', declared: '23', computed: '24' }] },
    });
  });

  it('leaves cancelled documents out of TotalCredit: counting them is refused', () => {
    // 19325.5056 is what the lines of all 24 documents add up to, cancelled ones included.
    const refusal = refusalOf(edited('<TotalCredit>14918.709<', '<TotalCredit>19325.5056<'));
    expect(refusal?.extra).toEqual({
      mismatches: [{ total: 'TotalCredit', declared: '19325.5056', computed: '14918.709' }],
    });
  });

  it('leaves invoiced (F) documents out too', () => {
    const invoiced = edited(/(<InvoiceNo>1T 1\/4<\/InvoiceNo>[\s\S]*?<InvoiceStatus>)N</, '$1F<');
    const refusal = refusalOf(invoiced);
    expect(refusal?.code).toBe('SAFT_CONTROL_TOTALS_MISMATCH');
    expect(refusal?.extra).toEqual({
      mismatches: [{ total: 'TotalCredit', declared: '14918.709', computed: '13918.709' }],
    });
  });

  it('refuses a TotalDebit one ten-thousandth off', () => {
    expect(refusalOf(edited('<TotalDebit>2201.7838<', '<TotalDebit>2201.7837<'))?.extra).toEqual({
      mismatches: [{ total: 'TotalDebit', declared: '2201.7837', computed: '2201.7838' }],
    });
  });
  it('refuses a control total that is not a number, naming it', () => {
    expect(refusalOf(edited('<TotalDebit>2201.7838<', '<TotalDebit>2.201,78<'))).toEqual({
      code: 'SAFT_DOCUMENT_INVALID',
      line: 1,
      extra: { field: 'TotalDebit' },
    });
  });
});

describe('SAF-T (PT) refusals', () => {
  it('refuses a DOCTYPE (entity expansion, external entities) before reading anything', () => {
    const xxe = DEMO.replace(
      '<AuditFile',
      '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><AuditFile',
    );
    expect(refusalOf(xxe)).toMatchObject({
      code: 'SAFT_UNREADABLE',
      extra: { reason: 'DOCTYPE_NOT_ALLOWED' },
    });
  });

  it('refuses every file cut short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: DEMO.trimEnd().length - 1 }), (cut) => {
        expect(refusalOf(DEMO.slice(0, cut))?.code).toBe('SAFT_UNREADABLE');
      }),
      { numRuns: 60 },
    );
  });

  it('refuses another SAF-T version, and XML that is not SAF-T (PT)', () => {
    const older = edited(/PT_1\.04_01/g, 'PT_1.03_01');
    expect(refusalOf(older)).toMatchObject({
      code: 'SAFT_VERSION_UNSUPPORTED',
      extra: { namespace: 'urn:OECD:StandardAuditFile-Tax:PT_1.03_01' },
    });
    expect(refusalOf('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"/>')?.code).toBe(
      'SAFT_NOT_AUDIT_FILE',
    );
    const angola = edited(
      /urn:OECD:StandardAuditFile-Tax:PT_1\.04_01/g,
      'urn:OECD:StandardAuditFile-Tax:AO_1.01_01',
    );
    expect(refusalOf(angola)?.code).toBe('SAFT_NOT_AUDIT_FILE');
  });

  it('refuses a file without sales invoices', () => {
    const none = edited(/<SalesInvoices>[\s\S]*<\/SalesInvoices>/, '');
    expect(refusalOf(none)?.code).toBe('SAFT_NO_SALES_INVOICES');
  });

  it('refuses an encoding it does not read, and UTF-8 that is not UTF-8', () => {
    const utf16 = new TextEncoder().encode(DEMO.replace('encoding="Windows-1252"', 'encoding="UTF-16"'));
    expect(readSaftSalesInvoices(utf16)).toEqual({
      ok: false,
      refusal: { code: 'SAFT_ENCODING_UNSUPPORTED', line: 1, extra: { encoding: 'utf-16' } },
    });
    // The windows-1252 bytes declared UTF-8: their accents are not UTF-8.
    const lying = DEMO_BYTES.slice();
    lying.set(new TextEncoder().encode('encoding="UTF-8"       '), DEMO.indexOf('encoding="Windows-1252"'));
    expect(readSaftSalesInvoices(lying)).toMatchObject({ ok: false, refusal: { code: 'SAFT_UNREADABLE' } });
  });

  it('refuses a document whose total has a third decimal, naming it and its field', () => {
    const refusal = refusalOf(edited('<GrossTotal>28.07</GrossTotal>', '<GrossTotal>28.075</GrossTotal>'));
    expect(refusal).toEqual({
      code: 'SAFT_DOCUMENT_INVALID',
      line: 458,
      extra: { invoiceNo: '1T 1/1', field: 'GrossTotal' },
    });
  });

  it.each([
    ['InvoiceDate', /<InvoiceDate>2017-03-10</, '<InvoiceDate>2017-02-30<'],
    ['InvoiceStatus', /<InvoiceStatus>N</, '<InvoiceStatus>X<'],
    ['InvoiceType', /<InvoiceType>FT</, '<InvoiceType>XX<'],
    ['ATCUD', /<ATCUD>0<\/ATCUD>/, ''],
  ])('refuses a document without a readable %s', (field, from, to) => {
    expect(refusalOf(edited(from, to))?.extra).toEqual({ invoiceNo: '1T 1/1', field });
  });

  it('refuses a document number given twice, and a customer MasterFiles does not have', () => {
    const twice = edited('<InvoiceNo>1T 1/2<', '<InvoiceNo>1T 1/1<');
    expect(refusalOf(twice)).toMatchObject({
      code: 'SAFT_DUPLICATE_DOCUMENT',
      extra: { invoiceNo: '1T 1/1' },
    });
    const stranger = edited(/(<InvoiceNo>1T 1\/1<[\s\S]*?<CustomerID>)CA3</, '$1NOBODY<');
    expect(refusalOf(stranger)).toMatchObject({
      code: 'SAFT_UNKNOWN_CUSTOMER',
      extra: { invoiceNo: '1T 1/1', customerId: 'NOBODY' },
    });
  });
});
