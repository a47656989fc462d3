import type { CounterpartKind } from '../../contract/reconciliation';
import type { StatementLineStatus } from '../../contract/statuses';
import type { Queryable } from '../db/client';
import { orderedIds } from '../platform/ordered-ids';
import { refuse } from '../platform/refusal';

/**
 * A statement line's reconciliation state and how it is written: every change of a line — the
 * matcher at import, each action of the reconciliation table, an undo — goes through `writeLineStates`,
 * which replaces the line's links, updates the line and writes one history row per line (who, when,
 * before → after), set-based so 10,000 lines cost a handful of statements. The import's own lines are
 * inserted in their decided state and carry the matcher's decision themselves (decision 0115).
 */

export type MatchMethod = 'REFERENCE' | 'AMOUNT_COUNTERPARTY_DATE' | 'MANUAL';
export type LinkRole = 'PAYMENT' | 'RETURN';

export interface LinkState {
  kind: CounterpartKind;
  id: string;
  role: LinkRole;
  state: 'SUGGESTED' | 'MATCHED';
  /** The part of the counterpart's amount the line covers, positive. */
  allocatedCents: number;
  score: number | null;
}

export interface LineState {
  status: StatementLineStatus;
  matchMethod: MatchMethod | null;
  notes: string | null;
  differenceCents: number | null;
  links: LinkState[];
}

export interface LockedLine extends LineState {
  id: string;
  statementFileId: string;
  amountCents: number;
  bankDate: string;
  kind: 'transfer' | 'return' | 'fee' | 'other';
  returnReason: string | null;
  lastActionId: string | null;
  reconciled: boolean;
}

export const counterpartKey = (link: { kind: CounterpartKind; id: string }) => `${link.kind}:${link.id}`;

/**
 * A link's score as it is kept: three decimals, as the API shows it. The matcher's scores are rounded so
 * before they are stored (a `real`), so what the import writes on a line (its `import_decision`) and what
 * `linksOf` reads back from the links are the same numbers.
 */
export const storedScore = (score: number): number => Math.round(score * 1000) / 1000;

/** The links of some lines, as LinkStates by line id. */
export async function linksOf(db: Queryable, lineIds: readonly string[]): Promise<Map<string, LinkState[]>> {
  const { rows } = await db.query<{
    statement_line_id: string;
    kind: CounterpartKind;
    counterpart_id: string;
    role: LinkRole;
    state: LinkState['state'];
    allocated_cents: string | number;
    score: number | null;
  }>(
    `SELECT statement_line_id, kind, coalesce(sepa_file_id, sepa_transaction_id, payout_id, invoice_id) AS counterpart_id,
            role, state, allocated_cents, score
       FROM statement_line_matches WHERE statement_line_id = ANY($1::uuid[]) ORDER BY statement_line_id, created_at, id`,
    [lineIds],
  );
  const links = new Map<string, LinkState[]>();
  for (const row of rows) {
    const list = links.get(row.statement_line_id) ?? [];
    list.push({
      kind: row.kind,
      id: row.counterpart_id,
      role: row.role,
      state: row.state,
      allocatedCents: Number(row.allocated_cents),
      score: row.score === null ? null : storedScore(row.score),
    });
    links.set(row.statement_line_id, list);
  }
  return links;
}

interface LineRow {
  id: string;
  statement_file_id: string;
  bank_amount_cents: string | number;
  bank_date: string;
  kind: LockedLine['kind'];
  return_reason: string | null;
  status: StatementLineStatus;
  match_method: MatchMethod | null;
  notes: string | null;
  difference_cents: string | number | null;
  last_action_id: string | null;
  reconciled: boolean;
}

/**
 * The lines, locked until the transaction ends (in id order, so two actions over the same lines
 * take turns instead of deadlocking), with their links. Missing ids are simply absent.
 */
export async function lockLines(tx: Queryable, ids: readonly string[]): Promise<Map<string, LockedLine>> {
  const { rows } = await tx.query<LineRow>(
    `SELECT l.id, l.statement_file_id, l.bank_amount_cents, l.bank_date::text AS bank_date, l.kind, l.return_reason,
            l.status, l.match_method, l.notes, l.difference_cents, l.last_action_id,
            (f.reconciled_at IS NOT NULL) AS reconciled
       FROM statement_lines l JOIN statement_files f ON f.id = l.statement_file_id
      WHERE l.id = ANY($1::uuid[]) ORDER BY l.id FOR UPDATE OF l FOR SHARE OF f`,
    [ids],
  );
  const links = await linksOf(
    tx,
    rows.map((r) => r.id),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        statementFileId: r.statement_file_id,
        amountCents: Number(r.bank_amount_cents),
        bankDate: r.bank_date,
        kind: r.kind,
        returnReason: r.return_reason,
        status: r.status,
        matchMethod: r.match_method,
        notes: r.notes,
        differenceCents: r.difference_cents === null ? null : Number(r.difference_cents),
        lastActionId: r.last_action_id,
        reconciled: r.reconciled,
        links: links.get(r.id) ?? [],
      },
    ]),
  );
}

/** What a line is, for its history and for an undo: the state without the line's fixed facts. */
export const stateOf = (line: LineState): LineState => ({
  status: line.status,
  matchMethod: line.matchMethod,
  notes: line.notes,
  differenceCents: line.differenceCents,
  links: line.links,
});

export interface LineChange {
  line: LockedLine;
  next: LineState;
}

/** The history row's action: the new status, or NOTE when only the note changed. */
function historyAction(change: LineChange): string {
  const { line, next } = change;
  if (line.status === next.status && line.notes !== next.notes && sameLinks(line.links, next.links))
    return 'NOTE';
  return next.status;
}

const sameLinks = (a: LinkState[], b: LinkState[]) => JSON.stringify(a) === JSON.stringify(b);

/** Unique or amount violations of statement_line_matches: someone else took the counterpart. */
function counterpartTaken(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === '23514';
}

/**
 * One history row per change (before → after as JSON), sent as ONE JSON document: a jsonb[] parameter
 * of 10,000 states cost more to escape and parse than the INSERT itself.
 */
async function writeHistory(
  tx: Queryable,
  actorId: string | null,
  at: Date,
  changes: readonly LineChange[],
): Promise<void> {
  const rows = changes.map((c) => ({
    id: c.line.id,
    action: historyAction(c),
    before: stateOf(c.line),
    after: stateOf(c.next),
  }));
  await tx.query(
    `INSERT INTO statement_line_history (statement_line_id, actor_id, action, before, after, created_at)
     SELECT h.id, $2::uuid, h.action, h.before, h.after, $3
       FROM jsonb_to_recordset($1::jsonb) AS h(id uuid, action text, before jsonb, after jsonb)`,
    [JSON.stringify(rows), actorId, at],
  );
}

export interface Written {
  /** SEPA files and transfers whose links changed: the consequences to review. */
  sepaFileIds: string[];
  transferIds: string[];
}

/**
 * Writes the next state of each line: its links replaced, the line updated (its `last_action_id`
 * set, which is what an undo checks), one history row each. `actorId` null: the matcher. The links'
 * ids increase in each line's order, so `linksOf` (by time, then id) reads them back in that order.
 */
export async function writeLineStates(
  tx: Queryable,
  actorId: string | null,
  actionId: string | null,
  at: Date,
  changes: readonly LineChange[],
  options: {
    /** The import wrote these lines in this transaction already in their next state (decision 0097). */
    inserted?: boolean;
    /** An undo: each line's last action becomes this one instead (the action before the one undone). */
    previousActions?: ReadonlyMap<string, string | null>;
  } = {},
): Promise<Written> {
  if (changes.length === 0) return { sepaFileIds: [], transferIds: [] };
  const ids = changes.map((c) => c.line.id);
  // Lines the import inserted in their next state have no links to replace and no row to update.
  if (!options.inserted)
    await tx.query('DELETE FROM statement_line_matches WHERE statement_line_id = ANY($1::uuid[])', [ids]);
  const links = changes.flatMap((c) => c.next.links.map((link) => ({ lineId: c.line.id, link })));
  if (links.length > 0) {
    const column = (kind: CounterpartKind) => links.map(({ link }) => (link.kind === kind ? link.id : null));
    try {
      await tx.query(
        `INSERT INTO statement_line_matches (id, statement_line_id, kind, sepa_file_id, sepa_transaction_id, payout_id,
                                             invoice_id, role, state, allocated_cents, score, created_at)
         SELECT *, $12::timestamptz FROM unnest($11::uuid[], $1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[],
                                               $6::uuid[], $7::text[], $8::text[], $9::bigint[], $10::real[])`,
        [
          links.map((l) => l.lineId),
          links.map((l) => l.link.kind),
          column('SEPA_FILE'),
          column('SEPA_TRANSFER'),
          column('PAYOUT'),
          column('INVOICE'),
          links.map((l) => l.link.role),
          links.map((l) => l.link.state),
          links.map((l) => l.link.allocatedCents),
          links.map((l) => l.link.score),
          orderedIds(links.length),
          at,
        ],
      );
    } catch (error) {
      if (counterpartTaken(error)) throw refuse('STATEMENT_COUNTERPART_TAKEN');
      throw error;
    }
  }
  if (!options.inserted)
    await tx.query(
      `UPDATE statement_lines l
        SET status = c.status, match_method = c.method, notes = c.notes, difference_cents = c.difference,
            last_action_id = CASE WHEN $8 THEN c.previous ELSE coalesce($6::uuid, l.last_action_id) END, updated_at = $7
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $9::uuid[])
         AS c(id, status, method, notes, difference, previous)
      WHERE l.id = c.id`,
      [
        ids,
        changes.map((c) => c.next.status),
        changes.map((c) => c.next.matchMethod),
        changes.map((c) => c.next.notes),
        changes.map((c) => c.next.differenceCents),
        actionId,
        at,
        options.previousActions !== undefined,
        changes.map((c) => options.previousActions?.get(c.line.id) ?? null),
      ],
    );
  // The import's lines carry the matcher's decision themselves (`import_decision`, decision 0115).
  if (!options.inserted) await writeHistory(tx, actorId, at, changes);
  const touched = changes.flatMap((c) => [...c.line.links, ...c.next.links]);
  const transferIds = [...new Set(touched.filter((l) => l.kind === 'SEPA_TRANSFER').map((l) => l.id))];
  const { rows } = await tx.query<{ sepa_file_id: string }>(
    'SELECT DISTINCT sepa_file_id FROM sepa_transactions WHERE id = ANY($1::uuid[])',
    [transferIds],
  );
  const sepaFileIds = new Set([
    ...touched.filter((l) => l.kind === 'SEPA_FILE').map((l) => l.id),
    ...rows.map((r) => r.sepa_file_id),
  ]);
  return { sepaFileIds: [...sepaFileIds], transferIds };
}
