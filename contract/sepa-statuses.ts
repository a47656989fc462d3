/**
 * The SEPA side's enumerations of the wire, without zod (the console imports them at run time, like
 * `statuses.ts`). The file statuses themselves live in domain/sepa-status.ts beside their transitions.
 */

/**
 * Why a doctor with SETTLED settlements is not in a SEPA file (shown, not selectable):
 * - `MISSING_INFORMATION`: full name, tax number, a valid SEPA IBAN or college number is missing;
 * - `PAYOUT_BLOCKED`: the bank rejected a transfer to the IBAN the doctor still has;
 * - `RECOVERY_NOT_COVERED`: what the doctor must give back (refunds after payout) is ≥ what is owed,
 *   so the transfer would be ≤ 0;
 * - `INVALID_BANK_DATA`: the EPC rules refuse the doctor's bank data (e.g. a BIC the IBAN's country needs).
 */
export const SEPA_EXCLUSION_REASONS = [
  'MISSING_INFORMATION',
  'PAYOUT_BLOCKED',
  'RECOVERY_NOT_COVERED',
  'INVALID_BANK_DATA',
] as const;
export type SepaExclusionReason = (typeof SEPA_EXCLUSION_REASONS)[number];

/** A transfer of a file: in it as written, or rejected by the bank (pain.002) with a reason. */
export const SEPA_TRANSFER_STATUSES = ['INCLUDED', 'REJECTED'] as const;
export type SepaTransferStatus = (typeof SEPA_TRANSFER_STATUSES)[number];

/** What a pain.002 status report decided (domain/sepa/status-report.ts). */
export const SEPA_REPORT_OUTCOMES = ['ACCEPTED', 'REJECTED', 'PARTIAL', 'PENDING', 'UNDETERMINED'] as const;
export type SepaReportOutcome = (typeof SEPA_REPORT_OUTCOMES)[number];

/** The SEPA history's sort: newest first by default. */
export const SEPA_FILE_SORTS = ['created'] as const;

/** Manual file transitions an administrator can ask for (DESIGN §6). */
export const SEPA_FILE_ACTIONS = ['available', 'paid', 'unavailable'] as const;
export type SepaFileAction = (typeof SEPA_FILE_ACTIONS)[number];
