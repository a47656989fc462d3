import type { z } from 'zod';
import type { storedFileSchema, userDetailSchema } from '../../contract/users';
import { checkPayableIban, missingProfessionalFields } from '../../domain/iban';
import type { Queryable } from '../db/client';
import { refuse } from '../platform/refusal';
import { areasOf, isoTime, SUMMARY_COLUMNS, type SummaryRow, toUserSummary } from './summary';

export type UserDetail = z.infer<typeof userDetailSchema>;

export const userNotFound = () => refuse('USER_NOT_FOUND');

interface DetailRow extends SummaryRow {
  birth_date: string | Date | null;
  id_card_number: string | null;
  case_price_cents: number | null;
  case_currency: string;
  subscription_price_cents: number | null;
  subscription_currency: string;
  current_workplaces: string[];
  specialities: string[];
  referral_name: string | null;
  professional_background: string | null;
  association_link: string | null;
  avatar_file_id: string | null;
  college_card_front_file_id: string | null;
  college_card_back_file_id: string | null;
  bic_swift: string | null;
  iban: string | null;
}

const AUDIT_SHOWN = 100;
const downloadUrl = (fileId: string) => `/v2/admin/attachments/${fileId}/download`;

export async function loadUserDetail(db: Queryable, id: string): Promise<UserDetail> {
  const { rows } = await db.query<DetailRow>(
    `SELECT ${SUMMARY_COLUMNS}, u.birth_date::text AS birth_date, u.id_card_number, u.case_price_cents,
            u.case_currency, u.subscription_price_cents, u.subscription_currency, u.current_workplaces,
            u.specialities, u.referral_name, u.professional_background, u.association_link, u.avatar_file_id,
            u.college_card_front_file_id, u.college_card_back_file_id, u.bic_swift, u.iban
       FROM users u WHERE u.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw userNotFound();
  const [areas, files, shareLink, adminActions] = await Promise.all([
    areasOf(db, [row.id]),
    filesById(db, [row.college_card_front_file_id, row.college_card_back_file_id]),
    shareLinkStats(db, row),
    auditOf(db, row.id),
  ]);
  // Same rule as missingFields: an IBAN no SEPA transfer can reach is not valid for payouts.
  const iban = checkPayableIban(row.iban);
  return {
    ...toUserSummary(row, areas.get(row.id) ?? []),
    birthDate: row.birth_date === null ? null : String(row.birth_date).slice(0, 10),
    idCardNumber: row.id_card_number,
    casePriceCents: row.case_price_cents,
    caseCurrency: row.case_currency,
    subscriptionPriceCents: row.subscription_price_cents,
    subscriptionCurrency: row.subscription_currency,
    currentWorkplaces: row.current_workplaces,
    specialities: row.specialities,
    referralName: row.referral_name,
    professionalBackground: row.professional_background,
    associationLink: row.association_link,
    avatar: row.avatar_file_id === null ? null : downloadUrl(row.avatar_file_id),
    collegeCardFrontFile: files.get(row.college_card_front_file_id ?? '') ?? null,
    collegeCardBackFile: files.get(row.college_card_back_file_id ?? '') ?? null,
    bank: {
      iban: row.iban,
      ibanValid: iban.valid,
      ibanError: iban.valid ? null : iban.code,
      bicSwift: row.bic_swift,
    },
    missingFields:
      row.role === 'PROFESSIONAL'
        ? missingProfessionalFields({
            fullName: row.full_name,
            taxNumber: row.tax_number,
            iban: row.iban,
            collegeNumber: row.college_number,
          })
        : null,
    shareLink,
    adminActions,
  };
}

async function filesById(db: Queryable, ids: (string | null)[]) {
  const wanted = ids.filter((id): id is string => id !== null);
  const byId = new Map<string, z.infer<typeof storedFileSchema>>();
  if (wanted.length === 0) return byId;
  const { rows } = await db.query<{
    id: string;
    original_name: string;
    content_type: string;
    size_bytes: number;
  }>('SELECT id, original_name, content_type, size_bytes FROM stored_files WHERE id = ANY($1::uuid[])', [
    wanted,
  ]);
  for (const file of rows)
    byId.set(file.id, {
      id: file.id,
      name: file.original_name,
      contentType: file.content_type,
      sizeBytes: Number(file.size_bytes),
      downloadUrl: downloadUrl(file.id),
    });
  return byId;
}

async function shareLinkStats(db: Queryable, row: DetailRow): Promise<UserDetail['shareLink']> {
  if (row.share_link_id === null) return null;
  const { rows } = await db.query<{ visits: number; signups: number; cases: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'VISIT')::int AS visits, count(*) FILTER (WHERE kind = 'SIGNUP')::int AS signups,
            count(*) FILTER (WHERE kind = 'CASE')::int AS cases
       FROM share_link_occurrences WHERE professional_id = $1`,
    [row.id],
  );
  return { id: row.share_link_id, ...rows[0]! };
}

async function auditOf(db: Queryable, userId: string): Promise<UserDetail['adminActions']> {
  const { rows } = await db.query<{
    id: number;
    action: string;
    created_at: Date | string;
    actor_id: string | null;
    actor_name: string | null;
    actor_email: string | null;
    before: unknown;
    after: unknown;
  }>(
    `SELECT a.id, a.action, a.created_at, a.actor_id, actor.name AS actor_name, actor.email AS actor_email,
            a.before, a.after
       FROM audit_log a LEFT JOIN users actor ON actor.id = a.actor_id
      WHERE a.entity_type = 'user' AND a.entity_id = $1
      ORDER BY a.created_at DESC, a.id DESC LIMIT ${AUDIT_SHOWN}`,
    [userId],
  );
  return rows.map((entry) => ({
    id: Number(entry.id),
    action: entry.action,
    at: isoTime(entry.created_at),
    actor:
      entry.actor_id === null
        ? null
        : { id: entry.actor_id, name: entry.actor_name ?? '', email: entry.actor_email ?? '' },
    before: entry.before,
    after: entry.after,
  }));
}
