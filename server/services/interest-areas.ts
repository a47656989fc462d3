import { z } from 'zod';
import type { Database, Queryable } from '../db/client';
import { ApiError } from '../http/errors';
import { recordAudit } from './audit';
import type { Actor } from './users-transitions';

export const AREA_NAME_MAX = 80;

export const interestAreaSchema = z.object({
  id: z.guid(),
  name: z.string(),
  professionals: z.number().int(),
  created: z.iso.datetime(),
});
export type InterestArea = z.infer<typeof interestAreaSchema>;

/** Trimmed, inner runs of spaces collapsed: the same folding as the unique index of migration 0002. */
export const areaNameSchema = z
  .string()
  .transform((name) => name.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1).max(AREA_NAME_MAX));

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;

const areaNotFound = () => new ApiError(404, 'AREA_OF_INTEREST_NOT_FOUND');

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
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<AreaRow>(
        'INSERT INTO interest_areas (name, created_at) VALUES ($1, $2) RETURNING id, name, created_at, 0 AS professionals',
        [name, actor.at],
      );
      const area = toArea(rows[0]!);
      await recordAudit(tx, {
        actorId: actor.userId,
        action: 'interest-area.create',
        entityType: 'interest_area',
        entityId: area.id,
        after: { name: area.name },
        at: actor.at,
      });
      return area;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, 'AREA_OF_INTEREST_ALREADY_EXISTS');
    throw error;
  }
}

/** Removes the area from every professional too (ON DELETE CASCADE); the audit keeps how many. */
export function deleteArea(db: Database, actor: Actor, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<AreaRow>(`${SELECT_AREAS} WHERE a.id = $1 FOR UPDATE OF a`, [id]);
    const area = rows[0];
    if (!area) throw areaNotFound();
    await tx.query('DELETE FROM interest_areas WHERE id = $1', [id]);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: 'interest-area.delete',
      entityType: 'interest_area',
      entityId: id,
      before: { name: area.name, professionals: area.professionals },
      at: actor.at,
    });
  });
}
