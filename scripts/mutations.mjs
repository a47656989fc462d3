/**
 * The mutations `npm run mutations` makes, one at a time, in a scratch copy of the tree
 * (docs/decisions/0129). Each names the file, the exact text it replaces (it must occur exactly once:
 * a rule rewritten elsewhere makes the check fail, so this list cannot go stale unseen), what it
 * puts instead, and the test files that must fail with it. `postgres`: only a two-connection test on
 * PostgreSQL can see it, so the check needs TEST_DATABASE_URL.
 */
export const MUTATIONS = [
  {
    id: 'sepa-claim-ignores-new-recoveries',
    rule: 'a SEPA claim refuses (SEPA_CHANGED_RETRY) when a recovery appeared between the plan and the claim',
    file: 'server/finance/sepa-generate.ts',
    original: `      got.count !== doctor.settlementCount ||
      back !== doctor.recoveredCents
    )`,
    replacement: `      got.count !== doctor.settlementCount
    )`,
    killers: ['tests/api/sepa-claim-race.test.ts'],
    postgres: true,
  },
  {
    id: 'sepa-execution-date-today-refused',
    rule: 'an execution date of today is accepted; only an earlier one is SEPA_EXECUTION_DATE_IN_PAST',
    file: 'server/finance/sepa-generate.ts',
    original: 'if (requested !== undefined && requested < today)',
    replacement: 'if (requested !== undefined && requested <= today)',
    killers: ['tests/api/money-rules.test.ts'],
  },
  {
    id: 'adjustment-equal-to-gross-refused',
    rule: 'an adjustment equal to the gross is allowed; only one above it is refused',
    file: 'server/finance/manage.ts',
    original: 'patch.adjustedCents !== null && patch.adjustedCents > row.grossCents',
    replacement: 'patch.adjustedCents !== null && patch.adjustedCents >= row.grossCents',
    killers: ['tests/api/money-rules.test.ts'],
  },
  {
    id: 'available-file-never-paid-by-statement',
    rule: 'a matched statement line marks an AVAILABLE SEPA file PAID, as it does a GENERATED one',
    file: 'server/statements/effects.ts',
    original: `(row.status === 'GENERATED' || row.status === 'AVAILABLE')`,
    replacement: `row.status === 'GENERATED'`,
    killers: ['tests/api/money-rules.test.ts'],
  },
  {
    id: 'idempotency-hash-depends-on-key-order',
    rule: 'the same request with its JSON keys in another order is the same request (replayed, not IDEMPOTENCY_KEY_REUSED)',
    file: 'server/platform/idempotency.ts',
    original: `Object.keys(value)
      .sort()`,
    replacement: 'Object.keys(value)',
    // Over HTTP zod hands every route its body in the schema's key order: only the hash itself shows it.
    killers: ['tests/unit/server/idempotency-hash.test.ts'],
  },
  {
    id: 'one-cent-difference-matched',
    rule: 'a statement line 1 cent off its counterpart is a DISCREPANCY, never MATCHED',
    file: 'server/statements/counterparts.ts',
    original: `status: differenceCents === 0 ? 'MATCHED' : 'DISCREPANCY'`,
    replacement: `status: Math.abs(differenceCents) <= 1 ? 'MATCHED' : 'DISCREPANCY'`,
    killers: ['tests/api/money-rules.test.ts'],
  },
  {
    id: 'paid-shown-as-pending-transfer',
    rule: 'a PAID settlement (its link still live) is shown PAID, not PENDING_TRANSFER',
    file: 'server/finance/settlement-status-sql.ts',
    original: `CASE WHEN s.status = 'SETTLED' AND lv.settlement_id IS NOT NULL`,
    replacement: `CASE WHEN s.status IN ('SETTLED', 'PAID') AND lv.settlement_id IS NOT NULL`,
    killers: ['tests/api/money-rules.test.ts'],
  },
  {
    id: 'confirmation-cancel-stays-confirming',
    rule: 'cancelling a failed confirmation goes back to idle',
    file: 'machines/confirmation.ts',
    original: `'confirm.cancel': { target: 'idle', actions: assign({ error: null }) }`,
    replacement: `'confirm.cancel': { target: 'failed', actions: assign({ error: null }) }`,
    killers: ['tests/machines/confirmation.test.ts'],
  },
  {
    id: 'sepa-generation-cancel-keeps-confirming',
    rule: 'cancelling the SEPA confirmation goes back to selecting and forgets the dry run',
    file: 'machines/sepa-generation.ts',
    original: `'confirm.cancel': { target: 'selecting', actions: assign({ dryRun: null }) }`,
    replacement: `'confirm.cancel': { target: 'confirming', actions: assign({ dryRun: null }) }`,
    killers: ['tests/machines/sepa-generation.test.ts'],
  },
  {
    id: 'settlement-confirm-without-included',
    rule: 'the settlement confirmation opens only when at least one settlement is included',
    file: 'machines/settlement.ts',
    original: `{ guard: 'anyIncluded', target: 'confirming'`,
    replacement: `{ target: 'confirming'`,
    killers: ['tests/machines/settlement.test.ts'],
  },
  {
    id: 'sepa-generation-retry-stays-failed',
    rule: 'retrying a failed SEPA generation generates again',
    file: 'machines/sepa-generation.ts',
    original: `retry: { target: 'generating', actions: assign({ error: null }) }`,
    replacement: `retry: { target: 'failed', actions: assign({ error: null }) }`,
    killers: ['tests/machines/sepa-generation.test.ts'],
  },
  {
    id: 'reconciliation-unmatch-moves-cursor',
    rule: 'an unmatch leaves the cursor on its line; only a decision (accept, match, ignore) moves it on (decision 0169)',
    file: 'machines/reconciliation.ts',
    original: `new Set(['accept', 'match', 'ignore'])`,
    replacement: `new Set(['accept', 'match', 'ignore', 'unmatch'])`,
    killers: ['tests/machines/reconciliation.test.ts'],
  },
];
