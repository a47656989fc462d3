// Each row's identity in its own source (domain/sources/source-ids.ts, decision 0152), the one recipe the
// preview and the import share, and what an upload's first bytes say it is (source-sniff.ts).
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readProviderPayoutCsv } from '../../../domain/sources/provider-csv';
import {
  collectorRowSourceIds,
  saftDocumentSourceId,
  sourceEntries,
  stripeRowSourceId,
} from '../../../domain/sources/source-ids';
import { caseReferenceOf, sourceContainerMismatch } from '../../../domain/sources/source-sniff';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

const MAPPING = { payoutId: 'payout', date: 'date', net: 'net', reference: 'ref' };
const HEADER = 'payout;date;net;ref';

const row = fc.record({
  payout: fc.constantFrom('TR-1', 'TR-2', 'TR-3'),
  cents: fc.integer({ min: -5_000, max: 50_000 }),
  ref: fc.constantFrom('', 'A', 'B', '123 456 789'),
});

function collectorCsv(rows: readonly { payout: string; cents: number; ref: string }[]): string {
  const date = (payout: string) => `0${payout.slice(-1)}-03-2026`;
  const amount = (cents: number) =>
    `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
  return `${[HEADER, ...rows.map((r) => `${r.payout};${date(r.payout)};${amount(r.cents)};${r.ref}`)].join('\n')}\n`;
}

function idsOf(text: string): string[] {
  const read = readProviderPayoutCsv(text, MAPPING);
  if (!read.ok) throw new Error(JSON.stringify(read.refusal));
  return collectorRowSourceIds(read.value);
}

describe('source ids', () => {
  it('name a Stripe balance transaction by its payout and id, a SAF-T document by its number and ATCUD', () => {
    expect(stripeRowSourceId({ payoutId: 'po_1', balanceTransactionId: 'txn_9' })).toBe('po_1/txn_9');
    expect(saftDocumentSourceId({ invoiceNo: 'FT 1T/1', atcud: 'JFA3KM8N-1' })).toBe('FT 1T/1|JFA3KM8N-1');
  });

  it("give a collector's rows distinct ids, equal rows ranked, the same set in any row order", () => {
    fc.assert(
      fc.property(
        fc
          .array(row, { minLength: 1, maxLength: 30 })
          .chain((rows) =>
            fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length })),
          ),
        ([rows, shuffled]) => {
          const ids = idsOf(collectorCsv(rows));
          expect(new Set(ids).size).toBe(rows.length);
          expect(idsOf(collectorCsv(shuffled)).sort()).toEqual([...ids].sort());
        },
      ),
    );
  });

  it("count a collector's rows and their signed total as the import checks them", () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const read = readProviderPayoutCsv(collectorCsv(rows), MAPPING);
        if (!read.ok) throw new Error(JSON.stringify(read.refusal));
        const entries = sourceEntries('COLLECTOR_PAYOUTS', read.value);
        expect(entries.rows).toBe(rows.length);
        expect(entries.totalCents).toBe(rows.reduce((sum, r) => sum + r.cents, 0));
      }),
    );
  });
});

describe("an upload's first bytes against its kind", () => {
  const xml = utf8('\uFEFF  <?xml version="1.0"?><AuditFile/>');
  const csv = utf8('automatic_payout_id,gross\n');
  it('takes SAF-T as XML, gzip or ZIP, and nothing else', () => {
    expect(sourceContainerMismatch('SAFT_INVOICES', xml)).toBeNull();
    expect(sourceContainerMismatch('SAFT_INVOICES', gzipSync(xml))).toBeNull();
    expect(sourceContainerMismatch('SAFT_INVOICES', utf8('PK\u0003\u0004rest'))).toBeNull();
    expect(sourceContainerMismatch('SAFT_INVOICES', csv)).toBe('text');
    expect(sourceContainerMismatch('SAFT_INVOICES', utf8('%PDF-1.7'))).toBe('pdf');
  });
  it('takes a payout report as text only: never XML, never compressed', () => {
    for (const kind of ['STRIPE_PAYOUTS', 'COLLECTOR_PAYOUTS'] as const) {
      expect(sourceContainerMismatch(kind, csv)).toBeNull();
      expect(sourceContainerMismatch(kind, xml)).toBe('xml');
      expect(sourceContainerMismatch(kind, gzipSync(csv))).toBe('gzip');
      expect(sourceContainerMismatch(kind, utf8('PK\u0003\u0004rest'))).toBe('zip');
    }
  });
  it('finds the case a text names: the first UUID, lower case', () => {
    expect(caseReferenceOf([null, 'Consulta 0F8FAD5B-D9CB-469F-A165-70867728950E e outra'])).toBe(
      '0f8fad5b-d9cb-469f-a165-70867728950e',
    );
    expect(caseReferenceOf(['TR-0301', undefined])).toBeNull();
  });
});
