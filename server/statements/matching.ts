import type { CounterpartKind } from '../../contract/reconciliation';
import {
  type ExpectedItem,
  type MatchEntry,
  RETURN_WINDOW_DAYS,
  reconcile,
} from '../../domain/reconcile/match';
import { reachOf } from '../../domain/reconcile/reach';
import type { Queryable } from '../db/client';
import { payoutOwesNoCredit } from '../db/provider-sides';
import type { Actor } from '../platform/mutation';
import { roleFor } from './counterparts';
import { reviewEffects } from './effects';
import { learnedRules } from './learned-rules';
import type { ChunkAsks } from './line-rows';
import {
  type LineChange,
  type LinkState,
  type LockedLine,
  stateOf,
  storedScore,
  writeLineStates,
} from './line-state';
import { type KnownCounterpart, settleStatuses } from './resolve';

/** How far before the statement's first day (and after its last) open counterparts are looked at. */
const DAYS_BEFORE = 60;
const DAYS_AFTER = 10;

export interface EntryRow {
  id: string;
  line_number: number;
  bank_amount_cents: string | number;
  bank_date: string;
  value_date: string | null;
  description: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  end_to_end_id: string | null;
  batch_id: string | null;
  bank_reference: string | null;
  kind: MatchEntry['kind'];
  return_reason: string | null;
}

export interface ItemRow {
  kind: CounterpartKind;
  id: string;
  /** The counterpart's whole amount, and what MATCHED links have not covered of it yet. */
  amount_cents: string | number;
  open_cents: string | number;
  direction: number;
  date: string | null;
  end_to_end_id: string | null;
  batch_ids: string[] | null;
  reference: string | null;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  sepa_file_id: string | null;
  /** A transfer already paid (itself or its file): only a return can still link to it. */
  paid: boolean;
  /**
   * Given back by a return matched on an earlier statement, its file not yet paid: still part of the
   * bank's batch debit, so it counts there and nowhere else.
   */
  returned: boolean;
  /** A transfer's doctor, a sales document's customer (learned rules, decision 0146); null for the other kinds. */
  party_id: string | null;
  /** A sales document's customer's phone (decision 0160); null for the other kinds. */
  counterparty_phone: string | null;
}

export const toEntry = (row: EntryRow): MatchEntry => ({
  id: row.id,
  lineNumber: row.line_number,
  amountCents: Number(row.bank_amount_cents),
  currency: 'EUR',
  bookingDate: row.bank_date,
  valueDate: row.value_date,
  description: row.description,
  counterpartyName: row.counterparty_name,
  counterpartyIban: row.counterparty_iban,
  endToEndId: row.end_to_end_id,
  batchId: row.batch_id,
  bankReference: row.bank_reference,
  kind: row.kind,
  returnReason: row.return_reason,
});

const TYPE: Record<CounterpartKind, ExpectedItem['type']> = {
  SEPA_FILE: 'sepa',
  SEPA_TRANSFER: 'sepa',
  PAYOUT: 'payout',
  INVOICE: 'invoice',
};

export const toItem = (row: ItemRow): ExpectedItem => ({
  id: `${row.kind}:${row.id}`,
  type: TYPE[row.kind],
  amountCents: Number(row.open_cents),
  direction: row.direction < 0 ? 'out' : 'in',
  date: row.date,
  endToEndId: row.end_to_end_id,
  batchIds: row.batch_ids ?? [],
  reference: row.reference,
  counterpartyName: row.counterparty_name,
  counterpartyIban: row.counterparty_iban,
  counterpartyPhone: row.counterparty_phone,
  partyId: row.party_id,
});

/**
 * The open counterparts a statement can meet: transfers named by its EndToEndIds or batch ids, or of
 * files not yet paid around its dates (a paid one only for a return naming it, or giving back its
 * amount without naming any, decision 0123); a transfer returned on an earlier statement while its
 * file waits, for its batch's debit only (the bank debited it before giving it back); payouts and
 * invoices around its dates with something left to match. Not every counterpart ever: a statement
 * covers days.
 */
export async function openItems(
  tx: Queryable,
  asked: LineAsks,
  /** Only counterparts with this much open (cents, unsigned): saying one amount's lines again. */
  openAmounts: readonly number[] | null = null,
): Promise<ItemRow[]> {
  const { rows } = await tx.query<ItemRow>(
    `WITH end_to_end_ids AS (
       SELECT unnest($3::text[]) AS end_to_end_id
     ), returned_end_to_end_ids AS (
       SELECT unnest($4::text[]) AS end_to_end_id
     ), batch_ids AS (
       SELECT unnest($5::text[]) AS batch_id
     ), unnamed_returns AS (
       SELECT * FROM unnest($6::bigint[], $7::date[]) AS r(amount_cents, bank_date)
     ), span AS (
       SELECT $1::date - ${DAYS_BEFORE} AS first, $2::date + ${DAYS_AFTER} AS last
     ), transfers AS (
       SELECT t.id, t.amount_cents, f.execution_date, t.end_to_end_id, f.msg_id, f.payment_info_id,
              t.status = 'REJECTED' AS returned,
              t.creditor_name, t.creditor_iban, t.sepa_file_id, t.professional_id,
              (f.status = 'PAID'
               OR EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.sepa_transaction_id = t.id AND m.role = 'PAYMENT' AND m.state = 'MATCHED')
               OR EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.sepa_file_id = f.id AND m.state = 'MATCHED')) AS paid,
              t.end_to_end_id IN (SELECT end_to_end_id FROM returned_end_to_end_ids) AS named_by_return,
              EXISTS (SELECT 1 FROM unnamed_returns r WHERE r.amount_cents = t.amount_cents
                         AND r.bank_date BETWEEN f.execution_date AND f.execution_date + ${RETURN_WINDOW_DAYS}) AS returnable_by_amount
         FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id, span
        WHERE f.status <> 'UNAVAILABLE'
          AND ((t.status = 'INCLUDED'
                AND (t.end_to_end_id IN (SELECT end_to_end_id FROM end_to_end_ids)
                     OR f.msg_id IN (SELECT batch_id FROM batch_ids)
                     OR f.payment_info_id IN (SELECT batch_id FROM batch_ids)
                     OR (f.status IN ('GENERATED', 'AVAILABLE') AND f.execution_date BETWEEN span.first AND span.last)
                     OR t.amount_cents IN (SELECT amount_cents FROM unnamed_returns))
                AND NOT EXISTS (SELECT 1 FROM statement_line_matches m
                                 WHERE m.sepa_transaction_id = t.id AND m.role = 'RETURN' AND m.state = 'MATCHED'))
               OR (t.status = 'REJECTED' AND t.returned_by_statement_line_id IS NOT NULL
                   AND f.status IN ('GENERATED', 'AVAILABLE')
                   AND (f.msg_id IN (SELECT batch_id FROM batch_ids)
                        OR f.payment_info_id IN (SELECT batch_id FROM batch_ids))))
     )
     SELECT 'SEPA_TRANSFER' AS kind, id, amount_cents, amount_cents AS open_cents, -1 AS direction, execution_date::text AS date,
            CASE WHEN returned THEN NULL ELSE end_to_end_id END, ARRAY[payment_info_id, msg_id] AS batch_ids,
            NULL AS reference, creditor_name AS counterparty_name, creditor_iban AS counterparty_iban, sepa_file_id,
            paid, returned, professional_id AS party_id, NULL AS counterparty_phone
       FROM transfers WHERE (returned OR NOT paid OR named_by_return OR returnable_by_amount)
        AND ($8::bigint[] IS NULL OR amount_cents = ANY($8::bigint[]))
     UNION ALL
     SELECT 'PAYOUT', p.id, p.amount_cents, p.amount_cents - m.cents, 1, p.payout_date::text, NULL, NULL, p.provider_payout_id,
            NULL, NULL, NULL, false, false, NULL, NULL
       FROM provider_payouts p CROSS JOIN span
       CROSS JOIN LATERAL (SELECT coalesce(sum(allocated_cents), 0) AS cents FROM statement_line_matches
                            WHERE payout_id = p.id AND state = 'MATCHED') m
      WHERE p.payout_date BETWEEN span.first AND span.last AND p.amount_cents > m.cents
        AND ($8::bigint[] IS NULL OR p.amount_cents - m.cents = ANY($8::bigint[]))
        -- A payout Stripe's Balance report says failed or was canceled never reaches the bank (decision 0171).
        AND NOT ${payoutOwesNoCredit('p.provider_status')}
     UNION ALL
     SELECT 'INVOICE', c.id, c.amount_cents, c.amount_cents - m.cents, c.direction, c.date::text, NULL, NULL, c.reference,
            c.counterparty_name, NULL, NULL, false, false, c.party_id, c.counterparty_phone
       FROM statement_counterparts c
       CROSS JOIN LATERAL (SELECT coalesce(sum(allocated_cents), 0) AS cents FROM statement_line_matches
                            WHERE invoice_id = c.id AND state = 'MATCHED') m
      WHERE c.kind = 'INVOICE' AND c.amount_cents > m.cents
        AND ($8::bigint[] IS NULL OR c.amount_cents - m.cents = ANY($8::bigint[]))
        -- The span's documents, less those whose payment the provider collected (their settlement a charge of an
        -- imported payout): that payout's credit pays them, never a bank line of their own (decision 0166).
        -- Chosen from the documents first, then read through the view by key: the view names each document's
        -- customer (a credit note's through the invoice it corrects, migration 0055), a look-up per document
        -- that a month of card payments would pay 100,000 times for the few the filter keeps.
        AND c.id = ANY (ARRAY(
              SELECT i.id FROM provider_invoices i CROSS JOIN span
               WHERE i.invoice_date BETWEEN span.first AND span.last
                 AND NOT EXISTS (SELECT 1 FROM provider_payout_rows r
                                  WHERE r.settlement_id = i.settlement_id AND r.row_kind = 'charge')))`,
    [
      asked.firstDate,
      asked.lastDate,
      [...asked.endToEndIds],
      [...asked.returnedEndToEndIds],
      [...asked.batchIds],
      asked.unnamedReturns.map((r) => r.amountCents),
      asked.unnamedReturns.map((r) => r.bankDate),
      openAmounts,
    ],
  );
  return rows;
}

/**
 * What the lines ask the counterparts for, gathered as they are inserted (decision 0144): their days'
 * span, the distinct EndToEndIds and batch ids they name, and the returns that name none. Sent as such
 * rather than as five arrays of every line, whose encoding alone held the event loop for seconds at
 * 600,000 lines (decision 0139).
 */
export class LineAsks {
  count = 0;
  firstDate = '';
  lastDate = '';
  readonly endToEndIds = new Set<string>();
  readonly returnedEndToEndIds = new Set<string>();
  readonly batchIds = new Set<string>();
  readonly unnamedReturns: { amountCents: number; bankDate: string }[] = [];

  /** A chunk's asks, of `count` lines (line-rows.ts). */
  add(count: number, asks: ChunkAsks): void {
    if (count === 0 || asks.firstDate === null || asks.lastDate === null) return;
    if (this.count === 0 || asks.firstDate < this.firstDate) this.firstDate = asks.firstDate;
    if (this.count === 0 || asks.lastDate > this.lastDate) this.lastDate = asks.lastDate;
    this.count += count;
    for (const id of asks.endToEndIds) this.endToEndIds.add(id);
    for (const id of asks.returnedEndToEndIds) this.returnedEndToEndIds.add(id);
    for (const id of asks.batchIds) this.batchIds.add(id);
    for (const unnamed of asks.unnamedReturns) this.unnamedReturns.push(unnamed);
  }
}

/** The rows of these ids, found in one pass over all of them. */
function rowsNamed(rows: readonly EntryRow[], ids: readonly string[]): Map<string, EntryRow> {
  const wanted = new Set(ids);
  const found = new Map<string, EntryRow>();
  if (wanted.size === 0) return found;
  for (const row of rows) if (wanted.has(row.id)) found.set(row.id, row);
  return found;
}

const parseItemId = (id: string) => {
  const at = id.indexOf(':');
  return { kind: id.slice(0, at) as CounterpartKind, id: id.slice(at + 1) };
};

/**
 * A suggestion's link from a line to an open counterpart, what it would cover of it; null when the
 * counterpart takes no payment any more (a paid transfer only accepts its return, a returned one only
 * counts in its batch's debit).
 */
export function suggestedLink(line: EntryRow, item: ItemRow, confidence: number): LinkState | null {
  const role = roleFor({ kind: line.kind }, item.kind);
  if (item.returned || (item.paid && role !== 'RETURN')) return null;
  return {
    kind: item.kind,
    id: item.id,
    role,
    state: 'SUGGESTED',
    allocatedCents: Math.min(Math.abs(Number(line.bank_amount_cents)), Number(item.open_cents)),
    score: Math.min(1, Math.max(0, confidence)),
  };
}

/**
 * The matcher's decision for UNMATCHED lines: each planned line's next state, statuses settled; and
 * whether it judged the file's payers to pay on their rail's day (kept with the file, decision 0179).
 */
async function decide(
  tx: Queryable,
  entryRows: readonly EntryRow[],
  items: readonly ItemRow[],
  lockedOf: (ids: string[]) => Promise<Map<string, LockedLine>>,
): Promise<{ changes: LineChange[]; keptToRail: boolean | null }> {
  if (entryRows.length === 0) return { changes: [], keptToRail: null };
  const byId = new Map(items.map((row) => [`${row.kind}:${row.id}`, row]));
  // The operator's past matches (decision 0146): few rows, one per text ever matched by hand.
  const learned = await learnedRules(tx, null);
  const result = reconcile(entryRows.map(toEntry), items.map(toItem), { learned });
  const planned = new Map<string, { links: LinkState[]; method: LockedLine['matchMethod'] }>();
  const link = (lineId: string, l: LinkState, method: LockedLine['matchMethod']) => {
    const entry = planned.get(lineId) ?? { links: [], method };
    entry.links.push(l);
    planned.set(lineId, entry);
  };
  // Only the lines the matcher named: a map of every line costs seconds of the event loop at 600,000.
  const named = rowsNamed(entryRows, [
    ...result.returns.map((r) => r.entryId),
    ...result.matches.flatMap((m) => m.entryIds),
    ...result.suggestions.flatMap((s) => s.entryIds),
  ]);
  const amountOf = (lineId: string) => Math.abs(Number(named.get(lineId)!.bank_amount_cents));
  for (const ret of result.returns) {
    const item = byId.get(ret.itemId)!;
    link(
      ret.entryId,
      {
        ...parseItemId(ret.itemId),
        role: 'RETURN',
        state: 'MATCHED',
        allocatedCents: Number(item.open_cents),
        score: 1,
      },
      'REFERENCE',
    );
  }
  for (const match of result.matches) {
    const matchItems = match.itemIds.map((id) => byId.get(id)!);
    if (matchItems.some((item) => item.paid)) continue; // a paid transfer only accepts its return
    // A transfer returned already counts only inside its batch's debit.
    if (match.method !== 'batch' && matchItems.some((item) => item.returned)) continue;
    const lineId = match.entryIds[0]!;
    if (match.method === 'batch') {
      // The whole batch debit: one link to the file, not one per transfer.
      const fileId = matchItems[0]!.sepa_file_id!;
      link(
        lineId,
        {
          kind: 'SEPA_FILE',
          id: fileId,
          role: 'PAYMENT',
          state: 'MATCHED',
          allocatedCents: amountOf(lineId),
          score: 1,
        },
        'REFERENCE',
      );
      continue;
    }
    for (const item of matchItems)
      link(
        lineId,
        {
          kind: item.kind,
          id: item.id,
          role: 'PAYMENT',
          state: 'MATCHED',
          allocatedCents: Math.min(amountOf(lineId), Number(item.open_cents)),
          score: storedScore(match.confidence),
        },
        'REFERENCE',
      );
  }
  for (const suggestion of result.suggestions) {
    const lineId = suggestion.entryIds[0]!;
    const suggested = suggestedLink(
      named.get(lineId)!,
      byId.get(suggestion.itemIds[0]!)!,
      suggestion.confidence,
    );
    if (suggested) link(lineId, suggested, 'AMOUNT_COUNTERPARTY_DATE');
  }

  const locked = await lockedOf([...planned.keys()]);
  const changes: LineChange[] = [...planned].map(([lineId, plan]) => {
    const line = locked.get(lineId)!;
    const suggested = plan.links.every((l) => l.state === 'SUGGESTED');
    return {
      line,
      next: {
        status: suggested ? 'SUGGESTED' : 'MATCHED',
        matchMethod: plan.method,
        notes: line.notes,
        differenceCents: null,
        links: plan.links,
      },
    };
  });
  return {
    changes: await settleStatuses(tx, changes, knownCounterparts(items)),
    keptToRail: result.keptToRail,
  };
}

/**
 * The open counterparts as the statuses are settled from them (decision 0112): read once for the
 * matcher, not again through the view. One no MATCHED link named when read — a payout or an invoice
 * with nothing covered, a transfer not paid — has no earlier line sharing its match.
 */
function knownCounterparts(items: readonly ItemRow[]): Map<string, KnownCounterpart> {
  return new Map(
    items.map((row) => [
      `${row.kind}:${row.id}`,
      {
        amountCents: Number(row.amount_cents),
        direction: row.direction < 0 ? -1 : 1,
        unlinked: !row.paid && Number(row.open_cents) === Number(row.amount_cents),
      },
    ]),
  );
}

/** Lines matched (MATCHED or DISCREPANCY), suggested and left unmatched, among a file's changes. */
function counts(statementFileId: string, lineCount: number, changes: readonly LineChange[]) {
  const ofFile = changes.filter((c) => c.line.statementFileId === statementFileId);
  const matched = ofFile.filter((c) => c.next.status === 'MATCHED' || c.next.status === 'DISCREPANCY').length;
  const suggested = ofFile.filter((c) => c.next.status === 'SUGGESTED').length;
  return { matched, suggested, unmatched: lineCount - matched - suggested };
}

/** The columns of an EntryRow, from `statement_lines`. */
export const ENTRY_COLUMNS = `id, line_number, bank_amount_cents, bank_date::text AS bank_date, value_date::text AS value_date,
       description, counterparty_name, counterparty_iban, end_to_end_id, batch_id, bank_reference, kind, return_reason`;

/**
 * The import's matching (decisions 0097, 0144): the file's lines were inserted UNMATCHED as they were
 * read; the matcher decides over those that can reach an open counterpart (`reachOf`: the others it
 * would leave unmatched, and they take nothing from the rest), read back by amount, EndToEndId or
 * batch id, and the lines it decided on are updated in one statement, each with its decision
 * (`import_decision`, decision 0115). Then `writeNewLineMatches` adds their links, history and
 * consequences. With nothing open, nothing is read back.
 */
export async function matchInsertedLines(
  tx: Queryable,
  statementFileId: string,
  asked: LineAsks,
): Promise<LineChange[]> {
  if (asked.count === 0) return [];
  const items = await openItems(tx, asked);
  // Nothing open to meet: the matcher would find nothing, after a second of CPU at 600,000 lines.
  if (items.length === 0) return [];
  const reach = reachOf(items.map(toItem));
  const { rows } = await tx.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM statement_lines
      WHERE statement_file_id = $1
        AND (bank_amount_cents = ANY($2::bigint[]) OR end_to_end_id = ANY($3::text[]) OR batch_id = ANY($4::text[]))`,
    [statementFileId, [...reach.amounts], [...reach.endToEndIds], [...reach.batchIds]],
  );
  const fresh = (row: EntryRow): LockedLine => ({
    id: row.id,
    statementFileId,
    amountCents: Number(row.bank_amount_cents),
    bankDate: row.bank_date,
    kind: row.kind,
    returnReason: row.return_reason,
    status: 'UNMATCHED',
    matchMethod: null,
    notes: null,
    differenceCents: null,
    lastActionId: null,
    reconciled: false,
    links: [],
  });
  const { changes, keptToRail } = await decide(tx, rows, items, async (ids) => {
    const named = rowsNamed(rows, ids);
    return new Map(ids.map((id) => [id, fresh(named.get(id)!)]));
  });
  await tx.query('UPDATE statement_files SET kept_to_rail = $2 WHERE id = $1', [statementFileId, keptToRail]);
  const decided = changes.filter((change) => change.line.statementFileId === statementFileId);
  if (decided.length > 0)
    await tx.query(
      `UPDATE statement_lines l
          SET status = d.status, match_method = d.method, difference_cents = d.difference, import_decision = d.decision
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[]) AS d(id, status, method, difference, decision)
        WHERE l.id = d.id`,
      [
        decided.map((change) => change.line.id),
        decided.map((change) => change.next.status),
        decided.map((change) => change.next.matchMethod),
        decided.map((change) => change.next.differenceCents),
        decided.map((change) => JSON.stringify(stateOf(change.next))),
      ],
    );
  return changes;
}

/** After `matchInsertedLines` decided and updated the import's lines: their links, history and consequences. */
export async function writeNewLineMatches(
  tx: Queryable,
  statementFileId: string,
  newLineCount: number,
  changes: readonly LineChange[],
  actor: Actor,
): Promise<{ matched: number; suggested: number; unmatched: number }> {
  // The import's own lines are its file's; the other changes are lines of earlier files (neighbours).
  const isNew = (c: LineChange) => c.line.statementFileId === statementFileId;
  const inserted = await writeLineStates(tx, null, null, actor.at, changes.filter(isNew), { inserted: true });
  // Lines of earlier files linked to the same counterparts (a split payout's other half) change with them.
  const neighbours = await writeLineStates(
    tx,
    null,
    null,
    actor.at,
    changes.filter((c) => !isNew(c)),
  );
  await reviewEffects(tx, actor, {
    sepaFileIds: [...new Set([...inserted.sepaFileIds, ...neighbours.sepaFileIds])],
    transferIds: [...new Set([...inserted.transferIds, ...neighbours.transferIds])],
  });
  return counts(statementFileId, newLineCount, changes);
}
