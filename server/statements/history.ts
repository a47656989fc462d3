import type { z } from 'zod';
import type { statementLineHistorySchema } from '../../contract/reconciliation';
import type { Queryable } from '../db/client';
import { refuse } from '../platform/refusal';
import type { LineState } from './line-state';

type History = z.infer<typeof statementLineHistorySchema>;

/** What the matcher found a line to be before deciding: as every line is imported. */
const IMPORTED_STATE: LineState = {
  status: 'UNMATCHED',
  matchMethod: null,
  notes: null,
  differenceCents: null,
  links: [],
};

const fromJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/** A line's history in the order it was written: who (null: the importer or the matcher), when, before → after. */
export async function lineHistory(db: Queryable, lineId: string): Promise<History> {
  const { rows: line } = await db.query('SELECT 1 FROM statement_lines WHERE id = $1', [lineId]);
  if (line.length === 0) throw refuse('STATEMENT_LINE_NOT_FOUND');
  const { rows } = await db.query<{
    actor_id: string | null;
    actor_name: string | null;
    action: History['items'][number]['action'];
    before: unknown;
    after: unknown;
    created_at: Date | string;
  }>(
    // An import writes no history row per line (decisions 0097, 0115): its first entry is the file's
    // upload, unless the line has an IMPORTED row of its own (lines seeded or imported before 0097); the
    // next, the matcher's decision the line carries (UNMATCHED → the state it was imported in), if any.
    `SELECT f.uploaded_by AS actor_id, u.name AS actor_name, 'IMPORTED' AS action, NULL::jsonb AS before,
            jsonb_build_object('status', 'UNMATCHED', 'bankAmountCents', l.bank_amount_cents, 'bankDate', l.bank_date) AS after,
            l.imported_at AS created_at, -1::bigint AS position
       FROM statement_lines l
       JOIN statement_files f ON f.id = l.statement_file_id
       LEFT JOIN users u ON u.id = f.uploaded_by
      WHERE l.id = $1
        AND NOT EXISTS (SELECT 1 FROM statement_line_history i WHERE i.statement_line_id = l.id AND i.action = 'IMPORTED')
     UNION ALL
     SELECT NULL, NULL, l.import_decision->>'status', $2::jsonb, l.import_decision, l.imported_at, 0
       FROM statement_lines l
      WHERE l.id = $1 AND l.import_decision IS NOT NULL
     UNION ALL
     SELECT h.actor_id, u.name, h.action, h.before, h.after, h.created_at, h.id
       FROM statement_line_history h LEFT JOIN users u ON u.id = h.actor_id
      WHERE h.statement_line_id = $1
      ORDER BY position`,
    [lineId, JSON.stringify(IMPORTED_STATE)],
  );
  return {
    items: rows.map((r) => ({
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
      action: r.action,
      before: fromJson(r.before) ?? null,
      after: fromJson(r.after) ?? null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}
