import type { Queryable } from '../db/client';
import { type CounterpartAmount, loadCounterparts, matchStatuses } from './counterparts';
import { counterpartKey, type LineChange, type LinkState, lockLines, stateOf } from './line-state';

/**
 * A counterpart the caller read in this transaction already (the import's open counterparts,
 * decision 0112), so settling does not read it again. `unlinked`: no MATCHED link named it when it was
 * read, so no earlier line can share its match.
 */
export interface KnownCounterpart extends CounterpartAmount {
  unlinked: boolean;
}

/** Lines with MATCHED payment links to any of the counterparts, outside `except`. */
async function neighbourIds(tx: Queryable, links: readonly LinkState[], except: ReadonlySet<string>) {
  const ids = [...new Set(links.filter((l) => l.state === 'MATCHED').map((l) => l.id))];
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    `SELECT DISTINCT statement_line_id AS id FROM statement_line_matches
      WHERE state = 'MATCHED' AND (sepa_file_id = ANY($1::uuid[]) OR sepa_transaction_id = ANY($1::uuid[])
                                   OR payout_id = ANY($1::uuid[]) OR invoice_id = ANY($1::uuid[]))`,
    [ids],
  );
  return rows.map((r) => r.id).filter((id) => !except.has(id));
}

/**
 * The planned changes with their statuses settled: a line with MATCHED links is MATCHED when the
 * lines and counterparts of its match add up, else DISCREPANCY with the difference — and the other
 * lines already linked to the same counterparts (the first half of a split payout) change with it,
 * both ways. Those neighbours are locked and added as changes when their status or difference moves.
 * Counterparts in `known` are neither read again nor, when `unlinked`, searched for neighbours.
 */
export async function settleStatuses(
  tx: Queryable,
  planned: readonly LineChange[],
  known: ReadonlyMap<string, KnownCounterpart> = new Map(),
): Promise<LineChange[]> {
  const plannedIds = new Set(planned.map((c) => c.line.id));
  const touchedLinks = planned
    .flatMap((c) => [...c.line.links, ...c.next.links])
    .filter((link) => !known.get(counterpartKey(link))?.unlinked);
  const neighbours = [...(await lockLines(tx, await neighbourIds(tx, touchedLinks, plannedIds))).values()];
  const all = [
    ...planned.map((c) => ({ id: c.line.id, amountCents: c.line.amountCents, links: c.next.links })),
    ...neighbours.map((l) => ({ id: l.id, amountCents: l.amountCents, links: l.links })),
  ];
  const refs = all.flatMap((l) => l.links.filter((link) => link.state === 'MATCHED'));
  const counterparts = new Map<string, CounterpartAmount>(
    await loadCounterparts(
      tx,
      refs.filter((ref) => !known.has(counterpartKey(ref))),
    ),
  );
  for (const ref of refs) {
    const amount = known.get(counterpartKey(ref));
    if (amount) counterparts.set(counterpartKey(ref), amount);
  }
  const statuses = matchStatuses(all, counterparts);
  const changes = planned.map((c): LineChange => {
    const settled = statuses.get(c.line.id);
    return settled ? { line: c.line, next: { ...c.next, ...settled } } : c;
  });
  for (const line of neighbours) {
    const settled = statuses.get(line.id);
    if (!settled || (settled.status === line.status && settled.differenceCents === line.differenceCents))
      continue;
    changes.push({ line, next: { ...stateOf(line), ...settled } });
  }
  return changes;
}
