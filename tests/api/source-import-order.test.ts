// Issue 31's property: the payouts and the invoices, imported over HTTP in any order (the Stripe month
// one payout per file, Stripe's Balance report of the month's payouts, the SAF-T month as its credit notes
// and its other documents), end with the same links — each balance transaction to the same settlement,
// each invoice to the same settlement, each credit note to the same invoice — and the same payouts, each
// checked against its stated amount (decision 0171). Every run starts from the seeded database with
// nothing imported.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DemoSourceFiles,
  writeDemoSaft,
  writeDemoSourceFiles,
  writeDemoStripeBalancePayouts,
} from '../../server/seed/source-files';
import { testDatabaseKinds } from '../support/databases';
import { importSource, SOURCE_MONTH, type SourceApi, seededSourceApi, utf8 } from './source-support';

interface Upload {
  kind: 'STRIPE_PAYOUTS' | 'STRIPE_BALANCE_PAYOUTS' | 'SAFT_INVOICES';
  fileName: string;
  bytes: Uint8Array;
}

/**
 * A SAF-T month as two valid files: its credit notes (NC), and everything else; each file's control totals
 * (documents, Σ debit lines, Σ credit lines of the documents not cancelled) recomputed for what it holds.
 */
function splitCreditNotes(saft: string): [string, string] {
  const start = saft.indexOf('      <Invoice>');
  const end = saft.indexOf('    </SalesInvoices>');
  const documents = saft.slice(start, end).split(/(?= {6}<Invoice>)/);
  const head = saft.slice(0, start);
  const tail = saft.slice(end);
  const cents = (text: string, tag: string) =>
    [...text.matchAll(new RegExp(`<${tag}>([0-9.]+)</${tag}>`, 'g'))].reduce(
      (sum, m) => sum + Math.round(Number(m[1]) * 100),
      0,
    );
  const fileOf = (kept: string[]) => {
    const counted = kept.filter((d) => !d.includes('<InvoiceStatus>A</InvoiceStatus>')).join('');
    const euros = (total: number) => (total / 100).toFixed(2);
    return (
      head
        .replace(
          /<NumberOfEntries>\d+<\/NumberOfEntries>/,
          `<NumberOfEntries>${kept.length}</NumberOfEntries>`,
        )
        .replace(
          /<TotalDebit>[0-9.]+<\/TotalDebit>/,
          `<TotalDebit>${euros(cents(counted, 'DebitAmount'))}</TotalDebit>`,
        )
        .replace(
          /<TotalCredit>[0-9.]+<\/TotalCredit>/,
          `<TotalCredit>${euros(cents(counted, 'CreditAmount'))}</TotalCredit>`,
        ) +
      kept.join('') +
      tail
    );
  };
  const isNote = (d: string) => d.includes('<InvoiceType>NC</InvoiceType>');
  return [fileOf(documents.filter(isNote)), fileOf(documents.filter((d) => !isNote(d)))];
}

describe.each(testDatabaseKinds())('links whatever the order of imports on $name', (kind) => {
  let api: SourceApi;
  let files: DemoSourceFiles;
  let uploads: Upload[];

  beforeAll(async () => {
    api = await seededSourceApi(kind);
    files = await writeDemoSourceFiles(api.db, SOURCE_MONTH);
    const [header, ...rows] = files.stripeReport.trimEnd().split('\n');
    // The month's credit notes in a file of their own: in some orders they come before their invoices.
    const [notes, invoices] = splitCreditNotes(files.saft);
    uploads = [
      { kind: 'SAFT_INVOICES', fileName: 'saft-notes.xml', bytes: utf8(notes) },
      { kind: 'SAFT_INVOICES', fileName: 'saft-invoices.xml', bytes: utf8(invoices) },
      {
        kind: 'STRIPE_BALANCE_PAYOUTS',
        fileName: 'balance-payouts.csv',
        bytes: utf8(writeDemoStripeBalancePayouts(files.payouts)),
      },
      ...files.payouts.map((payout) => ({
        kind: 'STRIPE_PAYOUTS' as const,
        fileName: `${payout.id}.csv`,
        bytes: utf8(`${[header, ...rows.filter((row) => row.startsWith(`${payout.id},`))].join('\n')}\n`),
      })),
    ];
    expect(uploads.length).toBeGreaterThan(2);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  /** Back to the seed: what the imports wrote removed, the seeded payouts as they were. */
  async function forgetImports() {
    await api.db.query('DELETE FROM provider_payout_rows');
    await api.db.query('DELETE FROM provider_invoices WHERE source_file_id IS NOT NULL');
    await api.db.query(
      `UPDATE provider_payouts SET source = NULL, gross_cents = NULL, fee_cents = NULL, net_cents = NULL,
              source_file_id = NULL, amount_checked = false, stated_amount_cents = NULL,
              expected_arrival_date = NULL, provider_status = NULL, stated_file_id = NULL`,
    );
    await api.db.query('DELETE FROM source_files');
    await api.db.query(`DELETE FROM statement_import_jobs WHERE kind <> 'STATEMENT'`);
  }

  async function links(): Promise<string[]> {
    const { rows: payoutRows } = await api.db.query<{ link: string }>(
      `SELECT source_id || ' → ' || coalesce(settlement_id::text, '-') AS link FROM provider_payout_rows`,
    );
    const { rows: documents } = await api.db.query<{ link: string }>(
      `SELECT i.provider_invoice_id || ' → ' || coalesce(i.settlement_id::text, '-') || ' / ' ||
              coalesce(c.provider_invoice_id, '-') AS link
         FROM provider_invoices i LEFT JOIN provider_invoices c ON c.id = i.credited_invoice_id
        WHERE i.source_file_id IS NOT NULL`,
    );
    const { rows: payouts } = await api.db.query<{ link: string }>(
      `SELECT concat_ws(' ', provider_payout_id, amount_cents, payout_date, gross_cents, fee_cents, net_cents,
                        stated_amount_cents, expected_arrival_date, provider_status,
                        CASE WHEN amount_checked THEN 'checked' ELSE 'unchecked' END) AS link
         FROM provider_payouts WHERE gross_cents IS NOT NULL OR stated_amount_cents IS NOT NULL`,
    );
    return [...payoutRows, ...documents, ...payouts].map((row) => row.link).sort();
  }

  /**
   * Each payout's kept settlements without invoice (migration 0056, decision 0167) — which the imports count
   * once, at their end, with the triggers standing aside — against the rule counted again here.
   */
  async function keptAgainstRecount(): Promise<{
    kept: Record<string, number>;
    recounted: Record<string, number>;
  }> {
    const { rows } = await api.db.query<{ id: string; kept: number; recounted: number }>(
      `SELECT p.provider_payout_id AS id, p.settlements_without_invoice AS kept,
              (SELECT count(DISTINCT r.settlement_id) FROM provider_payout_rows r
                WHERE r.payout_id = p.id AND r.row_kind = 'charge' AND r.settlement_id IS NOT NULL
                  AND r.settlement_id NOT IN (SELECT i.settlement_id FROM provider_invoices i
                                               WHERE i.settlement_id IS NOT NULL))::int AS recounted
         FROM provider_payouts p`,
    );
    return {
      kept: Object.fromEntries(rows.map((r) => [r.id, r.kept])),
      recounted: Object.fromEntries(rows.map((r) => [r.id, r.recounted])),
    };
  }

  async function expectKeptEqualsRecount(after: string) {
    const { kept, recounted } = await keptAgainstRecount();
    expect(kept, `kept after ${after}`).toEqual(recounted);
  }

  async function importAll(order: readonly Upload[]) {
    await forgetImports();
    for (const upload of order) {
      const imported = await importSource(api, upload.bytes, upload);
      expect(imported.job?.status, JSON.stringify(imported.body)).toBe('DONE');
      await expectKeptEqualsRecount(`${upload.fileName} of ${order.map((u) => u.fileName).join(', ')}`);
    }
    return links();
  }

  it('gives the same links in any order', async () => {
    const expected = await importAll(uploads);
    const documents = files.payments.filter((p) => p.paidOn.startsWith(SOURCE_MONTH)).length;
    // Every row and document is linked (a credit note to its invoice): nothing left to chance.
    expect(expected.filter((link) => link.includes('→ -') && !/ \/ (?!-)/.test(link))).toEqual([]);
    expect(expected.length).toBeGreaterThan(documents);
    // Every payout of the month stated and checked against its rows.
    const checked = expected.filter((link) => link.startsWith('po_') && link.endsWith(' checked'));
    expect(checked).toHaveLength(files.payouts.length);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(uploads, { minLength: uploads.length }), async (order) => {
        expect(await importAll(order)).toEqual(expected);
      }),
      { numRuns: kind.name === 'pglite' ? 6 : 4, seed: 20261128 },
    );
  }, 300_000);

  it('keeps each payout’s settlements without invoice through a SAF-T missing a payment, its late one and a file imported twice', async () => {
    await forgetImports();
    await expectKeptEqualsRecount('the imports forgotten');
    // A payment of the month paid out in one of its payouts, left out of the month's SAF-T.
    const payout = files.payouts.find((p) =>
      p.rows.some(
        (r) => r.kind === 'charge' && !r.payment.refunded && r.payment.paidOn.startsWith(SOURCE_MONTH),
      ),
    )!;
    const missing = payout.rows.find(
      (r) => r.kind === 'charge' && !r.payment.refunded && r.payment.paidOn.startsWith(SOURCE_MONTH),
    )!.payment;
    const withoutOne = writeDemoSaft(
      SOURCE_MONTH,
      files.payments.filter((p) => p.reference !== missing.reference),
      `${SOURCE_MONTH}-31`,
    );
    const steps: [string, Upload][] = [
      [
        'the SAF-T missing one payment',
        { kind: 'SAFT_INVOICES', fileName: 'saft-missing.xml', bytes: utf8(withoutOne) },
      ],
      // one payout's own file, then the whole month's report: that payout's rows are skipped the second time
      ['one payout’s file', uploads.find((u) => u.fileName === `${payout.id}.csv`)!],
      [
        'the month’s report',
        { kind: 'STRIPE_PAYOUTS', fileName: 'payouts.csv', bytes: utf8(files.stripeReport) },
      ],
    ];
    for (const [name, upload] of steps) {
      const imported = await importSource(api, upload.bytes, upload);
      expect(imported.job?.status, JSON.stringify(imported.body)).toBe('DONE');
      await expectKeptEqualsRecount(name);
    }
    const keptOf = async () => (await keptAgainstRecount()).kept[payout.id]!;
    const before = await keptOf();
    expect(before).toBeGreaterThan(0);
    // The same file again is refused and changes nothing.
    const again = await importSource(api, utf8(files.stripeReport), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'again.csv',
    });
    expect(again.body).toMatchObject({ code: 'SOURCE_ALREADY_IMPORTED' });
    await expectKeptEqualsRecount('the report imported twice');
    // The missing invoice in next month's SAF-T: its payout has one settlement without invoice fewer.
    const late = await importSource(
      api,
      utf8(writeDemoSaft('2026-02', [...files.payments, { ...missing, paidOn: '2026-02-02' }], '2026-02-28')),
      { kind: 'SAFT_INVOICES', fileName: 'saft-late.xml' },
    );
    expect(late.job?.status, JSON.stringify(late.body)).toBe('DONE');
    await expectKeptEqualsRecount('the late SAF-T');
    expect(await keptOf()).toBe(before - 1);
  }, 300_000);

  it('links an invoice naming no case to the one settlement of its amount, day and customer tax id', async () => {
    await forgetImports();
    // Which settlement each invoice bills, read from the file that names them.
    const billed = new Map(
      [
        ...files.saft.matchAll(
          /<InvoiceNo>(FR [^<]+)<\/InvoiceNo>[\s\S]*?<OriginatingON>([^<]+)<\/OriginatingON>/g,
        ),
      ].map((m) => [m[1]!, m[2]!]),
    );
    // The same month with no case named anywhere: no order reference, descriptions without the id.
    const unnamed = files.saft
      .replace(/\s*<OrderReferences>[\s\S]*?<\/OrderReferences>/g, '')
      .replace(/(<Description>[^<]*?) [0-9a-f-]{36}(<\/Description>)/g, '$1$2');
    expect(unnamed).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    // The month's payouts first: the invoices the amount rule links take their settlements off the payouts.
    const payouts = await importSource(api, utf8(files.stripeReport), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'payouts.csv',
    });
    expect(payouts.job?.status).toBe('DONE');
    const imported = await importSource(api, utf8(unnamed), {
      kind: 'SAFT_INVOICES',
      fileName: 'unnamed.xml',
    });
    expect(imported.job?.status).toBe('DONE');
    const { rows } = await api.db.query<{ invoice_no: string; billed: string; customer_tax_id: string }>(
      `SELECT i.invoice_no, coalesce(s.case_id, s.subscription_payment_id)::text AS billed, i.customer_tax_id
         FROM provider_invoices i JOIN settlements s ON s.id = i.settlement_id
        WHERE i.source_file_id IS NOT NULL AND i.link_method = 'AMOUNT_DATE_CUSTOMER'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.billed).toBe(billed.get(row.invoice_no));
      // The final consumer's NIF names no one: never a link by customer.
      expect(row.customer_tax_id).not.toBe('999999990');
    }
    await expectKeptEqualsRecount('the invoices linked by amount, day and customer');
  });
});
