import { z } from 'zod';
import { roleSchema, userStatusSchema } from './profiles';

/** One row of the users tables (customers, professionals, disabled, awaiting verification). */
export const userSummarySchema = z.object({
  id: z.guid(),
  role: roleSchema,
  name: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  status: userStatusSchema,
  gender: z.enum(['male', 'female']).nullable(),
  country: z.string().nullable(),
  locale: z.enum(['pt-PT', 'en-GB']),
  phoneNumber: z.string().nullable(),
  phoneNumberCountryCode: z.string().nullable(),
  taxNumber: z.string().nullable(),
  collegeNumber: z.string().nullable(),
  shareLinkId: z.string().nullable(),
  emailVerified: z.boolean(),
  professionalVerified: z.boolean(),
  userDisabled: z.boolean(),
  isAdmin: z.boolean(),
  created: z.iso.datetime(),
  lastActive: z.iso.datetime().nullable(),
  areasOfInterest: z.array(z.object({ id: z.guid(), name: z.string() })),
});
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
