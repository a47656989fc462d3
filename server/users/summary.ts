import type { z } from 'zod';
import type { userSummarySchema } from '../../contract/users';
import type { Queryable } from '../db/client';

/** One row of the users tables (customers, professionals, disabled, awaiting verification). */
export type UserSummary = z.infer<typeof userSummarySchema>;

export const SUMMARY_COLUMNS = `u.id, u.role, u.name, u.full_name, u.email, u.status, u.gender, u.country, u.locale,
  u.phone_number, u.phone_country_code, u.tax_number, u.college_number, u.share_link_id, u.email_verified,
  u.professional_verified, u.disabled, u.admin_data IS NOT NULL AS is_admin, u.created_at, u.last_active_at`;

export interface SummaryRow {
  id: string;
  role: UserSummary['role'];
  name: string;
  full_name: string | null;
  email: string;
  status: UserSummary['status'];
  gender: UserSummary['gender'];
  country: string | null;
  locale: UserSummary['locale'];
  phone_number: string | null;
  phone_country_code: string | null;
  tax_number: string | null;
  college_number: string | null;
  share_link_id: string | null;
  email_verified: boolean;
  professional_verified: boolean;
  disabled: boolean;
  is_admin: boolean;
  created_at: Date | string;
  last_active_at: Date | string | null;
}

export const isoTime = (value: Date | string) => new Date(value).toISOString();

export function toUserSummary(row: SummaryRow, areas: UserSummary['areasOfInterest']): UserSummary {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    fullName: row.full_name,
    email: row.email,
    status: row.status,
    gender: row.gender,
    country: row.country,
    locale: row.locale,
    phoneNumber: row.phone_number,
    phoneNumberCountryCode: row.phone_country_code,
    taxNumber: row.tax_number,
    collegeNumber: row.college_number,
    shareLinkId: row.share_link_id,
    emailVerified: row.email_verified,
    professionalVerified: row.professional_verified,
    userDisabled: row.disabled,
    isAdmin: row.is_admin,
    created: isoTime(row.created_at),
    lastActive: row.last_active_at === null ? null : isoTime(row.last_active_at),
    areasOfInterest: areas,
  };
}

/** Each professional's areas of interest, by name. */
export async function areasOf(
  db: Queryable,
  professionalIds: string[],
): Promise<Map<string, UserSummary['areasOfInterest']>> {
  const byUser = new Map<string, UserSummary['areasOfInterest']>();
  if (professionalIds.length === 0) return byUser;
  const { rows } = await db.query<{ professional_id: string; id: string; name: string }>(
    `SELECT pia.professional_id, a.id, a.name FROM professional_interest_areas pia
       JOIN interest_areas a ON a.id = pia.area_id
      WHERE pia.professional_id = ANY($1::uuid[]) ORDER BY a.name`,
    [professionalIds],
  );
  for (const row of rows) {
    const list = byUser.get(row.professional_id) ?? [];
    list.push({ id: row.id, name: row.name });
    byUser.set(row.professional_id, list);
  }
  return byUser;
}
