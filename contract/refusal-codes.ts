/**
 * Every code a service may refuse with, and the HTTP status it is answered with: the one list. The server
 * raises them (`refuse()`, server/platform/refusal.ts) and answers them through server/http/refusals.ts;
 * the console translates each under `errorMessages.<code>` (src/i18n/error-codes.ts) in both locales,
 * which tests/unit/refusal-codes.test.ts checks. A new refusal is one line here; its translations go in
 * `locales/*.json` (a screen's own in that screen's file, decision 0098).
 *
 * Zod-free: the console imports it at run time (.dependency-cruiser.cjs).
 */

/** The statuses a refusal may have: client errors, and 502 for a mail server that said no. */
type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502;

export const REFUSAL_STATUSES = {
  // request input the services check themselves (keyset cursors, server/db/list.ts)
  INVALID_CURSOR: 400,
  // sign-in
  EMAIL_OR_PASSWORD_INVALID: 401,
  TOO_MANY_ATTEMPTS: 429,
  // a mutation carrying the session cookie from another site (docs/decisions/0126)
  ORIGIN_NOT_ALLOWED: 403,
  // users (docs/decisions/0041)
  USER_NOT_FOUND: 404,
  CANNOT_DISABLE_SELF: 409,
  USER_ALREADY_DISABLED: 409,
  USER_NOT_DISABLED: 409,
  NOT_A_PROFESSIONAL: 409,
  PROFESSIONAL_NOT_AWAITING_VERIFICATION: 409,
  USER_NOT_NEW: 409,
  MAIL_NOT_SENT: 502,
  // areas of interest
  AREA_OF_INTEREST_NOT_FOUND: 404,
  AREA_OF_INTEREST_ALREADY_EXISTS: 409,
  // cases (docs/decisions/0045, 0047)
  CASE_NOT_FOUND: 404,
  CASE_ALREADY_CLOSED: 409,
  CASE_TRANSITION_NOT_ALLOWED: 409,
  REVIEW_NOT_FOUND: 404,
  // stored files (docs/decisions/0046)
  ATTACHMENT_NOT_FOUND: 404,
  VOICE_MESSAGE_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  // an upload whose bytes are none of the types its purpose allows (docs/decisions/0126)
  FILE_TYPE_NOT_ALLOWED: 415,
  // settlements (issue 11, docs/decisions/0066–0068)
  SELECT_ONE_DOCTOR: 400,
  PROFESSIONAL_MISSING_DATA: 409,
  SETTLEMENT_NOT_FOUND: 404,
  SETTLEMENT_NOT_IN_SELECTION: 422,
  SETTLEMENT_NOT_SETTLEABLE: 409,
  SETTLEMENT_TOTAL_CHANGED: 409,
  SETTLEMENT_NOT_DELETABLE: 409,
  SETTLEMENT_HAS_PAYOUT_HISTORY: 409,
  SETTLEMENT_NOT_ADJUSTABLE: 409,
  SETTLEMENT_TRANSITION_NOT_ALLOWED: 409,
  ADJUSTMENT_ABOVE_GROSS: 422,
  INVOICE_TYPE_NOT_ALLOWED: 415,
  INVOICE_NOT_FOUND: 404,
  // SEPA payouts (issue 11, docs/decisions/0069–0071)
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  SEPA_EXECUTION_DATE_IN_PAST: 422,
  SEPA_CHANGED_RETRY: 409,
  SEPA_FILE_NOT_FOUND: 404,
  SEPA_TRANSITION_NOT_ALLOWED: 409,
  SEPA_NOT_DELETABLE: 409,
  SEPA_NOT_DOWNLOADABLE: 409,
  STATUS_REPORT_MISSING: 400,
  STATUS_REPORT_UNREADABLE: 422,
  STATUS_REPORT_ENCODING_UNSUPPORTED: 422,
  STATUS_REPORT_UNKNOWN_FILE: 422,
  STATUS_REPORT_MISMATCH: 422,
  STATUS_REPORT_TOO_LATE: 409,
  NO_SEPA_CREATED: 409,
  // exports (docs/decisions/0076, 0077)
  EXPORT_TYPE_UNKNOWN: 400,
  EXPORT_END_BEFORE_START: 400,
  EXPORT_RANGE_TOO_LONG: 400,
  EXPORT_XLSX_TOO_MANY_ROWS: 422,
  NO_RECORDS_FOUND_WITH_DATES: 422,
  EXPORT_NOT_FOUND: 404,
  EXPORT_NOT_CANCELLABLE: 409,
  EXPORT_NOT_READY: 409,
  EXPORT_EXPIRED: 410,
  // statement imports (docs/decisions/0097)
  STATEMENT_UNREADABLE: 422,
  STATEMENT_HAS_ERRORS: 422,
  STATEMENT_PREVIEW_MISMATCH: 409,
  STATEMENT_ALREADY_IMPORTED: 409,
  STATEMENT_NOTHING_NEW: 409,
  STATEMENT_IMPORT_NOT_FOUND: 404,
  // statements' accounts and balances (issue 27, docs/decisions/0121)
  STATEMENT_ACCOUNT_REQUIRED: 422,
  STATEMENT_ACCOUNT_INVALID: 422,
  STATEMENT_BALANCE_MISMATCH: 422,
  // refused before a job exists, from what the bytes already show (issue 27)
  STATEMENT_NOT_A_STATEMENT: 415,
  STATEMENT_EMPTY: 422,
  STATEMENT_CURRENCY_UNSUPPORTED: 422,
  STATEMENT_CONTROL_CHARACTERS: 422,
  // statement reconciliation (issue 12, docs/decisions/0093, 0094)
  STATEMENT_FILE_NOT_FOUND: 404,
  STATEMENT_LINE_NOT_FOUND: 404,
  STATEMENT_ACTION_NOT_FOUND: 404,
  STATEMENT_COUNTERPART_NOT_FOUND: 404,
  STATEMENT_COUNTERPART_TAKEN: 409,
  STATEMENT_LINE_ALREADY_MATCHED: 409,
  STATEMENT_LINE_NOT_MATCHED: 409,
  STATEMENT_NO_SUGGESTION: 409,
  STATEMENT_NOTE_REQUIRED: 422,
  STATEMENT_MATCH_WRONG_DIRECTION: 422,
  STATEMENT_ACTION_STALE: 409,
  STATEMENT_NOT_RECONCILABLE: 409,
  STATEMENT_UNMATCH_BLOCKED: 409,
  STATEMENT_FILE_RECONCILED: 409,
  // the payment provider's and invoicing program's files, read in domain/sources/ (issue 31, docs/decisions/0148)
  SAFT_UNREADABLE: 422,
  SAFT_ENCODING_UNSUPPORTED: 422,
  SAFT_NOT_AUDIT_FILE: 415,
  SAFT_VERSION_UNSUPPORTED: 422,
  SAFT_NO_SALES_INVOICES: 422,
  SAFT_DOCUMENT_INVALID: 422,
  SAFT_DUPLICATE_DOCUMENT: 422,
  SAFT_UNKNOWN_CUSTOMER: 422,
  SAFT_CONTROL_TOTALS_MISMATCH: 422,
  // SAF-T as gzip or a ZIP of one XML file (docs/decisions/0149)
  SAFT_ARCHIVE_UNREADABLE: 422,
  SAFT_ARCHIVE_ENTRIES: 422,
  SAFT_ARCHIVE_TOO_LARGE: 413,
  STRIPE_REPORT_UNREADABLE: 422,
  STRIPE_REPORT_EMPTY: 422,
  STRIPE_REPORT_COLUMNS_MISSING: 422,
  STRIPE_REPORT_ROW_INVALID: 422,
  STRIPE_PAYOUT_SUM_MISMATCH: 422,
  // a filtered accept whose count is too old to be what the admin confirmed (docs/decisions/0147)
  STATEMENT_SUGGESTION_COUNT_STALE: 409,
  // a bulk ignore over a filter confirmed on a count too old (docs/decisions/0161)
  STATEMENT_IGNORE_COUNT_STALE: 409,
  // a payment collector's payout CSV read through a saved column mapping (docs/decisions/0149)
  PROVIDER_CSV_MAPPING_INVALID: 422,
  PROVIDER_CSV_UNREADABLE: 422,
  PROVIDER_CSV_EMPTY: 422,
  PROVIDER_CSV_ROW_INVALID: 422,
  // the payouts and invoices imports (issue 31, docs/decisions/0152)
  SOURCE_NOT_THIS_KIND: 415,
  SOURCE_MAPPING_REQUIRED: 422,
  SOURCE_MAPPING_NOT_ALLOWED: 422,
  SOURCE_PREVIEW_MISMATCH: 409,
  SOURCE_ALREADY_IMPORTED: 409,
  SOURCE_NOTHING_NEW: 409,
  SOURCE_IMPORT_NOT_FOUND: 404,
  // an uploaded SAF-T the reader accepts but the official XSD does not (docs/decisions/0152)
  SAFT_SCHEMA_INVALID: 422,
  // one whose header, journals' heads or chart of accounts are too big for the pieces, and too big to check whole (0170)
  SAFT_SCHEMA_UNCHECKABLE: 422,
} as const satisfies Record<string, RefusalStatus>;

export type RefusalCode = keyof typeof REFUSAL_STATUSES;
export const REFUSAL_CODES = Object.keys(REFUSAL_STATUSES) as readonly RefusalCode[];
