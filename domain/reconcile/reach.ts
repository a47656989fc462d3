// Which bank entries the matcher could pair with some open item at all (decision 0144). Every rule of
// `reconcile` (match.ts) looks its candidates up by something that must agree: a return or a payment by
// the item's EndToEndId, a batch debit by the file's batch id, a reference or a suggestion by the item's
// signed amount, a return without EndToEndId by that amount negated. An entry that agrees with no item
// on any of these is left unmatched whatever the other entries are, and takes nothing from them, so the
// matcher decides the same over the entries that reach some item as over all of them. The import keeps
// only those (it streams 600,000 lines into the database and asks back for these). Guarded by a property
// test over `reconcile` (tests/unit/reconcile-reach.test.ts): a rule that reads something else fails it.
import type { StatementEntry } from '../statements/types';
import { signedExpected } from './features';
import type { ExpectedItem } from './match';

export interface Reach {
  /** Each item's signed amount and its negation. */
  amounts: Set<number>;
  endToEndIds: Set<string>;
  batchIds: Set<string>;
}

export function reachOf(items: readonly ExpectedItem[]): Reach {
  const reach: Reach = { amounts: new Set(), endToEndIds: new Set(), batchIds: new Set() };
  for (const item of items) {
    const signed = signedExpected(item);
    reach.amounts.add(signed);
    reach.amounts.add(-signed);
    if (item.endToEndId) reach.endToEndIds.add(item.endToEndId);
    for (const batchId of item.batchIds ?? []) if (batchId) reach.batchIds.add(batchId);
  }
  return reach;
}

export const mayMeet = (
  reach: Reach,
  entry: Pick<StatementEntry, 'amountCents' | 'endToEndId' | 'batchId'>,
): boolean =>
  reach.amounts.has(entry.amountCents) ||
  (!!entry.endToEndId && reach.endToEndIds.has(entry.endToEndId)) ||
  (!!entry.batchId && reach.batchIds.has(entry.batchId));
