import type {
  Candidate,
  Counterpart,
  StatementLineListQuery,
  StatementLineRow,
  SuggestionFilter,
} from '../../contract/reconciliation';
import type { StatementLineStatus } from '../../contract/statuses';
import { learnedTexts, ruleFor } from '../../domain/reconcile/learned';
import type { Queryable } from '../db/client';
import { estimatedPage, type KeysetQuery, oneOf, SqlParams } from '../db/list';
import { payoutOwesNoCredit } from '../db/provider-sides';
import { refuse } from '../platform/refusal';
import {
  CANDIDATE_WINDOW_DAYS,
  explainCandidate,
  type LearnedRule,
  rankCandidates,
  type ScoredLine,
} from './candidate-score';
import {
  COUNTERPART_COLUMNS,
  type CounterpartInfo,
  type CounterpartRow,
  loadCounterparts,
  matchedCents,
  toCounterpart,
} from './counterparts';
import { learnedRules } from './learned-rules';
import { counterpartKey, type LinkState, linksOf, type MatchMethod } from './line-state';
import { combinedBreakdown, payoutBreakdowns } from './payout-breakdown';
import { type SuggestionEvidence, suggestionEvidence } from './suggestion-evidence';

const MAX_CANDIDATES = 20;

/** The direction a counterpart must have for the line: its own, inverted for a return. */
const DIRECTION = `(CASE WHEN l.kind = 'return' THEN -1 ELSE 1 END) * sign(l.bank_amount_cents)`;

/** The line's candidates as the row counts them: open counterparts of its amount, its direction, near its date. */
const OPEN_CANDIDATES = `SELECT 1 FROM statement_counterparts c
            WHERE c.amount_cents = abs(l.bank_amount_cents) AND c.direction = ${DIRECTION}
              AND (l.kind <> 'return' OR c.kind = 'SEPA_TRANSFER')
              AND c.date BETWEEN l.bank_date - ${CANDIDATE_WINDOW_DAYS} AND l.bank_date + ${CANDIDATE_WINDOW_DAYS}
              AND (l.kind = 'return' OR c.amount_cents > ${matchedCents('c')})
              AND NOT (c.kind = 'PAYOUT' AND ${payoutOwesNoCredit('c.status')})`;

/**
 * Lines UNMATCHED whose row counts no candidate (decision 0161): bank fees, chargebacks, a line printed
 * twice — what a month's bulk ignore is for. Probed per UNMATCHED line (`statement_lines_status_idx`, then
 * the counterparts' amount indexes), as the row's own count is.
 */
export const noCandidateFilter = () => `l.status = 'UNMATCHED' AND NOT EXISTS (${OPEN_CANDIDATES})`;

/** Answers of more lines than this (a bulk accept, its undo) count candidates only as their suggestion. */
const COUNTED_ROWS = 1000;

const lineSelect = (
  countCandidates: boolean,
) => `l.id, l.statement_file_id, l.line_number, l.bank_amount_cents, l.bank_date::text AS bank_date,
       l.value_date::text AS value_date, l.transaction_date::text AS transaction_date, l.description,
       l.counterparty_name, l.counterparty_iban, l.end_to_end_id, l.batch_id, l.bank_reference, l.kind,
       l.return_reason, l.status, l.match_method, l.notes, l.difference_cents, l.updated_at,
       CASE WHEN ${countCandidates} AND l.status IN ('UNMATCHED', 'SUGGESTED', 'DISCREPANCY') THEN (
         SELECT count(*)::int FROM (${OPEN_CANDIDATES} LIMIT ${MAX_CANDIDATES}) n)
       ELSE 0 END AS candidate_count`;

interface LineRow {
  id: string;
  statement_file_id: string;
  line_number: number;
  bank_amount_cents: string | number;
  bank_date: string;
  value_date: string | null;
  transaction_date: string | null;
  description: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  end_to_end_id: string | null;
  batch_id: string | null;
  bank_reference: string | null;
  kind: StatementLineRow['kind'];
  return_reason: string | null;
  status: StatementLineStatus;
  match_method: MatchMethod | null;
  notes: string | null;
  difference_cents: string | number | null;
  updated_at: Date | string;
  candidate_count: number;
}

const scoredLine = (row: LineRow): ScoredLine => ({
  amountCents: Number(row.bank_amount_cents),
  bookingDate: row.bank_date,
  valueDate: row.value_date,
  description: row.description,
  bankReference: row.bank_reference,
  endToEndId: row.end_to_end_id,
  batchId: row.batch_id,
  counterpartyName: row.counterparty_name,
  counterpartyIban: row.counterparty_iban,
  kind: row.kind,
});

function toCounterpartOut(link: LinkState, info: CounterpartInfo): Counterpart {
  const sign = link.role === 'RETURN' ? -info.direction : info.direction;
  return {
    kind: info.kind,
    id: info.id,
    label: info.label,
    amountCents: info.direction * info.amountCents,
    date: info.date,
    counterpartyName: info.counterpartyName,
    allocatedCents: sign * link.allocatedCents,
    role: link.role,
  };
}

/** One side of the three (payment provider, invoicing provider, our SEPA): Σ amounts, first date. */
function side(matches: Counterpart[], kinds: readonly Counterpart['kind'][]) {
  const mine = matches.filter((m) => kinds.includes(m.kind));
  if (mine.length === 0) return null;
  return {
    amountCents: mine.reduce((sum, m) => sum + m.amountCents, 0),
    date: mine[0]!.date,
    label: mine.map((m) => m.label).join(', '),
  };
}

/**
 * The suggestion with why (amount, date, reference, name: the domain's explanation) and the score the
 * matcher gave it when it made it — the one the "score ≥ x" filter compares (decision 0147); the
 * explanation's own score only for a link kept without one.
 */
function explainSuggestion(
  row: LineRow,
  link: LinkState,
  counterparts: ReadonlyMap<string, CounterpartInfo>,
  learned: LearnedRule | null,
  evidence: SuggestionEvidence | undefined,
): Candidate | null {
  const explained = explainCandidate(scoredLine(row), counterparts.get(counterpartKey(link))!, learned);
  return (
    explained && {
      ...explained,
      score: link.score ?? explained.score,
      // What the matcher read across the file (decision 0177).
      reasons: { ...explained.reasons, ...evidence },
    }
  );
}

async function toRows(db: Queryable, rows: LineRow[]): Promise<StatementLineRow[]> {
  const links = await linksOf(
    db,
    rows.map((r) => r.id),
  );
  const counterparts = await loadCounterparts(db, [...links.values()].flat());
  const matchedPayouts = (row: LineRow) =>
    (links.get(row.id) ?? []).filter((l) => l.state === 'MATCHED' && l.kind === 'PAYOUT').map((l) => l.id);
  const breakdowns = await payoutBreakdowns(db, [...new Set(rows.flatMap(matchedPayouts))]);
  // The learned rules of the suggested lines' texts (the payer's IBAN's, the name's), to name the rule in
  // their explanation.
  const textsOf = new Map<string, string[]>();
  for (const row of rows)
    if (links.get(row.id)?.some((l) => l.state === 'SUGGESTED'))
      textsOf.set(row.id, learnedTexts(scoredLine(row)));
  const learned = await learnedRules(db, [...textsOf.values()].flat());
  const learnedRule = (row: LineRow): LearnedRule | null => ruleFor(textsOf.get(row.id) ?? [], learned);
  const suggestedOf = (row: LineRow) => (links.get(row.id) ?? []).find((l) => l.state === 'SUGGESTED');
  const evidence = await suggestionEvidence(
    db,
    rows.flatMap((row) => {
      const link = suggestedOf(row);
      return link
        ? [
            {
              id: row.id,
              statementFileId: row.statement_file_id,
              counterpartyIban: row.counterparty_iban,
              counterpart: counterparts.get(counterpartKey(link))!,
            },
          ]
        : [];
    }),
  );
  return rows.map((row) => {
    const own = links.get(row.id) ?? [];
    const matches = own
      .filter((l) => l.state === 'MATCHED')
      .map((l) => toCounterpartOut(l, counterparts.get(counterpartKey(l))!));
    const suggested = suggestedOf(row);
    const suggestion = suggested
      ? explainSuggestion(row, suggested, counterparts, learnedRule(row), evidence.get(row.id))
      : null;
    const provider = side(matches, ['PAYOUT']);
    const invoicing = side(matches, ['INVOICE']);
    const sepa = side(matches, ['SEPA_FILE', 'SEPA_TRANSFER']);
    return {
      id: row.id,
      statementFileId: row.statement_file_id,
      lineNumber: row.line_number,
      bankAmountCents: Number(row.bank_amount_cents),
      bankDate: row.bank_date,
      valueDate: row.value_date,
      transactionDate: row.transaction_date,
      description: row.description,
      counterpartyName: row.counterparty_name,
      counterpartyIban: row.counterparty_iban,
      kind: row.kind,
      returnReason: row.return_reason,
      status: row.status,
      matchMethod: row.match_method,
      notes: row.notes,
      provider: provider && { amountCents: provider.amountCents, date: provider.date },
      payoutBreakdown: combinedBreakdown(matchedPayouts(row).flatMap((id) => breakdowns.get(id) ?? [])),
      invoicing: invoicing && { amountCents: invoicing.amountCents, date: invoicing.date },
      sepa,
      matches,
      suggestion,
      candidateCount: Math.max(row.candidate_count, suggestion ? 1 : 0),
      differenceCents: row.difference_cents === null ? null : Number(row.difference_cents),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  });
}

/** The rows of these lines as they are now, in the order given (missing ids left out). */
export async function lineRows(db: Queryable, ids: readonly string[]): Promise<StatementLineRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<LineRow>(
    `SELECT ${lineSelect(ids.length <= COUNTED_ROWS)} FROM statement_lines l WHERE l.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map((await toRows(db, rows)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The line facts a filter may name (the list's and the score filter's). */
type LineFacts = Omit<SuggestionFilter, 'minScore'>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The line's suggestion scores at least `minScore` (decision 0147): the line SUGGESTED, its suggested
 * link's score (a `real`, compared as one so 0.95 selects what was stored as 0.95) at least that.
 */
export function scoreFilter(params: SqlParams, minScore: number): string {
  return `l.status = 'SUGGESTED' AND EXISTS (
    SELECT 1 FROM statement_line_matches m
     WHERE m.statement_line_id = l.id AND m.state = 'SUGGESTED' AND m.score >= ${params.add(minScore)}::real)`;
}

/**
 * Lines imported in `month` (Lisbon) and MATCHED without a decision taken line by line (decision 0147):
 * by the import's matcher and untouched since (no action: `last_action_id` null), or by `Shift+a` over a
 * "score ≥ x" filter (the accept's audit row names its filter). The files of the month lead (by their
 * import index), then each file's MATCHED lines (`statement_lines_file_status_date_idx`). The dashboard's
 * automation card counts the same with its own SQL (server/dashboard/dashboard.ts; tests/api/dashboard.test.ts
 * fails if they disagree).
 */
export function automatedFilter(params: SqlParams, month: string): string {
  const start = `(${params.add(`${month}-01`)}::date::timestamp AT TIME ZONE 'Europe/Lisbon')`;
  const end = `((${params.add(`${month}-01`)}::date + interval '1 month')::timestamp AT TIME ZONE 'Europe/Lisbon')`;
  return `l.statement_file_id IN (SELECT f.id FROM statement_files f WHERE f.imported_at >= ${start} AND f.imported_at < ${end})
    AND l.status = 'MATCHED' AND l.match_method IN ('REFERENCE', 'AMOUNT_COUNTERPARTY_DATE')
    AND (l.last_action_id IS NULL OR l.last_action_id IN (
      SELECT (a.after->>'actionId')::uuid FROM audit_log a
       WHERE a.action = 'statement.bulk-accept' AND a.after ? 'filter' AND a.created_at >= ${start}))`;
}

/**
 * The line is MATCHED to a payout one of whose charges paid a settlement that no invoice bills: what the
 * payout breakdown counts as `settlementsWithoutInvoice` (server/statements/payout-breakdown.ts, decision
 * 0156), both read from the figure each payout keeps (migration 0056, decision 0167). Found from the
 * payouts' side (decision 0158): the few payouts whose figure is above 0 (a partial index), then their
 * MATCHED lines by payout — neither the lines nor the charge rows are walked.
 */
export function payoutWithoutInvoiceFilter(): string {
  // ARRAY(…): each set computed once, first (an IN is flattened into a join the planner drives from the lines).
  return `l.status = 'MATCHED' AND l.id = ANY (ARRAY(
    SELECT m.statement_line_id FROM statement_line_matches m
     WHERE m.state = 'MATCHED' AND m.payout_id = ANY (ARRAY(
       SELECT p.id FROM provider_payouts p WHERE p.settlements_without_invoice > 0))))`;
}

/** Every filter of the reconciliation table, each on an indexed column (migration 0022). */
function lineFilters(params: SqlParams, query: StatementLineListQuery): string[] {
  const where = lineFactFilters(params, query);
  if (query.status?.length) where.push(...oneOf(params, 'l.status', query.status));
  if (query.minScore !== undefined) where.push(scoreFilter(params, query.minScore));
  if (query.automatedMonth) where.push(automatedFilter(params, query.automatedMonth));
  if (query.payoutWithoutInvoice) where.push(payoutWithoutInvoiceFilter());
  if (query.noCandidate) where.push(noCandidateFilter());
  return where;
}

/**
 * The filters on what a line is and never changes: its file, kind, dates, amount, counterparty and the
 * words the bank printed (`text`: contained anywhere, so no index serves it — the other filters and the
 * status narrow first; decision 0161).
 */
export function lineFactFilters(params: SqlParams, query: LineFacts): string[] {
  const where: string[] = [];
  if (query.statementFileId) where.push(`l.statement_file_id = ${params.add(query.statementFileId)}::uuid`);
  if (query.kind) where.push(`l.kind = ${params.add(query.kind)}`);
  if (query.from) where.push(`l.bank_date >= ${params.add(query.from)}::date`);
  if (query.to) where.push(`l.bank_date <= ${params.add(query.to)}::date`);
  if (query.minCents !== undefined)
    where.push(`l.bank_amount_cents >= ${params.add(query.minCents)}::bigint`);
  if (query.maxCents !== undefined)
    where.push(`l.bank_amount_cents <= ${params.add(query.maxCents)}::bigint`);
  if (query.counterparty) {
    const name = `${escapeLike(query.counterparty.toLowerCase())}%`;
    const iban = `${escapeLike(query.counterparty.replace(/\s+/g, '').toUpperCase())}%`;
    where.push(
      `(lower(l.counterparty_name) LIKE ${params.add(name)} OR l.counterparty_iban LIKE ${params.add(iban)})`,
    );
  }
  if (query.text) {
    const words = params.add(`%${escapeLike(query.text.toLowerCase())}%`);
    where.push(`(lower(l.description) LIKE ${words} OR lower(l.counterparty_name) LIKE ${words})`);
  }
  return where;
}

/** Exact totals up to this many lines; the planner's estimate beyond. */
const EXACT_TOTAL_LIMIT = 10_000;

/** The reconciliation table: lines of every file or one, filtered, keyset by bank date then id. */
export async function listLines(db: Queryable, query: StatementLineListQuery) {
  const params = new SqlParams();
  const keyset: KeysetQuery = {
    select: lineSelect(true),
    from: 'FROM statement_lines l',
    where: lineFilters(params, query),
    params,
    sort: { sql: 'l.bank_date', type: 'date' },
    id: 'l.id',
    order: query.order,
  };
  const page = await estimatedPage<LineRow>(
    db,
    keyset,
    { sort: 'bankDate', order: query.order, cursor: query.cursor, limit: query.limit },
    'FROM statement_lines l',
    EXACT_TOTAL_LIMIT,
  );
  return {
    items: await toRows(db, page.rows),
    nextCursor: page.nextCursor,
    total: page.total,
    ...(page.totalEstimated ? { totalEstimated: true as const } : {}),
  };
}

/**
 * The line's candidates, best first, each with why (the domain's `candidatesFor`): counterparts in its
 * direction near its date, of any amount (so the parts of a split and a near amount, a DISCREPANCY, can
 * be picked; decision 0092), or named by its references, still open. The nearest amounts are kept.
 */
export async function lineCandidates(db: Queryable, lineId: string): Promise<Candidate[]> {
  const { rows } = await db.query<LineRow>(
    `SELECT ${lineSelect(true)} FROM statement_lines l WHERE l.id = $1`,
    [lineId],
  );
  const row = rows[0];
  if (!row) throw refuse('STATEMENT_LINE_NOT_FOUND');
  const amount = Number(row.bank_amount_cents);
  const direction = (row.kind === 'return' ? -1 : 1) * Math.sign(amount);
  const references = [
    row.end_to_end_id,
    row.batch_id,
    row.bank_reference,
    ...row.description.split(/[\s,;:()]+/),
  ]
    .filter((r): r is string => !!r && r.length >= 4)
    .slice(0, 50);
  const { rows: found } = await db.query<CounterpartRow>(
    `SELECT ${COUNTERPART_COLUMNS} FROM statement_counterparts c
      WHERE c.direction = $1 AND ($4::text <> 'return' OR c.kind = 'SEPA_TRANSFER')
        AND NOT (c.kind = 'PAYOUT' AND ${payoutOwesNoCredit('c.status')})
        AND (c.date BETWEEN $3::date - ${CANDIDATE_WINDOW_DAYS} AND $3::date + ${CANDIDATE_WINDOW_DAYS}
             OR c.reference = ANY($5::text[]) OR c.label = ANY($5::text[]))
      ORDER BY (c.reference = ANY($5::text[]) OR c.label = ANY($5::text[])) DESC,
               abs(c.amount_cents - $2), c.id
      LIMIT 200`,
    [direction, Math.abs(amount), row.bank_date, row.kind, references],
  );
  const linked = new Set((await linksOf(db, [lineId])).get(lineId)?.map((l) => l.id) ?? []);
  const open = found
    .map(toCounterpart)
    .filter((c) => row.kind === 'return' || c.amountCents > c.matchedCents || linked.has(c.id));
  const texts = learnedTexts(scoredLine(row));
  return rankCandidates(scoredLine(row), open, {
    windowDays: CANDIDATE_WINDOW_DAYS,
    limit: MAX_CANDIDATES,
    learned: ruleFor(texts, await learnedRules(db, texts)),
  });
}
