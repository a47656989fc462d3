// The SAF-T schema check in pieces (decisions 0163, 0170) against libxml2 validating the whole document: for
// generated files — the demo's writer over any number of payments, with or without a receipt per invoice,
// AT's demonstration file (stock movements, working documents, receipts, suppliers), the marketplace's — whose
// receipts, stock movements and working documents are multiplied (big sections, renumbered) and to which a
// general ledger may be added (a chart of accounts grouped under others, journals, transactions naming
// customers and accounts), with faults anywhere (the Header, a customer, an account's, customer's, supplier's
// or product's key repeated, a grouping account unknown, an invoice deep in the file, a product no line can
// name, an invoice, receipt, stock movement, working document, transaction or journal number repeated, a
// receipt naming an unknown customer, with a bad date or without its totals, a section's control totals…),
// cut into pieces of any size, with any bound on the frame, plain or gzip, the pieces are valid exactly when
// the whole is, and their first complaint is the whole's, at the file's line.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { cutSaftForSchema } from '../../../domain/sources/saft-schema-pieces';
import { decodeWindows1252 } from '../../../domain/statements/decode';
import type { DemoPayment } from '../../../server/seed/demo-payments';
import { writeDemoSaft } from '../../../server/seed/source-files';
import { saftSchemaErrors, saftSchemaValidator } from '../../../server/sources/saft-schema';
import { SOURCE_FIXTURES } from '../../support/saft-xsd';

const utf8Fixture = (name: string) => {
  const bytes = readFileSync(`${SOURCE_FIXTURES}${name}`);
  const text = /encoding="windows-1252"/i.test(bytes.subarray(0, 100).toString('latin1'))
    ? decodeWindows1252(bytes).replace(/encoding="windows-1252"/i, 'encoding="UTF-8"')
    : bytes.toString('utf8');
  return text;
};
const AT_DEMO = utf8Fixture('saft-pt-at-demo-599999999.xml');
const MADE_HERE = utf8Fixture('made-here-saft-pt-marketplace-utf8.xml');

function demoMonth(count: number, customers: number, receipts: boolean): string {
  const payments: DemoPayment[] = Array.from({ length: count }, (_, i) => ({
    reference: `${String(i).padStart(8, '0')}-4e3b-4a7c-9d2e-${String(i * 7919).padStart(12, '0')}`,
    kind: i % 4 === 0 ? 'subscription' : 'case',
    customerId: `u${i % customers}`,
    customerName: `Cliente ${i % customers}`,
    customerTaxId: i % 3 === 0 ? null : String(200_000_000 + (i % customers)),
    grossCents: [1500, 2500, 1990][i % 3]!,
    paidOn: `2031-01-${String(1 + (i % 28)).padStart(2, '0')}`,
    paymentIntentId: null,
    refunded: i % 7 === 0,
  }));
  return writeDemoSaft('2031-01', payments, '2031-02-01', { receipts });
}

/** `edit` applied to a section's text only (a receipt is `Payment`, as an invoice's means of payment). */
function inSection(xml: string, section: string, edit: (text: string) => string): string {
  const start = xml.indexOf(`<${section}>`);
  if (start === -1) return xml;
  const end = xml.indexOf(`</${section}>`, start);
  return xml.slice(0, start) + edit(xml.slice(start, end)) + xml.slice(end);
}

/** The documents of the sections other than invoices, each `copies` times, renumbered: big sections. */
const OTHER_DOCUMENTS = [
  { section: 'MovementOfGoods', entry: 'StockMovement', key: 'DocumentNumber' },
  { section: 'WorkingDocuments', entry: 'WorkDocument', key: 'DocumentNumber' },
  { section: 'Payments', entry: 'Payment', key: 'PaymentRefNo' },
] as const;
function withCopies(xml: string, copies: number): string {
  return OTHER_DOCUMENTS.reduce(
    (text, { section, entry, key }) =>
      inSection(text, section, (part) =>
        part.replace(new RegExp(`[ \\t]*<${entry}>[\\s\\S]*?</${entry}>\\n`, 'g'), (one) =>
          Array.from({ length: copies }, (_, c) =>
            one.replace(
              new RegExp(`(<${key}>[^<]*/)(\\d+)<`),
              (_m, head: string, n: string) => `${head}${Number(n) + c * 1_000_000}<`,
            ),
          ).join(''),
        ),
      ),
    xml,
  );
}

/**
 * An accounting SAF-T's sections added: a chart of accounts, each but the classes grouped under another — the
 * first under one that comes after it — and `extra` more, and a general ledger of `journals` journals of
 * `perJournal` sales each, to the file's customers, on the accounts of the chart's first lines.
 */
function withLedger(xml: string, journals: number, perJournal: number, extra: number): string {
  const customers = [...xml.matchAll(/<Customer>\s*<CustomerID>([^<]*)</g)].map((m) => m[1]!);
  const account = (id: string, description: string, groupedUnder?: string) => `      <Account>
        <AccountID>${id}</AccountID>
        <AccountDescription>${description}</AccountDescription>
        <OpeningDebitBalance>0.00</OpeningDebitBalance>
        <OpeningCreditBalance>0.00</OpeningCreditBalance>
        <ClosingDebitBalance>0.00</ClosingDebitBalance>
        <ClosingCreditBalance>0.00</ClosingCreditBalance>
        <GroupingCategory>${groupedUnder ? 'GA' : 'GR'}</GroupingCategory>${groupedUnder ? `\n        <GroupingCode>${groupedUnder}</GroupingCode>` : ''}
      </Account>
`;
  const chart = [
    account('2111', 'Clientes nacionais', '211'),
    account('711', 'Vendas de mercadorias', '71'),
    account('21', 'Clientes'),
    account('211', 'Clientes c/c', '21'),
    account('71', 'Vendas'),
    ...Array.from({ length: extra }, (_, i) => account(`72${i}`, `Prestações de serviços ${i}`, '71')),
  ].join('');
  const line = (side: 'Debit' | 'Credit', accountId: string) => `            <${side}Line>
              <RecordID>${side === 'Debit' ? 1 : 2}</RecordID>
              <AccountID>${accountId}</AccountID>
              <SystemEntryDate>2031-01-15T10:00:00</SystemEntryDate>
              <Description>Venda</Description>
              <${side}Amount>10.00</${side}Amount>
            </${side}Line>
`;
  const transaction = (j: number, t: number) => `        <Transaction>
          <TransactionID>2031-01-15 V${j} ${t + 1}</TransactionID>
          <Period>1</Period>
          <TransactionDate>2031-01-15</TransactionDate>
          <SourceID>contabilidade</SourceID>
          <Description>Venda</Description>
          <DocArchivalNumber>V${j}-${t + 1}</DocArchivalNumber>
          <TransactionType>N</TransactionType>
          <GLPostingDate>2031-01-15</GLPostingDate>
          <CustomerID>${customers[t % customers.length]}</CustomerID>
          <Lines>
${line('Debit', '2111')}${line('Credit', '711')}          </Lines>
        </Transaction>
`;
  const journal = (j: number) => `      <Journal>
        <JournalID>V${j}</JournalID>
        <Description>Vendas ${j}</Description>
${Array.from({ length: perJournal }, (_, t) => transaction(j, t)).join('')}      </Journal>
`;
  const ledger = `  <GeneralLedgerEntries>
    <NumberOfEntries>${journals * perJournal}</NumberOfEntries>
    <TotalDebit>${(journals * perJournal * 10).toFixed(2)}</TotalDebit>
    <TotalCredit>${(journals * perJournal * 10).toFixed(2)}</TotalCredit>
${Array.from({ length: journals }, (_, j) => journal(j + 1)).join('')}  </GeneralLedgerEntries>
`;
  return xml
    .replace(
      /<MasterFiles>\n/,
      `<MasterFiles>\n    <GeneralLedgerAccounts>\n      <TaxonomyReference>S</TaxonomyReference>\n${chart}    </GeneralLedgerAccounts>\n`,
    )
    .replace(/([ \t]*)<SourceDocuments>/, `${ledger}$1<SourceDocuments>`);
}

/** The `k`-th (modulo their count) match of `pattern` replaced by `replace(match)`. */
function atNth(text: string, pattern: RegExp, k: number, replace: (match: string) => string): string {
  const matches = [...text.matchAll(new RegExp(pattern.source, 'g'))];
  if (matches.length === 0) return text;
  const m = matches[k % matches.length]!;
  return text.slice(0, m.index) + replace(m[0]) + text.slice(m.index + m[0].length);
}

const firstOf = (text: string, pattern: RegExp) => pattern.exec(text)?.[1] ?? '';

/** Faults in every part a piece holds or names. */
const FAULTS: Record<string, (xml: string, k: number) => string> = {
  header: (xml) => xml.replace(/<TaxAccountingBasis>[^<]*</, '<TaxAccountingBasis>Q<'),
  customerField: (xml, k) =>
    atNth(xml, /<Customer>[\s\S]*?<\/Customer>/, k, (c) =>
      c.replace(/<CompanyName>[^<]*<\/CompanyName>/, ''),
    ),
  customerIdRepeated: (xml, k) =>
    atNth(xml, /<Customer>\s*<CustomerID>[^<]*</, k + 1, (c) =>
      c.replace(/<CustomerID>[^<]*</, `<CustomerID>${firstOf(xml, /<Customer>\s*<CustomerID>([^<]*)</)}<`),
    ),
  productCodeRepeated: (xml, k) =>
    atNth(xml, /<Product>\s*<ProductType>[^<]*<\/ProductType>\s*<ProductCode>[^<]*</, k + 1, (p) =>
      p.replace(
        /<ProductCode>[^<]*</,
        `<ProductCode>${firstOf(xml, /<Product>[\s\S]*?<ProductCode>([^<]*)</)}<`,
      ),
    ),
  deepInvoice: (xml, k) => atNth(xml, /<InvoiceDate>[^<]*</, k, () => '<InvoiceDate>2031-13-45<'),
  invoiceWithoutHash: (xml, k) =>
    atNth(xml, /<Invoice>[\s\S]*?<\/Invoice>/, k, (i) => i.replace(/<Hash>[^<]*<\/Hash>/, '')),
  unknownCustomer: (xml, k) =>
    atNth(xml, /<Invoice>[\s\S]*?<\/Invoice>/, k, (i) =>
      i.replace(/<CustomerID>[^<]*</, '<CustomerID>NOBODY<'),
    ),
  unknownProduct: (xml, k) =>
    atNth(xml, /<Line>[\s\S]*?<ProductCode>[^<]*</, k, (l) =>
      l.replace(/<ProductCode>[^<]*<$/, '<ProductCode>NOPE<'),
    ),
  numberRepeated: (xml, k) =>
    atNth(xml, /<Invoice>\s*<InvoiceNo>[^<]*</, k + 1, (i) =>
      i.replace(/<InvoiceNo>[^<]*</, `<InvoiceNo>${firstOf(xml, /<Invoice>\s*<InvoiceNo>([^<]*)</)}<`),
    ),
  totals: (xml) => xml.replace(/<TotalCredit>[^<]*</, '<TotalCredit>abc<'),
  supplierIdRepeated: (xml, k) =>
    atNth(xml, /<Supplier>\s*<SupplierID>[^<]*</, k + 1, (c) =>
      c.replace(/<SupplierID>[^<]*</, `<SupplierID>${firstOf(xml, /<Supplier>\s*<SupplierID>([^<]*)</)}<`),
    ),
  receiptUnknownCustomer: (xml, k) =>
    inSection(xml, 'Payments', (part) =>
      atNth(part, /<Payment>[\s\S]*?<\/Payment>/, k, (p) =>
        p.replace(/<CustomerID>[^<]*</, '<CustomerID>NOBODY<'),
      ),
    ),
  receiptNumberRepeated: (xml, k) =>
    inSection(xml, 'Payments', (part) =>
      atNth(
        part,
        /<PaymentRefNo>[^<]*</,
        k + 1,
        () => `<PaymentRefNo>${firstOf(part, /<PaymentRefNo>([^<]*)</)}<`,
      ),
    ),
  receiptBadDate: (xml, k) =>
    inSection(xml, 'Payments', (part) =>
      atNth(part, /<TransactionDate>[^<]*</, k, () => '<TransactionDate>2031-13-45<'),
    ),
  receiptWithoutTotals: (xml, k) =>
    inSection(xml, 'Payments', (part) =>
      atNth(part, /<Payment>[\s\S]*?<\/Payment>/, k, (p) =>
        p.replace(/<DocumentTotals>[\s\S]*?<\/DocumentTotals>/, ''),
      ),
    ),
  receiptsControlTotal: (xml) =>
    inSection(xml, 'Payments', (part) => part.replace(/<TotalDebit>[^<]*</, '<TotalDebit>-<')),
  movementNumberRepeated: (xml, k) =>
    inSection(xml, 'MovementOfGoods', (part) =>
      atNth(
        part,
        /<DocumentNumber>[^<]*</,
        k + 1,
        () => `<DocumentNumber>${firstOf(part, /<DocumentNumber>([^<]*)</)}<`,
      ),
    ),
  movementUnknownProduct: (xml, k) =>
    inSection(xml, 'MovementOfGoods', (part) =>
      atNth(part, /<ProductCode>[^<]*</, k, () => '<ProductCode>NOPE<'),
    ),
  movementUnknownSupplier: (xml, k) =>
    inSection(xml, 'MovementOfGoods', (part) =>
      atNth(part, /<CustomerID>[^<]*<\/CustomerID>/, k, () => '<SupplierID>NOBODY</SupplierID>'),
    ),
  accountIdRepeated: (xml, k) =>
    inSection(xml, 'GeneralLedgerAccounts', (part) =>
      atNth(part, /<AccountID>[^<]*</, k + 1, () => `<AccountID>${firstOf(part, /<AccountID>([^<]*)</)}<`),
    ),
  groupingCodeUnknown: (xml, k) =>
    inSection(xml, 'GeneralLedgerAccounts', (part) =>
      atNth(part, /<GroupingCode>[^<]*</, k, () => '<GroupingCode>999<'),
    ),
  transactionIdRepeated: (xml, k) =>
    inSection(xml, 'GeneralLedgerEntries', (part) =>
      atNth(
        part,
        /<TransactionID>[^<]*</,
        k + 1,
        () => `<TransactionID>${firstOf(part, /<TransactionID>([^<]*)</)}<`,
      ),
    ),
  transactionUnknownCustomer: (xml, k) =>
    inSection(xml, 'GeneralLedgerEntries', (part) =>
      atNth(part, /<CustomerID>[^<]*</, k, () => '<CustomerID>NOBODY<'),
    ),
  transactionUnknownAccount: (xml, k) =>
    inSection(xml, 'GeneralLedgerEntries', (part) =>
      atNth(part, /<AccountID>[^<]*</, k, () => '<AccountID>999<'),
    ),
  journalIdRepeated: (xml, k) =>
    inSection(xml, 'GeneralLedgerEntries', (part) =>
      atNth(part, /<JournalID>[^<]*</, k + 1, () => `<JournalID>${firstOf(part, /<JournalID>([^<]*)</)}<`),
    ),
  workDocumentNumberRepeated: (xml, k) =>
    inSection(xml, 'WorkingDocuments', (part) =>
      atNth(
        part,
        /<DocumentNumber>[^<]*</,
        k + 1,
        () => `<DocumentNumber>${firstOf(part, /<DocumentNumber>([^<]*)</)}<`,
      ),
    ),
  workDocumentUnknownCustomer: (xml, k) =>
    inSection(xml, 'WorkingDocuments', (part) =>
      atNth(part, /<CustomerID>[^<]*</, k, () => '<CustomerID>NOBODY<'),
    ),
  lastInvoiceCut: (xml) => xml.replace(/(<Invoice>[\s\S]*)<DocumentTotals>[\s\S]*?<\/DocumentTotals>/, '$1'),
};

/** A file by name, so that a counterexample prints its recipe, not its text. */
const arbitraryFile = fc.oneof(
  fc.constant({ fixture: 'AT_DEMO' as const }),
  fc.constant({ fixture: 'MADE_HERE' as const }),
  fc.record({
    count: fc.integer({ min: 1, max: 40 }),
    customers: fc.integer({ min: 1, max: 15 }),
    receipts: fc.boolean(),
  }),
);
type ArbitraryFile =
  | { fixture: 'AT_DEMO' | 'MADE_HERE' }
  | { count: number; customers: number; receipts: boolean };
const fileText = (file: ArbitraryFile) =>
  'fixture' in file
    ? file.fixture === 'AT_DEMO'
      ? AT_DEMO
      : MADE_HERE
    : demoMonth(file.count, file.customers, file.receipts);

const arbitraryCase = fc.record({
  file: arbitraryFile,
  faults: fc.array(fc.record({ fault: fc.constantFrom(...Object.keys(FAULTS)), k: fc.nat(60) }), {
    maxLength: 3,
  }),
  copies: fc.integer({ min: 1, max: 6 }),
  ledger: fc.option(
    fc.record({
      journals: fc.integer({ min: 1, max: 3 }),
      perJournal: fc.integer({ min: 0, max: 12 }),
      accounts: fc.integer({ min: 0, max: 20 }),
    }),
  ),
  pieceChars: fc.integer({ min: 1, max: 20_000 }),
  // A frame over this is checked whole instead (decision 0170): the same answer.
  maxFrameChars: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
  gzip: fc.boolean(),
});

describe('the SAF-T schema check in pieces', () => {
  it('agrees with the whole document: valid or not, and the first complaint with its line', async () => {
    const validate = await saftSchemaValidator();
    await fc.assert(
      fc.asyncProperty(
        arbitraryCase,
        async ({ file, copies, ledger, faults, pieceChars, maxFrameChars, gzip }) => {
          const sections = withCopies(fileText(file), copies);
          const xml = faults.reduce(
            (text, { fault, k }) => FAULTS[fault]!(text, k),
            ledger ? withLedger(sections, ledger.journals, ledger.perJournal, ledger.accounts) : sections,
          );
          const whole = validate(xml).map(({ line, message }) => `line ${line}: ${message}`);
          const bytes = new TextEncoder().encode(xml);
          const check = await saftSchemaErrors(gzip ? gzipSync(bytes) : bytes, {
            pieceChars,
            maxFrameChars,
          });
          expect(check.checked).toBe(true);
          if (!check.checked) return;
          expect(check.errors.length === 0).toBe(whole.length === 0);
          expect(check.errors[0]).toBe(whole[0]);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('cuts the same pieces however the text comes in', () => {
    const pieces = (chunk: number) => {
      const parts = MADE_HERE.match(new RegExp(`[\\s\\S]{1,${chunk}}`, 'g'))!;
      const out: string[] = [];
      cutSaftForSchema(
        () => {
          let at = 1;
          return { first: parts[0]!, next: () => parts[at++] ?? null };
        },
        { sliceChars: 1_000, maxFrameChars: 1e6 },
        (piece) => {
          out.push(piece.xml);
          return true;
        },
      );
      return out;
    };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), (chunk) => {
        expect(pieces(chunk)).toEqual(pieces(1e6));
      }),
    );
  });
});
