import type { z } from 'zod';
import type { statementLineHistorySchema } from '../../contract/reconciliation';
import type { Queryable } from '../db/client';
import { refuse } from '../platform/refusal';

type History = z.infer<typeof statementLineHistorySchema>;

const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

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
    `SELECT h.actor_id, u.name AS actor_name, h.action, h.before, h.after, h.created_at
       FROM statement_line_history h LEFT JOIN users u ON u.id = h.actor_id
      WHERE h.statement_line_id = $1 ORDER BY h.id`,
    [lineId],
  );
  return {
    items: rows.map((r) => ({
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
      action: r.action,
      before: parsed(r.before) ?? null,
      after: parsed(r.after) ?? null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}
