import { todayInLisbon } from '../../domain/business-days';
import type { Queryable } from '../db/client';

/**
 * DESIGN §6 "funds released": every READY_TO_SETTLE settlement whose available-on date (Europe/Lisbon)
 * has come becomes AVAILABLE, each with an audit row by the system (actor null), in one statement
 * (migration 0015, `release_due_settlements`). Idempotent and safe to run concurrently. The settlement
 * reads call it first, so it starts with a read of the partial index of waiting rows (the first due
 * one, or none): the write statement — its snapshot, locks and audit CTE — runs only when something
 * is due (docs/decisions/0080). Answers how many settlements moved.
 */
export async function releaseDueSettlements(db: Queryable, now: Date): Promise<number> {
  const today = todayInLisbon(now);
  const { rows: due } = await db.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM settlements WHERE status = 'READY_TO_SETTLE' AND available_on <= $1::date) AS due`,
    [today],
  );
  if (!due[0]!.due) return 0;
  const { rows } = await db.query<{ moved: number }>(
    'SELECT release_due_settlements($1::date, $2::timestamptz) AS moved',
    [today, now.toISOString()],
  );
  return Number(rows[0]!.moved);
}
