/**
 * Every audit action code the server writes, and the entity types it writes them about, without zod
 * (the console imports these at run time). The console shows each through `auditActions.<code>` and
 * `auditEntities.<type>`; tests/unit/audit-actions.test.ts greps the server for the codes it writes
 * and fails on one missing here or untranslated, so a new action cannot reach the screen raw.
 */
export const AUDIT_ACTIONS = [
  'user.login',
  'user.logout',
  'user.disable',
  'user.enable',
  'user.resend-verification-email',
  'professional.verify',
  'case.close',
  'interest-area.create',
  'interest-area.delete',
  'settlement.funds-released',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITY_TYPES = ['user', 'session', 'case', 'interest_area', 'settlement'] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];
