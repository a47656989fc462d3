import type { SepaExclusionReason, SepaReportOutcome } from '../../../contract/sepa-statuses';
import { REASON_CODES } from '../../../domain/sepa/reason-codes';
import type { SepaStatus } from '../../../domain/sepa-status';
import type { Tone } from '../../components/Pill/Pill';
import type { Translate } from '../../i18n/i18n';

export const SEPA_STATUS_KEYS: Record<SepaStatus, string> = {
  GENERATED: 'sepa.status.GENERATED',
  AVAILABLE: 'sepa.status.AVAILABLE',
  PAID: 'sepa.status.PAID',
  UNAVAILABLE: 'sepa.status.UNAVAILABLE',
};

/** What each SEPA file status means to the admin (issue 14: pills coloured by meaning). */
export const SEPA_STATUS_TONES: Record<SepaStatus, Tone> = {
  GENERATED: 'neutral',
  AVAILABLE: 'waiting',
  PAID: 'success',
  UNAVAILABLE: 'danger',
};

/** What a bank's status report answered, as the file's page lists it. */
export const REPORT_OUTCOME_KEYS: Record<SepaReportOutcome, string> = {
  ACCEPTED: 'sepa.file.outcomes.ACCEPTED',
  REJECTED: 'sepa.file.outcomes.REJECTED',
  PARTIAL: 'sepa.file.outcomes.PARTIAL',
  PENDING: 'sepa.file.outcomes.PENDING',
  UNDETERMINED: 'sepa.file.outcomes.UNDETERMINED',
};

/** A statement line's part in the file: paying it (or a transfer), or giving a transfer back. */
export const STATEMENT_ROLE_KEYS: Record<'PAYMENT' | 'RETURN', string> = {
  PAYMENT: 'sepa.file.roles.PAYMENT',
  RETURN: 'sepa.file.roles.RETURN',
};

export const EXCLUSION_KEYS: Record<SepaExclusionReason, string> = {
  MISSING_INFORMATION: 'sepa.exclusion.MISSING_INFORMATION',
  PAYOUT_BLOCKED: 'sepa.exclusion.PAYOUT_BLOCKED',
  RECOVERY_NOT_COVERED: 'sepa.exclusion.RECOVERY_NOT_COVERED',
  INVALID_BANK_DATA: 'sepa.exclusion.INVALID_BANK_DATA',
};

/** A bank's reason, translated when it is an ISO code we know (`bankReasons.*`), else as the bank wrote it. */
export function bankReason(t: Translate, code: string | null, text: string | null): string {
  const known = code !== null && (REASON_CODES as readonly string[]).includes(code);
  const words = known ? t(`bankReasons.${code}`) : (text ?? '');
  return code ? `${code} — ${words}` : words;
}
