// Reconciliation at import scale: 100,000 bank entries against 100,000 expected items.
import { type ExpectedItem, type MatchEntry, reconcile } from '../domain/reconcile/match';
import { mib, timeMs, writeResult } from './banking-report';

const N = 100_000;
const day = (i: number) => `2026-05-${String((i % 28) + 1).padStart(2, '0')}`;
const amount = (i: number) => ((i * 7919) % 400_000) + 100;

// Mix: 50 % SEPA transactions by EndToEndId, 20 % provider payouts by id in the description,
// 20 % invoices found by amount + counterparty + date, 10 % with no counterpart on either side.
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
for (let i = 0; i < N; i++) {
  const bucket = i % 10;
  const a = amount(i);
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

let result = reconcile(entries, items);
const heapBefore = process.memoryUsage().heapUsed;
const runs = Array.from({ length: 3 }, () =>
  timeMs(() => {
    result = reconcile(entries, items);
  }),
);
const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
writeResult(
  'banking-match',
  'npx tsx bench/banking-match.ts',
  `${N.toLocaleString('en-GB')} bank entries × ${N.toLocaleString('en-GB')} expected items (50 % SEPA by EndToEndId, 20 % payouts by id, 20 % invoices by amount + counterparty + date, 10 % unmatched). One warm-up, then 3 runs.\n\n` +
    '| measure | value |\n|---|---|\n' +
    `| reconcile, median wall | ${median(runs.map((r) => r.ms)).toFixed(0)} ms |\n` +
    `| reconcile, median CPU | ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms |\n` +
    `| heap in use after the runs | ${mib(Math.max(heapBefore, process.memoryUsage().heapUsed))} |\n` +
    `| matches / suggestions / unmatched entries / unmatched items | ${result.matches.length} / ${result.suggestions.length} / ${result.unmatchedEntries.length} / ${result.unmatchedItems.length} |\n\n` +
    'Budget (DESIGN.md §9): statement import matched on the server ≤ 1 s.',
);
