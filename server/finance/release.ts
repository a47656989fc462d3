import { todayInLisbon } from '../../domain/business-days';
import type { Queryable } from '../db/client';

/**
 * DESIGN §6 "funds released": every READY_TO_SETTLE settlement whose available-on date (Europe/Lisbon)
 * has come becomes AVAILABLE, each with an audit row by the system (actor null), in one statement
 * (migration 0015, `release_due_settlements`). Idempotent and safe to run concurrently; cheap when
 * nothing is due (a partial index holds only the waiting rows), so the settlement reads call it first.
 * Answers how many settlements moved.
 */
export async function releaseDueSettlements(db: Queryable, now: Date): Promise<number> {
  const { rows } = await db.query<{ moved: number }>(
    'SELECT release_due_settlements($1::date, $2::timestamptz) AS moved',
    [todayInLisbon(now), now.toISOString()],
  );
  return Number(rows[0]!.moved);
}
