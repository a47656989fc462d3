import { centsToDecimal } from '../../domain/money';
import type { Queryable } from '../db/client';
import { type DemoPayment, type DemoPayout, readDemoPayments, weeklyPayouts } from './demo-payments';

/**
 * The demo's month as the two real sources would hand it over (issue 31, decision 0149): the invoicing
 * program's SAF-T (PT) export of the month's sales and Stripe's itemized payout reconciliation report of
 * the month's payouts, both made from the seeded payments (`demo-payments.ts`), so reading them back
 * gives the seed's own totals. The import tests and the browser flow upload these.
 */

const ISSUER = { taxId: '599999993', name: 'Consultas Online, Lda.' };
/** The final consumer's NIF: an invoice to a customer without one. */
const FINAL_CONSUMER = '999999990';
/**
 * The series' validation code AT gives (ATCUD = code-number). Each year's series (`FR CO2026/…`) is a series
 * of its own with a code of its own, so a number that starts again in January never repeats an ATCUD;
 * 2026's codes are the ones the test fixtures were written with.
 */
const seriesCode = (year: string, kind: 'FR' | 'FT' | 'NC' | 'RG') =>
  kind === 'FT' || kind === 'RG'
    ? `JFJ3${kind}${year}`
    : year === '2026'
      ? kind === 'FR'
        ? 'JFJ3K8ZM'
        : 'JFJ3K8NC'
      : `JFJ3${kind === 'FR' ? 'ZM' : 'NC'}${year}`;

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const money = (cents: number) => centsToDecimal(cents);

const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

const productOf = (payment: DemoPayment) =>
  payment.kind === 'case' ? 'Consulta médica por vídeo' : 'Subscrição de acompanhamento médico';

interface SaftCustomer {
  id: string;
  taxId: string;
  name: string;
}

/** One customer entry per NIF; everyone without one is the final consumer. */
function customersOf(payments: readonly DemoPayment[]): Map<string, SaftCustomer> {
  const byPayment = new Map<string, SaftCustomer>();
  const byTaxId = new Map<string, SaftCustomer>();
  for (const payment of payments) {
    const taxId = payment.customerTaxId ?? FINAL_CONSUMER;
    let customer = byTaxId.get(taxId);
    if (!customer) {
      const name = taxId === FINAL_CONSUMER ? 'Consumidor final' : payment.customerName.slice(0, 100);
      customer = { id: `C${byTaxId.size + 1}`, taxId, name };
      byTaxId.set(taxId, customer);
    }
    byPayment.set(payment.reference, customer);
  }
  return byPayment;
}

function customerXml(c: SaftCustomer): string {
  const unknown = 'Desconhecido';
  return `    <Customer>
      <CustomerID>${c.id}</CustomerID>
      <AccountID>${unknown}</AccountID>
      <CustomerTaxID>${c.taxId}</CustomerTaxID>
      <CompanyName>${escapeXml(c.name)}</CompanyName>
      <BillingAddress>
        <AddressDetail>${unknown}</AddressDetail>
        <City>${unknown}</City>
        <PostalCode>${unknown}</PostalCode>
        <Country>${unknown}</Country>
      </BillingAddress>
      <SelfBillingIndicator>0</SelfBillingIndicator>
    </Customer>
`;
}

interface SaftDocumentOut {
  number: string;
  atcud: string;
  type: 'FR' | 'FT' | 'NC';
  status: 'N' | 'A';
  reason: string | null;
  payment: DemoPayment;
  customer: SaftCustomer;
  /** For a credit note: the invoice it corrects. */
  corrects: string | null;
}

function documentXml(d: SaftDocumentOut): string {
  const { payment } = d;
  const date = payment.paidOn;
  const amount = money(payment.grossCents);
  const credit = d.type === 'NC';
  const reference = credit
    ? `
          <References>
            <Reference>${d.corrects}</Reference>
            <Reason>Reembolso ao cliente</Reason>
          </References>`
    : '';
  const order = credit
    ? ''
    : `
          <OrderReferences>
            <OriginatingON>${payment.reference}</OriginatingON>
            <OrderDate>${date}</OrderDate>
          </OrderReferences>`;
  const description = `${credit ? 'Reembolso de ' : ''}${payment.kind === 'case' ? 'Consulta' : 'Subscrição'} ${payment.reference}`;
  return `      <Invoice>
        <InvoiceNo>${d.number}</InvoiceNo>
        <ATCUD>${d.atcud}</ATCUD>
        <DocumentStatus>
          <InvoiceStatus>${d.status}</InvoiceStatus>
          <InvoiceStatusDate>${date}T10:00:00</InvoiceStatusDate>${d.reason ? `\n          <Reason>${escapeXml(d.reason)}</Reason>` : ''}
          <SourceID>plataforma</SourceID>
          <SourceBilling>P</SourceBilling>
        </DocumentStatus>
        <Hash>0</Hash>
        <HashControl>1</HashControl>
        <Period>${Number(date.slice(5, 7))}</Period>
        <InvoiceDate>${date}</InvoiceDate>
        <InvoiceType>${d.type}</InvoiceType>
        <SpecialRegimes>
          <SelfBillingIndicator>0</SelfBillingIndicator>
          <CashVATSchemeIndicator>0</CashVATSchemeIndicator>
          <ThirdPartiesBillingIndicator>0</ThirdPartiesBillingIndicator>
        </SpecialRegimes>
        <SourceID>plataforma</SourceID>
        <SystemEntryDate>${date}T10:00:00</SystemEntryDate>
        <CustomerID>${d.customer.id}</CustomerID>
        <Line>
          <LineNumber>1</LineNumber>${order}
          <ProductCode>${payment.kind === 'case' ? 'CONSULTA' : 'SUBSCRICAO'}</ProductCode>
          <ProductDescription>${productOf(payment)}</ProductDescription>
          <Quantity>1</Quantity>
          <UnitOfMeasure>UN</UnitOfMeasure>
          <UnitPrice>${amount}</UnitPrice>
          <TaxPointDate>${date}</TaxPointDate>${reference}
          <Description>${description}</Description>
          <${credit ? 'DebitAmount' : 'CreditAmount'}>${amount}</${credit ? 'DebitAmount' : 'CreditAmount'}>
          <Tax>
            <TaxType>IVA</TaxType>
            <TaxCountryRegion>PT</TaxCountryRegion>
            <TaxCode>ISE</TaxCode>
            <TaxPercentage>0</TaxPercentage>
          </Tax>
          <TaxExemptionReason>Isento artigo 9.º do CIVA</TaxExemptionReason>
          <TaxExemptionCode>M07</TaxExemptionCode>
        </Line>
        <DocumentTotals>
          <TaxPayable>0.00</TaxPayable>
          <NetTotal>${amount}</NetTotal>
          <GrossTotal>${amount}</GrossTotal>
        </DocumentTotals>
      </Invoice>
`;
}

/** `SourceDocuments/Payments`: a receipt for each invoice, paid by card the day it was issued. */
function receiptsXml(year: string, invoices: readonly SaftDocumentOut[]): string {
  const total = invoices.reduce((sum, d) => sum + d.payment.grossCents, 0);
  const receipt = (d: SaftDocumentOut, k: number) => {
    const date = d.payment.paidOn;
    const amount = money(d.payment.grossCents);
    return `      <Payment>
        <PaymentRefNo>RG CO${year}/${k + 1}</PaymentRefNo>
        <ATCUD>${seriesCode(year, 'RG')}-${k + 1}</ATCUD>
        <Period>${Number(date.slice(5, 7))}</Period>
        <TransactionDate>${date}</TransactionDate>
        <PaymentType>RG</PaymentType>
        <DocumentStatus>
          <PaymentStatus>N</PaymentStatus>
          <PaymentStatusDate>${date}T10:00:00</PaymentStatusDate>
          <SourceID>plataforma</SourceID>
          <SourcePayment>P</SourcePayment>
        </DocumentStatus>
        <PaymentMethod>
          <PaymentMechanism>CC</PaymentMechanism>
          <PaymentAmount>${amount}</PaymentAmount>
          <PaymentDate>${date}</PaymentDate>
        </PaymentMethod>
        <SourceID>plataforma</SourceID>
        <SystemEntryDate>${date}T10:00:00</SystemEntryDate>
        <CustomerID>${d.customer.id}</CustomerID>
        <Line>
          <LineNumber>1</LineNumber>
          <SourceDocumentID>
            <OriginatingON>${d.number}</OriginatingON>
            <InvoiceDate>${date}</InvoiceDate>
          </SourceDocumentID>
          <CreditAmount>${amount}</CreditAmount>
        </Line>
        <DocumentTotals>
          <TaxPayable>0.00</TaxPayable>
          <NetTotal>${amount}</NetTotal>
          <GrossTotal>${amount}</GrossTotal>
        </DocumentTotals>
      </Payment>
`;
  };
  return `    <Payments>
      <NumberOfEntries>${invoices.length}</NumberOfEntries>
      <TotalDebit>0.00</TotalDebit>
      <TotalCredit>${money(total)}</TotalCredit>
${invoices.map(receipt).join('')}    </Payments>
`;
}

/**
 * The month's sales as the invoicing program's SAF-T (PT) 1.04_01 export, UTF-8: a fatura-recibo (FR)
 * per payment made that month (VAT-exempt health services, art. 9 CIVA, M07) with the case or
 * subscription payment in `OrderReferences/OriginatingON` and in the line's description, a credit note
 * (NC) the same day for each refunded one, and the month's first invoice issued once before by mistake
 * and cancelled (status A, with its reason); numbered on from the year's earlier months in `payments`.
 * Control totals by Portaria 302/2016's rule (decision 0148). With `receipts`, as a marketplace that bills
 * with invoices (FT) and a receipt (RG) for each: `SourceDocuments/Payments` holds one receipt per invoice
 * not cancelled (the section a month's XSD check slices too, decision 0170).
 */
export function writeDemoSaft(
  month: string,
  payments: readonly DemoPayment[],
  createdOn: string,
  options: { receipts?: boolean } = {},
): string {
  const invoiceType = options.receipts ? 'FT' : 'FR';
  const sales = payments
    .filter((p) => p.paidOn.startsWith(month))
    .sort((a, b) =>
      a.paidOn === b.paidOn ? (a.reference < b.reference ? -1 : 1) : a.paidOn < b.paidOn ? -1 : 1,
    );
  const customers = customersOf(sales);
  const year = month.slice(0, 4);
  const documents: SaftDocumentOut[] = [];
  // A series is numbered through the year (and its ATCUD with it): this month's first document follows
  // the year's earlier months' (their invoices, each month's cancelled one, their credit notes).
  const earlier = payments.filter((p) => p.paidOn.startsWith(year) && p.paidOn.slice(0, 7) < month);
  let invoiceSeq = earlier.length + new Set(earlier.map((p) => p.paidOn.slice(0, 7))).size;
  let creditSeq = earlier.filter((p) => p.refunded).length;
  const invoice = (payment: DemoPayment, status: 'N' | 'A', reason: string | null) => {
    invoiceSeq++;
    const number = `${invoiceType} CO${year}/${invoiceSeq}`;
    const customer = customers.get(payment.reference)!;
    const atcud = `${seriesCode(year, invoiceType)}-${invoiceSeq}`;
    documents.push({ number, atcud, type: invoiceType, status, reason, payment, customer, corrects: null });
    return number;
  };
  if (sales[0]) invoice(sales[0], 'A', 'Emitida em duplicado');
  for (const payment of sales) {
    const number = invoice(payment, 'N', null);
    if (!payment.refunded) continue;
    creditSeq++;
    documents.push({
      number: `NC CO${year}/${creditSeq}`,
      atcud: `${seriesCode(year, 'NC')}-${creditSeq}`,
      type: 'NC',
      status: 'N',
      reason: null,
      payment,
      customer: customers.get(payment.reference)!,
      corrects: number,
    });
  }
  const kept = documents.filter((d) => d.status !== 'A');
  const sum = (type: 'FR' | 'FT' | 'NC') =>
    kept.filter((d) => d.type === type).reduce((total, d) => total + d.payment.grossCents, 0);
  const uniqueCustomers = [...new Map([...customers.values()].map((c) => [c.id, c])).values()];
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>
<AuditFile xmlns="urn:OECD:StandardAuditFile-Tax:PT_1.04_01">
  <Header>
    <AuditFileVersion>1.04_01</AuditFileVersion>
    <CompanyID>${ISSUER.taxId}</CompanyID>
    <TaxRegistrationNumber>${ISSUER.taxId}</TaxRegistrationNumber>
    <TaxAccountingBasis>F</TaxAccountingBasis>
    <CompanyName>${escapeXml(ISSUER.name)}</CompanyName>
    <CompanyAddress>
      <AddressDetail>Avenida da República, 50</AddressDetail>
      <City>Lisboa</City>
      <PostalCode>1050-196</PostalCode>
      <Country>PT</Country>
    </CompanyAddress>
    <FiscalYear>${year}</FiscalYear>
    <StartDate>${month}-01</StartDate>
    <EndDate>${lastDay(month)}</EndDate>
    <CurrencyCode>EUR</CurrencyCode>
    <DateCreated>${createdOn}</DateCreated>
    <TaxEntity>Global</TaxEntity>
    <ProductCompanyTaxID>599999999</ProductCompanyTaxID>
    <SoftwareCertificateNumber>0</SoftwareCertificateNumber>
    <ProductID>Faturação de demonstração/Admin Panel v2</ProductID>
    <ProductVersion>1.0</ProductVersion>
  </Header>
  <MasterFiles>
`,
    ...uniqueCustomers.map(customerXml),
    `    <Product>
      <ProductType>S</ProductType>
      <ProductCode>CONSULTA</ProductCode>
      <ProductDescription>Consulta médica por vídeo</ProductDescription>
      <ProductNumberCode>CONSULTA</ProductNumberCode>
    </Product>
    <Product>
      <ProductType>S</ProductType>
      <ProductCode>SUBSCRICAO</ProductCode>
      <ProductDescription>Subscrição de acompanhamento médico</ProductDescription>
      <ProductNumberCode>SUBSCRICAO</ProductNumberCode>
    </Product>
    <TaxTable>
      <TaxTableEntry>
        <TaxType>IVA</TaxType>
        <TaxCountryRegion>PT</TaxCountryRegion>
        <TaxCode>ISE</TaxCode>
        <Description>Isento</Description>
        <TaxPercentage>0</TaxPercentage>
      </TaxTableEntry>
    </TaxTable>
  </MasterFiles>
  <SourceDocuments>
    <SalesInvoices>
      <NumberOfEntries>${documents.length}</NumberOfEntries>
      <TotalDebit>${money(sum('NC'))}</TotalDebit>
      <TotalCredit>${money(sum(invoiceType))}</TotalCredit>
`,
    ...documents.map(documentXml),
    `    </SalesInvoices>
`,
    options.receipts
      ? receiptsXml(
          year,
          kept.filter((d) => d.type === 'FT'),
        )
      : '',
    `  </SourceDocuments>
</AuditFile>
`,
  ];
  return parts.join('');
}

/** The default columns of `payout_reconciliation.itemized.5` and the charge's ids (SOURCES.md). */
const STRIPE_COLUMNS = [
  'automatic_payout_id',
  'automatic_payout_effective_at',
  'balance_transaction_id',
  'created_utc',
  'available_on_utc',
  'currency',
  'gross',
  'fee',
  'net',
  'reporting_category',
  'source_id',
  'description',
  'customer_facing_amount',
  'customer_facing_currency',
  'charge_id',
  'payment_intent_id',
];

/** A Stripe-looking id made from the reference: the same payment always gets the same ids. */
const stripeId = (prefix: string, reference: string) =>
  `${prefix}_${reference.replace(/-/g, '').slice(0, 24)}`;

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export interface DemoStripePayout extends DemoPayout {
  /** `po_…`, as in `provider_payouts.provider_payout_id`. */
  id: string;
}

/** The payouts as Stripe's itemized payout reconciliation report (CSV, EUR in major units, LF line ends). */
export function writeDemoStripeReport(payouts: readonly DemoStripePayout[]): string {
  const lines = [STRIPE_COLUMNS.join(',')];
  for (const payout of payouts) {
    for (const row of payout.rows) {
      const { payment } = row;
      const charge = stripeId('ch', payment.reference);
      const label = `${payment.kind === 'case' ? 'Consulta' : 'Subscrição'} ${payment.reference}`;
      const refund = row.kind === 'refund';
      const cells = [
        payout.id,
        `${payout.date} 00:00:00`,
        stripeId(refund ? 'txnr' : 'txn', payment.reference),
        `${payment.paidOn} ${refund ? '18' : '10'}:00:00`,
        `${payout.date} 00:00:00`,
        'eur',
        money(row.grossCents),
        money(row.feeCents),
        money(row.netCents),
        row.kind,
        refund ? stripeId('re', payment.reference) : charge,
        refund ? `REFUND FOR CHARGE (${label})` : label,
        money(payment.grossCents),
        'eur',
        charge,
        payment.paymentIntentId ?? stripeId('pi', payment.reference),
      ];
      lines.push(cells.map(csvCell).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The default columns of Stripe's Balance report, itemized payouts (`payouts.itemized.5`; SOURCES.md). */
const STRIPE_BALANCE_PAYOUT_COLUMNS = [
  'balance_transaction_id',
  'currency',
  'description',
  'effective_at',
  'fee',
  'gross',
  'net',
  'payout_expected_arrival_date',
  'payout_id',
  'payout_status',
  'reporting_category',
];

/**
 * The payouts as Stripe's Balance report states them (decision 0171): each its own balance transaction,
 * the amount taken out of the balance (net −amount), paid on its day.
 */
export function writeDemoStripeBalancePayouts(payouts: readonly DemoStripePayout[]): string {
  const lines = [STRIPE_BALANCE_PAYOUT_COLUMNS.join(',')];
  for (const payout of payouts) {
    const amount = money(-payout.netCents);
    lines.push(
      [
        stripeId('txn', payout.id),
        'eur',
        'STRIPE PAYOUT',
        `${payout.date} 00:00:00`,
        money(0),
        amount,
        amount,
        payout.date,
        payout.id,
        'paid',
        'payout',
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface DemoSourceFiles {
  /** The month's SAF-T (PT), UTF-8 text. */
  saft: string;
  /** Stripe's itemized report of the payouts effective that month. */
  stripeReport: string;
  /** What the files were made from, for the tests that check them. */
  payments: DemoPayment[];
  payouts: DemoStripePayout[];
}

/**
 * The seeded database's month (`YYYY-MM`) as the two source files. The payouts are the seed's own
 * (`provider_payouts`), their rows rebuilt from the same payments with the same weekly plan.
 */
export async function writeDemoSourceFiles(db: Queryable, month: string): Promise<DemoSourceFiles> {
  const payments = await readDemoPayments(db);
  const { rows } = await db.query<{ provider_payout_id: string; payout_date: string }>(
    `SELECT provider_payout_id, to_char(payout_date, 'YYYY-MM-DD') AS payout_date
       FROM provider_payouts ORDER BY payout_date`,
  );
  const ids = new Map(rows.map((r) => [r.payout_date, r.provider_payout_id]));
  const payouts = weeklyPayouts(payments, [...ids.keys()])
    .filter((p) => p.date.startsWith(month))
    .map((p) => ({ ...p, id: ids.get(p.date)! }));
  return {
    saft: writeDemoSaft(month, payments, `${lastDay(month)}`),
    stripeReport: writeDemoStripeReport(payouts),
    payments,
    payouts,
  };
}
