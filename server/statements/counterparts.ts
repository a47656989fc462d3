import type { CounterpartKind } from '../../contract/reconciliation';
import type { Queryable } from '../db/client';
import { refuse } from '../platform/refusal';
import { counterpartKey, type LinkRole, type LinkState, type LockedLine } from './line-state';

/** A counterpart as the reconciliation sees it (the statement_counterparts view, migration 0022). */
export interface CounterpartInfo {
  kind: CounterpartKind;
  id: string;
  label: string;
  /** Positive; `direction` says how the bank books it (-1 leaving, +1 arriving). */
  amountCents: number;
  direction: 1 | -1;
  date: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  reference: string | null;
  sepaFileId: string | null;
  status: string | null;
  /** Σ of what MATCHED payment links already cover. */
  matchedCents: number;
  /** Who it is owed to or by (a transfer's doctor, a sales document's customer), for learned rules; null when unknown. */
  partyId: string | null;
  /** A sales document's customer's phone, country code first (migration 0048, decision 0160); else null. */
  counterpartyPhone: string | null;
}

export interface CounterpartRow {
  kind: CounterpartKind;
  id: string;
  label: string;
  amount_cents: string | number;
  direction: number;
  date: string | null;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  reference: string | null;
  sepa_file_id: string | null;
  status: string | null;
  matched_cents: string | number;
  party_id: string | null;
  counterparty_phone: string | null;
}

const MATCHED_SUM = (column: string, alias: string) =>
  `(SELECT coalesce(sum(m.allocated_cents), 0) FROM statement_line_matches m
     WHERE m.${column} = ${alias}.id AND m.state = 'MATCHED' AND m.role = 'PAYMENT')`;

/** Σ of what MATCHED payment links cover of the counterpart `alias` (each kind through its own index). */
export const matchedCents = (alias: string) => `CASE ${alias}.kind
         WHEN 'PAYOUT' THEN ${MATCHED_SUM('payout_id', alias)}
         WHEN 'INVOICE' THEN ${MATCHED_SUM('invoice_id', alias)}
         WHEN 'SEPA_TRANSFER' THEN ${MATCHED_SUM('sepa_transaction_id', alias)}
         ELSE ${MATCHED_SUM('sepa_file_id', alias)} END`;

/** Columns of the view `c`, with what MATCHED payment links cover. */
export const COUNTERPART_COLUMNS = `c.kind, c.id, c.label, c.amount_cents, c.direction, c.date::text AS date,
       c.counterparty_name, c.counterparty_iban, c.reference, c.sepa_file_id, c.status, c.party_id,
       c.counterparty_phone,
       ${matchedCents('c')} AS matched_cents`;

export const toCounterpart = (row: CounterpartRow): CounterpartInfo => ({
  kind: row.kind,
  id: row.id,
  label: row.label,
  amountCents: Number(row.amount_cents),
  direction: row.direction < 0 ? -1 : 1,
  date: row.date,
  counterpartyName: row.counterparty_name,
  counterpartyIban: row.counterparty_iban,
  reference: row.reference,
  sepaFileId: row.sepa_file_id,
  status: row.status,
  matchedCents: Number(row.matched_cents),
  partyId: row.party_id,
  counterpartyPhone: row.counterparty_phone,
});

/** The counterparts named, each found or 404 STATEMENT_COUNTERPART_NOT_FOUND. */
export async function loadCounterparts(
  db: Queryable,
  refs: readonly { kind: CounterpartKind; id: string }[],
): Promise<Map<string, CounterpartInfo>> {
  if (refs.length === 0) return new Map();
  // `c.id = ANY(…)` reaches every branch of the view as a primary-key lookup; the kind is checked here.
  const { rows } = await db.query<CounterpartRow>(
    `SELECT ${COUNTERPART_COLUMNS} FROM statement_counterparts c WHERE c.id = ANY($1::uuid[])`,
    [[...new Set(refs.map((r) => r.id))]],
  );
  const found = new Map(rows.map((row) => [counterpartKey(row), toCounterpart(row)]));
  for (const ref of refs)
    if (!found.has(counterpartKey({ kind: ref.kind, id: ref.id.toLowerCase() })))
      throw refuse('STATEMENT_COUNTERPART_NOT_FOUND');
  return found;
}

/** What a line's status is settled from: a counterpart's amount and how the bank books it. */
export type CounterpartAmount = Pick<CounterpartInfo, 'amountCents' | 'direction'>;

/** What the bank line should show for the counterpart: its amount signed, inverted for a return. */
export const expectedSigned = (counterpart: CounterpartAmount, role: LinkRole): number =>
  (role === 'RETURN' ? -counterpart.direction : counterpart.direction) * counterpart.amountCents;

/** RETURN when a return line meets a transfer; otherwise the line pays or collects the counterpart. */
export const roleFor = (line: Pick<LockedLine, 'kind'>, kind: CounterpartKind): LinkRole =>
  line.kind === 'return' && kind === 'SEPA_TRANSFER' ? 'RETURN' : 'PAYMENT';

/**
 * MATCHED or DISCREPANCY for lines with MATCHED links: lines sharing a counterpart are one match,
 * whose bank lines must add up to its counterparts (a payout split across two credits is MATCHED once
 * both are linked). Answers, per line id, the status and the difference (lines − counterparts).
 */
export function matchStatuses(
  lines: readonly { id: string; amountCents: number; links: readonly LinkState[] }[],
  counterparts: ReadonlyMap<string, CounterpartAmount>,
): Map<string, { status: 'MATCHED' | 'DISCREPANCY'; differenceCents: number }> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const union = (a: string, b: string) => parent.set(find(a), find(b));
  const linked = lines.filter((l) => l.links.some((link) => link.state === 'MATCHED'));
  for (const line of linked) {
    parent.set(`L:${line.id}`, `L:${line.id}`);
    for (const link of line.links) {
      if (link.state !== 'MATCHED') continue;
      const key = `${counterpartKey(link)}:${link.role}`;
      if (!parent.has(key)) parent.set(key, key);
      union(`L:${line.id}`, key);
    }
  }
  const sums = new Map<string, number>();
  const add = (root: string, cents: number) => sums.set(root, (sums.get(root) ?? 0) + cents);
  for (const line of linked) add(find(`L:${line.id}`), line.amountCents);
  for (const key of parent.keys()) {
    if (key.startsWith('L:')) continue;
    const role = key.endsWith(':RETURN') ? 'RETURN' : 'PAYMENT';
    const counterpart = counterparts.get(key.slice(0, key.lastIndexOf(':')))!;
    add(find(key), -expectedSigned(counterpart, role));
  }
  return new Map(
    linked.map((line) => {
      const differenceCents = sums.get(find(`L:${line.id}`))!;
      return [line.id, { status: differenceCents === 0 ? 'MATCHED' : 'DISCREPANCY', differenceCents }];
    }),
  );
}
