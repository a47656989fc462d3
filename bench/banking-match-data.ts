// The data sets of `banking-match.ts`, generated from their index alone (no randomness): also read by
// `matcher-instructions.ts`, which counts the matcher's instructions on the same sets.
import type { ExpectedItem, MatchEntry } from '../domain/reconcile/match';

export type DataSet = 'unique' | 'repeated' | 'noref';

const day = (i: number) => `2026-05-${String((i % 28) + 1).padStart(2, '0')}`;
const PRICES = [
  2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7000, 7500, 8000, 9000, 10000, 12000, 15000, 1990,
  2990, 3990, 4990,
];
const uniqueAmount = (i: number) => ((i * 7919) % 400_000) + 100;
const repeatedAmount = (i: number) => PRICES[(Math.imul(i, 0x9e3779b1) >>> 16) % PRICES.length]!;

export function dataSet(set: DataSet, n: number): { entries: MatchEntry[]; items: ExpectedItem[] } {
  const items: ExpectedItem[] = [];
  const entries: MatchEntry[] = [];
  const base = {
    valueDate: null,
    currency: 'EUR',
    counterpartyName: null,
    counterpartyIban: null,
    bankReference: null,
    endToEndId: null,
    batchId: null,
    kind: 'transfer' as const,
    returnReason: null,
  };
  for (let i = 0; i < n; i++) {
    const bucket = set === 'noref' ? (i % 10 < 9 ? 7 : 9) : i % 10;
    const a = set === 'unique' ? uniqueAmount(i) : repeatedAmount(i);
    const id = `I${i}`;
    const entry = {
      ...base,
      id: `L${i}`,
      lineNumber: i + 1,
      bookingDate: day(i),
      amountCents: a,
      description: '',
    };
    if (bucket < 5) {
      items.push({
        id,
        type: 'sepa',
        amountCents: a,
        endToEndId: `STL-${i}`,
        batchIds: [`B${i % 500}`],
        date: day(i),
      });
      entries.push({ ...entry, amountCents: -a, endToEndId: `STL-${i}`, batchId: `B${i % 500}` });
    } else if (bucket < 7) {
      items.push({ id, type: 'payout', amountCents: a, reference: `po_${i}`, date: day(i) });
      entries.push({ ...entry, description: `TRF CR STRIPE PAYOUT po_${i}` });
    } else if (bucket < 9) {
      items.push({ id, type: 'invoice', amountCents: a, counterpartyName: `Clinica ${i}`, date: day(i) });
      entries.push({ ...entry, description: `TRF CR SEPA+ DE CLINICA ${i} LDA`, bookingDate: day(i + 1) });
    } else {
      items.push({ id, type: 'invoice', amountCents: a + 1, counterpartyName: 'Nobody', date: day(i) });
      entries.push({ ...entry, kind: 'fee', amountCents: -150 });
    }
  }
  return { entries, items };
}
