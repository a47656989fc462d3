// Learned rules (decision 0146, migration 0042): a line matched by hand or by an accepted suggestion
// teaches its counterparty text and its payer's IBAN (decision 0160) → the counterpart's party, in the
// match's transaction; the import's
// matcher and the lines' explanations read them back.
import { type LearnedRules, learnedTexts } from '../../domain/reconcile/learned';
import type { Queryable } from '../db/client';
import type { LineChange } from './line-state';

/** What one action taught: the texts and the party each now names. */
export interface LearnedRule {
  text: string;
  partyId: string;
}

/**
 * The rules of the lines these changes MATCHED to one counterpart that has a party (a transfer's doctor,
 * a sales document's customer): each line's texts — its payer's IBAN, its counterparty text (decision
 * 0160) — upserted: the same party again counts one more match; another party contradicts the rule,
 * which then names nobody (the text is two parties'). Answers them for the action's audit row.
 */
export async function learnFromMatches(
  tx: Queryable,
  actionId: string,
  at: Date,
  changes: readonly LineChange[],
): Promise<LearnedRule[]> {
  const counterpartOf = new Map<string, string>();
  for (const c of changes) {
    if (c.next.status !== 'MATCHED' && c.next.status !== 'DISCREPANCY') continue;
    const payments = c.next.links.filter((l) => l.state === 'MATCHED' && l.role === 'PAYMENT');
    // One line to one counterpart says who the text is; a line split over several says nothing of one.
    if (payments.length === 1) counterpartOf.set(c.line.id, payments[0]!.id);
  }
  if (counterpartOf.size === 0) return [];
  const { rows } = await tx.query<{
    id: string;
    description: string;
    counterparty_name: string | null;
    counterparty_iban: string | null;
    party_id: string;
  }>(
    // `c.id = ANY(…)` reaches every branch of the view as a primary-key lookup (as `loadCounterparts`).
    `WITH parties AS (
       SELECT c.id, c.party_id FROM statement_counterparts c
        WHERE c.id = ANY($2::uuid[]) AND c.party_id IS NOT NULL
     )
     SELECT l.id, l.description, l.counterparty_name, l.counterparty_iban, p.party_id
       FROM unnest($1::uuid[], $2::uuid[]) AS m(line_id, counterpart_id)
       JOIN statement_lines l ON l.id = m.line_id
       JOIN parties p ON p.id = m.counterpart_id`,
    [[...counterpartOf.keys()], [...counterpartOf.values()]],
  );
  const rules = new Map<string, string>();
  for (const row of rows)
    for (const text of learnedTexts({
      counterpartyName: row.counterparty_name,
      counterpartyIban: row.counterparty_iban,
      description: row.description,
    }))
      rules.set(text, row.party_id);
  if (rules.size === 0) return [];
  await tx.query(
    `INSERT INTO statement_learned_parties (counterparty_text, party_id, last_action_id, updated_at)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::timestamptz[])
     ON CONFLICT (counterparty_text) DO UPDATE
        SET times_matched = statement_learned_parties.times_matched + 1,
            contradicted = statement_learned_parties.contradicted
                           OR statement_learned_parties.party_id <> EXCLUDED.party_id,
            last_action_id = EXCLUDED.last_action_id,
            updated_at = EXCLUDED.updated_at`,
    [
      [...rules.keys()],
      [...rules.values()],
      [...rules.keys()].map(() => actionId),
      [...rules.keys()].map(() => at),
    ],
  );
  return [...rules].map(([text, partyId]) => ({ text, partyId }));
}

/**
 * The rules for these texts (null: all of them — the import's matcher, whose lines are many while the
 * rules are the operator's own matches, one row per text ever matched by hand); with `taughtBy`, only
 * rules last taught before it, of all texts (the rules as a file's import saw them, decision 0179).
 */
export async function learnedRules(
  db: Queryable,
  texts: readonly string[] | null,
  taughtBy: Date | null = null,
): Promise<LearnedRules> {
  if (texts !== null && texts.length === 0) return new Map();
  const { rows } = await db.query<{ counterparty_text: string; party_id: string }>(
    texts === null
      ? `SELECT counterparty_text, party_id FROM statement_learned_parties
          WHERE NOT contradicted AND ($1::timestamptz IS NULL OR updated_at < $1::timestamptz)`
      : `SELECT counterparty_text, party_id FROM statement_learned_parties
          WHERE NOT contradicted AND counterparty_text = ANY($1::text[])`,
    texts === null ? [taughtBy] : [[...new Set(texts)]],
  );
  return new Map(rows.map((r) => [r.counterparty_text, r.party_id]));
}
