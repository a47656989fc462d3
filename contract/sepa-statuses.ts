/**
 * The SEPA side's enumerations of the wire, without zod (the console imports them at run time, like
 * `statuses.ts`). The file statuses themselves live in domain/sepa-status.ts beside their transitions.
 */

export type { PayoutExclusion as SepaExclusionReason } from '../domain/sepa/payout-plan';
/** Why a doctor with SETTLED settlements is not in a file (domain/sepa/payout-plan.ts explains each). */
export { PAYOUT_EXCLUSIONS as SEPA_EXCLUSION_REASONS } from '../domain/sepa/payout-plan';

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
