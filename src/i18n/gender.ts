/** A person's grammatical gender as the API gives it (a user's gender); null when unknown. */
export type Gender = 'male' | 'female' | null;

/**
 * Keys whose pt-PT text names a person and agrees with them (verificado/verificada, Médico/Médica).
 * Each has a `<key>_female` twin in both locales (same text in English); the locale test reads this list.
 */
export const GENDERED_KEYS = [
  'users.actions.disabled',
  'users.actions.enabled',
  'users.actions.verified',
  'users.fields.professionalVerified',
  'users.fields.userDisabled',
  'users.status.PROFESSIONAL_VERIFIED',
  'users.status.DISABLED',
  'chat.role.PROFESSIONAL',
  'chat.role.ADMIN',
] as const;

export const femaleKey = (key: string) => `${key}_female`;

/**
 * The key to use for a person of `gender`: the feminine twin for a woman, the key itself otherwise
 * (men, and people whose gender is unknown, keep today's masculine wording).
 */
export function genderedKey(key: string, gender: Gender | undefined): string {
  return gender === 'female' && (GENDERED_KEYS as readonly string[]).includes(key) ? femaleKey(key) : key;
}
