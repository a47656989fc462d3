import type { z } from 'zod';
import type { interestAreaSchema } from '../../contract/interest-areas';
import type { Database, Queryable } from '../db/client';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';

export type InterestArea = z.infer<typeof interestAreaSchema>;

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;

interface AreaRow {
  id: string;
  name: string;
  professionals: number;
  created_at: Date | string;
}

const toArea = (row: AreaRow): InterestArea => ({
  id: row.id,
  name: row.name,
  professionals: row.professionals,
  created: new Date(row.created_at).toISOString(),
});

const SELECT_AREAS = `SELECT a.id, a.name, a.created_at,
    (SELECT count(*)::int FROM professional_interest_areas pia JOIN users u ON u.id = pia.professional_id
      WHERE pia.area_id = a.id AND u.role = 'PROFESSIONAL') AS professionals
  FROM interest_areas a`;

/** A few dozen areas: the whole list in one answer, by name. */
export async function listAreas(db: Queryable, q: string | undefined): Promise<InterestArea[]> {
  const { rows } = await db.query<AreaRow>(
    `${SELECT_AREAS} WHERE $1::text IS NULL OR strpos(lower(a.name), lower($1)) > 0 ORDER BY lower(a.name), a.id`,
    [q ?? null],
  );
  return rows.map(toArea);
}

/** The unique index decides duplicates, so two simultaneous identical POSTs give one 201 and one 409. */
export async function createArea(db: Database, actor: Actor, name: string): Promise<InterestArea> {
  try {
    return await mutation(
      db,
      actor,
      { action: 'interest-area.create', entityType: 'interest_area' },
      async (tx) => {
        const { rows } = await tx.query<AreaRow>(
          'INSERT INTO interest_areas (name, created_at) VALUES ($1, $2) RETURNING id, name, created_at, 0 AS professionals',
          [name, actor.at],
        );
        const area = toArea(rows[0]!);
        return { result: area, entityId: area.id, after: { name: area.name } };
      },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('AREA_OF_INTEREST_ALREADY_EXISTS');
    throw error;
  }
}

/** Removes the area from every professional too (ON DELETE CASCADE); the audit keeps how many. */
export function deleteArea(db: Database, actor: Actor, id: string): Promise<void> {
  return mutation(db, actor, { action: 'interest-area.delete', entityType: 'interest_area' }, async (tx) => {
    const { rows } = await tx.query<AreaRow>(`${SELECT_AREAS} WHERE a.id = $1 FOR UPDATE OF a`, [id]);
    const area = rows[0];
    if (!area) throw refuse('AREA_OF_INTEREST_NOT_FOUND');
    await tx.query('DELETE FROM interest_areas WHERE id = $1', [id]);
    return {
      result: undefined,
      entityId: id,
      before: { name: area.name, professionals: area.professionals },
    };
  });
}
