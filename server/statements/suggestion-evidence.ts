// What a suggestion's why says beyond the domain's explanation of one pair (decision 0177): the evidence
// the matcher read across the file. The account: another line of the same file, from the same payer's
// account, is linked (MATCHED, or suggested sure) to a counterpart of the suggestion's party. The twin:
// the party has another open counterpart of the same kind, amount and day, so the first numbered is
// taken. Read back from the stored links, so it stays true after the operator accepts them.
import { SURE_SUGGESTION } from '../../domain/reconcile/match';
import type { Queryable } from '../db/client';
import { type CounterpartInfo, loadCounterparts } from './counterparts';
import { counterpartKey, linksOf } from './line-state';

/** A suggested line as the listing reads it. */
export interface SuggestedLine {
  id: string;
  statementFileId: string;
  counterpartyIban: string | null;
  counterpart: CounterpartInfo;
}

export interface SuggestionEvidence {
  sameAccount: boolean;
  twin: boolean;
}

/** Each suggested line's evidence, by line id; lines without any are left out. */
export async function suggestionEvidence(
  db: Queryable,
  lines: readonly SuggestedLine[],
): Promise<Map<string, SuggestionEvidence>> {
  const [paidFrom, twins] = await Promise.all([partiesPaidFrom(db, lines), twinsOf(db, lines)]);
  const evidence = new Map<string, SuggestionEvidence>();
  for (const line of lines) {
    const party = line.counterpart.partyId;
    const sameAccount =
      party !== null &&
      line.counterpartyIban !== null &&
      (paidFrom.get(`${line.statementFileId}|${line.counterpartyIban}|${party}`) ?? []).some(
        (other) => other !== line.id,
      );
    const twin = twins.has(line.counterpart.id);
    if (sameAccount || twin) evidence.set(line.id, { sameAccount, twin });
  }
  return evidence;
}

/**
 * The lines of these files printing these accounts that are linked as payments (MATCHED, or suggested
 * at SURE_SUGGESTION) to a counterpart with a party: by "file|account|party", their ids.
 */
async function partiesPaidFrom(
  db: Queryable,
  lines: readonly SuggestedLine[],
): Promise<Map<string, string[]>> {
  const asking = lines.filter((l) => l.counterpartyIban !== null && l.counterpart.partyId !== null);
  if (asking.length === 0) return new Map();
  // The partial index of migration 0061 finds a file's lines of an account without reading the file.
  const { rows } = await db.query<{ id: string; statement_file_id: string; counterparty_iban: string }>(
    `SELECT l.id, l.statement_file_id, l.counterparty_iban FROM statement_lines l
      WHERE l.counterparty_iban IS NOT NULL
        AND (l.statement_file_id, l.counterparty_iban) IN
            (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
    [asking.map((l) => l.statementFileId), asking.map((l) => l.counterpartyIban)],
  );
  if (rows.length === 0) return new Map();
  const links = await linksOf(
    db,
    rows.map((r) => r.id),
  );
  const payments = new Set(
    [...links.values()]
      .flat()
      .filter((l) => l.role === 'PAYMENT' && (l.state === 'MATCHED' || (l.score ?? 0) >= SURE_SUGGESTION)),
  );
  const counterparts = await loadCounterparts(db, [...payments]);
  const paidFrom = new Map<string, string[]>();
  for (const row of rows)
    for (const link of links.get(row.id) ?? []) {
      if (!payments.has(link)) continue;
      const party = counterparts.get(counterpartKey(link))?.partyId;
      if (!party) continue;
      const key = `${row.statement_file_id}|${row.counterparty_iban}|${party}`;
      paidFrom.set(key, [...(paidFrom.get(key) ?? []), row.id]);
    }
  return paidFrom;
}

/** The suggested sales documents whose party has another open one of the same kind, amount and day. */
async function twinsOf(db: Queryable, lines: readonly SuggestedLine[]): Promise<Set<string>> {
  const asking = lines
    .map((l) => l.counterpart)
    .filter((c) => c.kind === 'INVOICE' && c.partyId !== null && c.date !== null);
  if (asking.length === 0) return new Set();
  const { rows } = await db.query<{ id: string; own: string }>(
    `SELECT i.id, t.own FROM unnest($1::date[], $2::bigint[], $3::uuid[]) AS t(day, cents, own)
       JOIN provider_invoices i ON i.invoice_date = t.day AND abs(i.amount_cents) = t.cents AND i.id <> t.own`,
    [asking.map((c) => c.date), asking.map((c) => c.amountCents), asking.map((c) => c.id)],
  );
  if (rows.length === 0) return new Set();
  const others = await loadCounterparts(
    db,
    rows.map((r) => ({ kind: 'INVOICE' as const, id: r.id })),
  );
  const byId = new Map(asking.map((c) => [c.id, c]));
  const twins = new Set<string>();
  for (const row of rows) {
    const own = byId.get(row.own)!;
    const other = others.get(counterpartKey({ kind: 'INVOICE', id: row.id }));
    if (
      other &&
      other.partyId === own.partyId &&
      other.direction === own.direction &&
      other.matchedCents < other.amountCents
    )
      twins.add(own.id);
  }
  return twins;
}
