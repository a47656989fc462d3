import type { Queryable } from '../db/client';

/** Professionals per status, exactly (the sidebar badges), with 0 for a status nobody has. */
export async function countProfessionalsByStatus<S extends string>(
  db: Queryable,
  statuses: readonly S[],
): Promise<Record<S, number>> {
  const { rows } = await db.query<{ status: S; count: number }>(
    `SELECT status, count(*)::int AS count FROM users
      WHERE role = 'PROFESSIONAL' AND status = ANY($1::text[])
      GROUP BY status`,
    [statuses],
  );
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}
