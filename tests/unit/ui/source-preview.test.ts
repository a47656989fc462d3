import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { KNOWN_SOURCE_IDS_MAX as CONTRACT_MAX } from '../../../contract/source-import';
import { sourceContainerMismatch } from '../../../domain/sources/source-sniff';
import { knownSourceOutcome } from '../../../src/features/sources/import-actors';
import { KNOWN_SOURCE_IDS_MAX } from '../../../src/features/sources/limits';
import type {
  InvoicePreviewRow,
  PayoutPreviewRow,
  SourcePreviewMessage,
  SourcePreviewRequest,
} from '../../../src/features/sources/preview-protocol';
import { previewSource } from '../../../src/features/sources/read-source';
import { sourceKindOf } from '../../../src/features/sources/source-sniff';
import { headerKey } from '../../../src/kernel/column-mappings';

const FIXTURES = join(import.meta.dirname, '../../fixtures/sources');
const STRIPE = readFileSync(join(FIXTURES, 'made-here-stripe-payout-reconciliation-itemized-5.csv'));
const SAFT = readFileSync(join(FIXTURES, 'made-here-saft-pt-marketplace-utf8.xml'));
const encode = (text: string) => new TextEncoder().encode(text);
const PDF = encode('%PDF-1.7\n1 0 obj\n');

/** The worker's run on `bytes`: what it posted, in order, and what it decided. */
function run(bytes: Uint8Array, request: Partial<Omit<SourcePreviewRequest, 'bytes'>> = {}) {
  const messages: SourcePreviewMessage[] = [];
  // A copy of its own (a Buffer read from disk is a view on a shared pool), as the page transfers it.
  const copy = Uint8Array.from(bytes).buffer;
  const { outcome, details } = previewSource(
    { bytes: copy, kind: null, mapping: null, remembered: {}, ...request },
    (message) => messages.push(message),
  );
  const rows = messages.flatMap((m) => (m.type === 'rows' ? JSON.parse(m.json) : []));
  const ids = messages.flatMap((m) => (m.type === 'ids' ? m.ids : []));
  return { messages, rows, ids, outcome, details };
}

describe('which file the bytes are', () => {
  it("tells Stripe's Balance report of payouts from its itemized report by the header, and reads its payouts", () => {
    const balance = readFileSync(join(FIXTURES, 'made-here-stripe-balance-payouts-itemized-5.csv'));
    expect(sourceKindOf(balance)).toBe('STRIPE_BALANCE_PAYOUTS');
    expect(sourceKindOf(encode('"payout_status";"payout_id";"net"\n'))).toBe('STRIPE_BALANCE_PAYOUTS');
    // `payout_id` alone is any collector's column; the itemized report's `automatic_payout_id` is not it.
    expect(sourceKindOf(encode('payout_id,net\npo_1,1.00\n'))).toBe('COLLECTOR_PAYOUTS');
    expect(sourceKindOf(encode('automatic_payout_id,payout_status\n'))).toBe('STRIPE_PAYOUTS');
    const { outcome, ids, rows, details } = run(balance);
    expect(outcome).toMatchObject({
      kind: 'STRIPE_BALANCE_PAYOUTS',
      refusal: null,
      rows: 3,
      totalCents: 23_471,
    });
    expect(ids).toEqual(['po_1QaAmarketplace01', 'po_1QbBmarketplace02', 'po_1QcCmarketplace03']);
    expect(rows[2]).toMatchObject({
      payoutId: 'po_1QcCmarketplace03',
      status: 'failed',
      expectedArrivalDate: '2026-10-09',
    });
    expect(details).toMatchObject({ kind: 'statedPayouts', payoutCount: 3, withdrawn: 1, otherRows: 1 });
  });

  it('tells SAF-T (XML, gzip, ZIP) from Stripe’s report and a collector’s CSV, and a PDF from all three', () => {
    expect(sourceKindOf(SAFT)).toBe('SAFT_INVOICES');
    expect(sourceKindOf(gzipSync(SAFT))).toBe('SAFT_INVOICES');
    expect(sourceKindOf(zipSync({ 'saft.xml': SAFT }))).toBe('SAFT_INVOICES');
    expect(sourceKindOf(STRIPE)).toBe('STRIPE_PAYOUTS');
    expect(sourceKindOf(encode('\uFEFF"automatic_payout_id";"net"\n'))).toBe('STRIPE_PAYOUTS');
    expect(sourceKindOf(encode('Transferencia;Data;Liquido\nT1;2026-10-05;10,00\n'))).toBe(
      'COLLECTOR_PAYOUTS',
    );
    // The column name inside another one is not Stripe's header.
    expect(sourceKindOf(encode('my_automatic_payout_id_copy,net\n'))).toBe('COLLECTOR_PAYOUTS');
    expect(sourceKindOf(PDF)).toBeNull();
  });

  it('a payout report is CSV text, never compressed nor XML; SAF-T is XML, or XML as gzip or ZIP', () => {
    expect(sourceContainerMismatch('STRIPE_PAYOUTS', gzipSync(STRIPE))).toBe('gzip');
    expect(sourceContainerMismatch('COLLECTOR_PAYOUTS', PDF)).toBe('pdf');
    expect(sourceContainerMismatch('SAFT_INVOICES', gzipSync(SAFT))).toBeNull();
    expect(sourceContainerMismatch('SAFT_INVOICES', PDF)).toBe('pdf');
    expect(sourceContainerMismatch('STRIPE_PAYOUTS', STRIPE)).toBeNull();
    // Never XML for a payout report, never plain text for SAF-T.
    expect(sourceContainerMismatch('STRIPE_PAYOUTS', SAFT)).toBe('xml');
    expect(sourceContainerMismatch('SAFT_INVOICES', STRIPE)).toBe('text');
    expect(sourceContainerMismatch('SAFT_INVOICES', SAFT)).toBeNull();
  });
});

describe('the preview worker', () => {
  it('reads Stripe’s report by its bytes: every row with its payout, kind and gross/fee/net, its id beside it, the payouts checked where stated', () => {
    const { rows, ids, outcome, details } = run(STRIPE);
    expect(outcome.kind).toBe('STRIPE_PAYOUTS');
    expect(outcome.refusal).toBeNull();
    expect(rows).toHaveLength(8);
    expect(outcome.rows).toBe(8);
    expect(ids).toHaveLength(8);
    // Each row and the id asked about are the same balance transaction.
    (rows as PayoutPreviewRow[]).forEach((row, i) => {
      expect(ids[i]?.startsWith(`${row.payoutId}/txn_`)).toBe(true);
      expect(row.grossCents - row.feeCents).toBe(row.netCents);
    });
    expect(new Set(ids).size).toBe(8);
    expect(outcome.totalCents).toBe((rows as PayoutPreviewRow[]).reduce((sum, row) => sum + row.netCents, 0));
    const kinds = (rows as PayoutPreviewRow[]).map((row) => row.kind);
    expect(kinds).toEqual(expect.arrayContaining(['charge', 'refund', 'dispute', 'fee']));
    expect(details?.kind).toBe('payouts');
    if (details?.kind !== 'payouts') return;
    expect(details.payouts.map((p) => p.id)).toEqual(['po_1QaAmarketplace01', 'po_1QbBmarketplace02']);
    expect(details.payouts[0]?.byKind.refund).toEqual({ count: 1, netCents: -6_000 });
    expect(details.payouts.every((p) => p.amountChecked === false)).toBe(true);
  });

  it('refuses a payout whose stated amount is not its rows’ sum, with both numbers, and sends no row', () => {
    const text = `${STRIPE.toString('utf8')}po_1QaAmarketplace01,2026-10-05 00:00:00,txn_1QaApayout,,,,,eur,-100.00,0.00,-100.00,payout,po_1QaAmarketplace01,,,,,,\n`;
    const { rows, outcome } = run(encode(text), { kind: 'STRIPE_PAYOUTS' });
    expect(rows).toEqual([]);
    expect(outcome.refusal?.code).toBe('STRIPE_PAYOUT_SUM_MISMATCH');
    expect(outcome.refusal?.facts).toEqual({
      payoutId: 'po_1QaAmarketplace01',
      payoutCents: 10_000,
      rowsNetCents: 10_099,
    });
    expect(typeof outcome.refusal?.line).toBe('number');
  });

  it('reads SAF-T, compressed or not: documents with type, status and totals, the cancelled one apart, the control totals as declared', () => {
    for (const bytes of [SAFT, gzipSync(SAFT), zipSync({ 'saft.xml': SAFT })]) {
      const { rows, ids, outcome, details } = run(bytes);
      expect(outcome.kind).toBe('SAFT_INVOICES');
      const documents = rows as InvoicePreviewRow[];
      expect(documents.map((doc) => doc.invoiceNo)).toEqual(['FR AVC/1', 'FR AVC/2', 'NC AVCNC/1']);
      for (const [i, doc] of documents.entries()) expect(ids[i]?.startsWith(`${doc.invoiceNo}|`)).toBe(true);
      expect(documents.find((doc) => doc.type === 'NC')?.crediting).toBe(true);
      expect(details?.kind).toBe('invoices');
      if (details?.kind !== 'invoices') return;
      expect(details.cancelled.map((doc) => doc.invoiceNo)).toEqual(['FR AVC/3']);
      expect(details.numberOfEntries).toBe(4);
      expect(details.creditNotes).toBe(1);
    }
  });

  it('refuses bytes that cannot be the kind picked, naming what they are, and a PDF whatever is picked', () => {
    expect(run(gzipSync(STRIPE), { kind: 'STRIPE_PAYOUTS' }).outcome.refusal).toEqual({
      code: 'SOURCE_NOT_THIS_KIND',
      facts: { container: 'gzip', kind: 'STRIPE_PAYOUTS' },
    });
    const pdf = run(PDF);
    expect(pdf.outcome.kind).toBeNull();
    expect(pdf.outcome.refusal).toEqual({ code: 'SOURCE_NOT_THIS_KIND', facts: { container: 'pdf' } });
    expect(pdf.messages).toEqual([]);
  });

  it('waits for a collector report’s columns, then reads it with the ones remembered for its header', () => {
    const csv = encode(
      'Transferencia;Data;Bruto;Comissao;Liquido\nT1;05/10/2026;10,00;0,50;9,50\nT1;05/10/2026;20,00;1,00;19,00\n',
    );
    const first = run(csv);
    expect(first.outcome.kind).toBe('COLLECTOR_PAYOUTS');
    expect(first.outcome.csv).toEqual({
      header: ['Transferencia', 'Data', 'Bruto', 'Comissao', 'Liquido'],
      mapping: { headerLine: 1 },
      chosen: false,
    });
    expect(first.rows).toEqual([]);
    const mapping = { payoutId: 0, date: 1, gross: 2, fee: 3, net: 4, headerLine: 1, delimiter: ';' };
    const header = first.outcome.csv?.header ?? [];
    const second = run(csv, { remembered: { [headerKey(header)]: mapping } });
    expect(second.outcome.csv?.chosen).toBe(true);
    expect(second.outcome.rows).toBe(2);
    expect(second.outcome.totalCents).toBe(2_850);
    expect((second.rows as PayoutPreviewRow[]).map((row) => row.netCents)).toEqual([950, 1_900]);
    // Columns the header does not have: the reader's refusal, with the columns named.
    const wrong = run(csv, { mapping: { payoutId: 'Payout', date: 1, net: 4, headerLine: 1 } });
    expect(wrong.outcome.refusal).toMatchObject({
      code: 'PROVIDER_CSV_MAPPING_INVALID',
      facts: { notInHeader: ['payoutId'] },
    });
  });

  it('for any collector report, sends one id per row in the rows’ order, all different, and the total is the rows’ net (cents)', () => {
    const row = fc.record({
      payout: fc.integer({ min: 1, max: 3 }),
      gross: fc.integer({ min: 0, max: 500_000 }),
      fee: fc.integer({ min: 0, max: 5_000 }),
      reference: fc.constantFrom('', 'MB-1', 'MB-2'),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const euros = (cents: number) =>
          `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
        const lines = rows.map(
          (r) =>
            `P${r.payout};2026-10-0${r.payout};${euros(r.gross)};${euros(r.fee)};${euros(r.gross - r.fee)};${r.reference}`,
        );
        const csv = encode(`Payout;Date;Gross;Fee;Net;Ref\n${lines.join('\n')}\n`);
        const mapping = {
          payoutId: 0,
          date: 1,
          gross: 2,
          fee: 3,
          net: 4,
          reference: 5,
          headerLine: 1,
          delimiter: ';',
        };
        const { rows: sent, ids, outcome } = run(csv, { kind: 'COLLECTOR_PAYOUTS', mapping });
        expect(outcome.refusal).toBeNull();
        expect(sent).toHaveLength(rows.length);
        expect(ids).toHaveLength(rows.length);
        expect(new Set(ids).size).toBe(rows.length);
        for (const [i, r] of (sent as PayoutPreviewRow[]).entries())
          expect(ids[i]?.startsWith(`${r.payoutId}/`)).toBe(true);
        expect(outcome.totalCents).toBe(rows.reduce((sum, r) => sum + r.gross - r.fee, 0));
      }),
    );
  });
});

describe('which rows the server already holds', () => {
  it('asks in the chunk size its contract accepts', () => {
    expect(KNOWN_SOURCE_IDS_MAX).toBe(CONTRACT_MAX);
  });

  it('new + known is every row, and the files hold exactly the known ones, most rows first (any answer)', () => {
    const known = (id: number) => ({
      id: `r${id}`,
      sourceFileId: `f${id % 3}`,
      fileName: `file${id % 3}.csv`,
      importedAt: '2026-10-08T06:00:00.000Z',
    });
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 })),
        fc.array(fc.integer({ min: 0, max: 30 })),
        (ids, held) => {
          const outcome = knownSourceOutcome(
            ids.map((id) => `r${id}`),
            new Map(held.map((id) => [`r${id}`, known(id)])),
          );
          const heldSet = new Set(held);
          expect(outcome.knownRows).toBe(ids.filter((id) => heldSet.has(id)).length);
          expect(outcome.newRows + outcome.knownRows).toBe(ids.length);
          expect(outcome.files.reduce((sum, f) => sum + f.rows, 0)).toBe(outcome.knownRows);
          expect(outcome.files.map((f) => f.rows)).toEqual(
            [...outcome.files.map((f) => f.rows)].sort((a, b) => b - a),
          );
        },
      ),
    );
  });
});
