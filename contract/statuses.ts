/**
 * Every status and enumeration of the wire that domain/ does not already hold, written once, without
 * zod: the console imports these values at run time and must not pull zod into its entry chunk. The
 * zod enums of the schema files are built from these arrays. Case, settlement and SEPA statuses live
 * in domain/ (case-status.ts, settlement-status.ts, sepa-status.ts) beside their transition tables.
 */

export const ROLES = ['ADMIN', 'PROFESSIONAL', 'CUSTOMER'] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['NEW_USER', 'EMAIL_VERIFIED', 'PROFESSIONAL_VERIFIED', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The sidebar badges: professionals awaiting verification, disabled professionals. */
export const COUNTED_PROFESSIONAL_STATUSES = ['EMAIL_VERIFIED', 'DISABLED'] as const;

export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

export const LOCALE_IDS = ['pt-PT', 'en-GB'] as const;
export type LocaleId = (typeof LOCALE_IDS)[number];

export const MESSAGE_TYPES = ['TEXT', 'CALL', 'VOICE'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** What a professional lacks to be settled and paid (DESIGN §6). */
export const MISSING_PROFESSIONAL_FIELDS = ['fullName', 'taxNumber', 'iban', 'collegeNumber'] as const;
export type MissingField = (typeof MISSING_PROFESSIONAL_FIELDS)[number];

/** A bank statement line's reconciliation state (migration 0004's check constraint). */
export const STATEMENT_LINE_STATUSES = [
  'UNMATCHED',
  'SUGGESTED',
  'MATCHED',
  'DISCREPANCY',
  'IGNORED',
] as const;
/**
 * The statuses of a line still open — nothing links it to a counterpart: it can be ignored from them (decision
 * 0161), and the reconciliation table's cursor moves to the next line in one after a decision (decision 0169).
 */
export const STATEMENT_IGNORABLE_STATUSES = ['UNMATCHED', 'SUGGESTED'] as const;
export type StatementLineStatus = (typeof STATEMENT_LINE_STATUSES)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The users list's sorts (docs/decisions/0040); the SQL behind each lives in server/users/. */
export const USER_SORTS = ['created', 'lastActive', 'name', 'email'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** The case list's sorts (docs/decisions/0047); the SQL behind each lives in server/cases/. */
export const CASE_SORTS = [
  'createdAt',
  'startDate',
  'endDate',
  'priceCents',
  'totalMessages',
  'status',
  'customerName',
  'professionalName',
] as const;
export type CaseSort = (typeof CASE_SORTS)[number];

/** The settlements list's sorts; the SQL behind each lives in server/finance/. */
export const SETTLEMENT_SORTS = ['created', 'referenceMonth', 'payable'] as const;
export type SettlementSort = (typeof SETTLEMENT_SORTS)[number];

export const CURRENCIES = ['EUR'] as const;

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
  'settlement.confirm',
  'settlement.settle',
  'settlement.update',
  'settlement.refund',
  'settlement.invoice',
  'settlement.delete',
  'settlement.bulk-delete',
  'settlement.included-in-sepa',
  'settlement.sepa-deleted',
  'settlement.sepa-unavailable',
  'settlement.paid',
  'settlement.transfer-rejected',
  'settlement.transfer-returned',
  'settlement.return-undone',
  'settlement.paid-undone',
  'sepa.generated',
  'sepa.deleted',
  'sepa.marked-available',
  'sepa.marked-paid',
  'sepa.marked-unavailable',
  'sepa.status-report-applied',
  'sepa.paid-by-statement',
  'sepa.paid-by-statement-undone',
  'sepa.downloaded',
  'statement.accept',
  'statement.match',
  'statement.ignore',
  'statement.unmatch',
  'statement.note',
  'statement.bulk-accept',
  'statement.bulk-ignore',
  'statement.undo',
  'statement.reconciled',
  'professional.payout-blocked',
  'file.store',
  'export.start',
  'export.cancel',
  'export.download',
  'statement.imported',
  'source.imported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITY_TYPES = [
  'user',
  'session',
  'case',
  'interest_area',
  'settlement',
  'professional',
  'sepa_file',
  'statement_file',
  'statement_line',
  'source_file',
  'stored_file',
  'export',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];
/** What an export holds (spec §3); the users export's three share `admin/users/export`. */
export const EXPORT_TYPES = ['USERS', 'CUSTOMERS', 'PROFESSIONALS', 'CASES', 'STATS'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];
export const USER_EXPORT_TYPES = ['USERS', 'CUSTOMERS', 'PROFESSIONALS'] as const;
/** A users export picks its rows by the created date or the last-active date (spec §3). */
export const EXPORT_DATE_FIELDS = ['CREATED', 'LAST_ACTIVE'] as const;
export type ExportDateField = (typeof EXPORT_DATE_FIELDS)[number];
export const EXPORT_FORMATS = ['CSV', 'XLSX'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** An export job's life (docs/decisions/0077): queued → running → done | failed | cancelled; done → expired. */
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** The longest date range one export may cover, in days: five years (docs/decisions/0076). */
export const EXPORT_MAX_RANGE_DAYS = 1_827;

/**
 * The "suggestions with score ≥ x" filter's values the console offers (decision 0147); the API takes any
 * score 0–1 with at most three decimals, as scores are kept.
 */
export const SUGGESTION_SCORE_FILTERS = ['0.95', '0.9', '0.8', '0.5'] as const;

/**
 * The five rows of a month, in the order they are shown:
 * - BANK_LINES: statement lines booked in the month; matched = MATCHED or IGNORED (nothing left to do),
 *   unmatched = UNMATCHED, SUGGESTED or DISCREPANCY (signed bank amounts);
 * - PAYOUTS: the payment provider's payouts dated in the month; matched = a bank line MATCHED to it;
 * - INVOICES: the invoicing program's invoices dated in the month; matched = it bills a settlement (a paid
 *   case or subscription), or a bank line paid it (a bill to the platform); unmatched = an invoice with no
 *   paid settlement;
 * - SETTLEMENTS: settlements of the reference month (each a case or subscription the customer paid, gross
 *   amounts); matched = an invoice bills it; unmatched = paid, never invoiced;
 * - SEPA_FILES: SEPA files of the reference month (the amount the bank accepted); matched = PAID, its batch
 *   debit found on a statement.
 */
export const MONTH_CLOSE_SOURCES = [
  'BANK_LINES',
  'PAYOUTS',
  'INVOICES',
  'SETTLEMENTS',
  'SEPA_FILES',
] as const;
export type MonthCloseSource = (typeof MONTH_CLOSE_SOURCES)[number];

/** The provider's documents the month-close rows summarise (decision 0155). */
export const PROVIDER_DOCUMENT_KINDS = ['PAYOUT', 'INVOICE'] as const;
export type ProviderDocumentKind = (typeof PROVIDER_DOCUMENT_KINDS)[number];
