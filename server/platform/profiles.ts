import type { z } from 'zod';
import type { profileSchema } from '../../contract/session';
import type { Queryable } from '../db/client';

/** The shape the console's session and guards read (`adminData` present = may use the console). */
export type Profile = z.infer<typeof profileSchema>;

interface ProfileRow {
  id: string;
  email: string;
  name: string;
  full_name: string | null;
  role: Profile['user']['role'];
  gender: Profile['user']['gender'];
  country: string | null;
  status: Profile['status'];
  email_verified: boolean;
  professional_verified: boolean;
  disabled: boolean;
  created_at: Date;
  last_active_at: Date | null;
  avatar_file_id: string | null;
  locale: Profile['selectedLocale'];
  admin_data: Record<string, unknown> | null;
}

export async function loadProfile(db: Queryable, userId: string): Promise<Profile | null> {
  const { rows } = await db.query<ProfileRow>(
    `SELECT id, email, name, full_name, role, gender, country, status, email_verified, professional_verified,
            disabled, created_at, last_active_at, avatar_file_id, locale, admin_data
       FROM users WHERE id = $1`,
    [userId],
  );
  const row = rows[0];
  return row ? toProfile(row) : null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toProfile(row: ProfileRow): Profile {
  return {
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      fullName: row.full_name,
      role: row.role,
      gender: row.gender,
      country: row.country,
      status: row.status,
      emailVerified: row.email_verified,
      professionalVerified: row.professional_verified,
      userDisabled: row.disabled,
      created: iso(row.created_at),
      lastActive: row.last_active_at === null ? null : iso(row.last_active_at),
    },
    hasUser: true,
    // Avatars are stored files, downloaded through the same route as every other attachment.
    avatar: row.avatar_file_id === null ? null : `/v2/admin/attachments/${row.avatar_file_id}/download`,
    selectedRole: row.role,
    selectedLocale: row.locale,
    status: row.status,
    adminData: row.admin_data,
  };
}
