import { isIsoDate, nextTarget2BusinessDay, todayInLisbon } from '../business-days';
import { bicRequiredFor, checkPayableIban, isValidBicFormat, normalizeBic } from '../iban';
import { identifierProblem, sepaText } from './transliterate';

export interface SepaTransaction {
  endToEndId: string;
  creditorName: string;
  creditorIban: string;
  creditorBic?: string | null;
  amountCents: number;
  remittanceInformation?: string | null;
}

export interface SepaBatch {
  messageId: string;
  /** Defaults to messageId (they live in different scopes, and a suffix could break the 35 limit). */
  paymentInformationId?: string;
  executionDate: string;
  initiatingPartyName?: string;
  batchBooking?: boolean;
  debtor: { name: string; iban: string; bic?: string | null };
  transactions: SepaTransaction[];
}

export interface SepaError {
  /** Index in `transactions`; absent for file-level fields. */
  index?: number;
  endToEndId?: string;
  field: string;
  code: string;
}

export const NAME_MAX = 70;
export const REMITTANCE_MAX = 140;
/** EPC: 999,999,999.99 EUR per transaction. */
export const MAX_AMOUNT_CENTS = 99_999_999_999;

export interface PreparedTransaction {
  endToEndId: string;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  amountCents: number;
  remittance: string | null;
}

export interface PreparedBatch {
  messageId: string;
  paymentInformationId: string;
  requestedExecutionDate: string;
  executionDate: string;
  initiatingPartyName: string;
  batchBooking: boolean;
  debtor: { name: string; iban: string; bic: string | null };
  transactions: PreparedTransaction[];
  controlSumCents: number;
}

export type Prepared = { ok: true; batch: PreparedBatch } | { ok: false; errors: SepaError[] };

export interface ValidateOptions {
  /** 'YYYY-MM-DD' in Lisbon; defaults to today. Earlier execution dates are refused. */
  today?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/**
 * Validates a batch against the EPC rules and returns what the writer needs: descriptive text
 * transliterated and cut, IBANs/BICs in electronic form, the execution date moved to a TARGET2
 * business day. Identifiers, IBANs and amounts are never altered: when they are wrong the batch is refused.
 * IBANs must also be of a SEPA-scheme country (`IBAN_NOT_SEPA`, decision 0038).
 */
export function prepareBatch(input: SepaBatch, options: ValidateOptions = {}): Prepared {
  const errors: SepaError[] = [];
  const batch = (input ?? {}) as Partial<SepaBatch>;
  const fileId = (field: string, value: string) => {
    const p = identifierProblem(value);
    if (p) errors.push({ field, code: p });
  };
  const messageId = str(batch.messageId);
  fileId('messageId', messageId);
  const paymentInformationId =
    batch.paymentInformationId == null ? messageId : str(batch.paymentInformationId);
  if (batch.paymentInformationId != null) fileId('paymentInformationId', paymentInformationId);

  const requested = str(batch.executionDate);
  let executionDate = requested;
  if (!isIsoDate(requested)) errors.push({ field: 'executionDate', code: 'INVALID_DATE' });
  else {
    if (requested < (options.today ?? todayInLisbon()))
      errors.push({ field: 'executionDate', code: 'DATE_IN_PAST' });
    executionDate = nextTarget2BusinessDay(requested);
  }

  const debtorIn = (batch.debtor ?? {}) as Partial<SepaBatch['debtor']>;
  const debtorName = sepaText(str(debtorIn.name), NAME_MAX);
  if (debtorName === '') errors.push({ field: 'debtor.name', code: 'REQUIRED' });
  const debtorIban = checkPayableIban(str(debtorIn.iban));
  if (!debtorIban.valid) errors.push({ field: 'debtor.iban', code: debtorIban.code });
  const debtorBic = str(debtorIn.bic).trim() === '' ? null : normalizeBic(str(debtorIn.bic));
  if (debtorBic && !isValidBicFormat(debtorBic)) errors.push({ field: 'debtor.bic', code: 'INVALID_BIC' });
  const initiatingPartyName =
    batch.initiatingPartyName == null ? debtorName : sepaText(str(batch.initiatingPartyName), NAME_MAX);
  if (batch.initiatingPartyName != null && initiatingPartyName === '') {
    errors.push({ field: 'initiatingPartyName', code: 'REQUIRED' });
  }

  // A string "false" is truthy: refuse anything but a boolean rather than write <BtchBookg>true.
  if (batch.batchBooking != null && typeof batch.batchBooking !== 'boolean')
    errors.push({ field: 'batchBooking', code: 'INVALID_TYPE' });

  const txs = Array.isArray(batch.transactions) ? batch.transactions : [];
  if (txs.length === 0) errors.push({ field: 'transactions', code: 'REQUIRED' });
  const seen = new Set<string>();
  const prepared: PreparedTransaction[] = [];
  let controlSumCents = 0;
  txs.forEach((raw, index) => {
    const tx = (raw ?? {}) as Partial<SepaTransaction>;
    const endToEndId = str(tx.endToEndId);
    const err = (field: string, code: string) =>
      errors.push(endToEndId === '' ? { index, field, code } : { index, endToEndId, field, code });
    const idProblem = identifierProblem(endToEndId);
    if (idProblem) err('endToEndId', idProblem);
    else if (seen.has(endToEndId)) err('endToEndId', 'DUPLICATE');
    seen.add(endToEndId);
    const creditorName = sepaText(str(tx.creditorName), NAME_MAX);
    if (creditorName === '') err('creditorName', 'REQUIRED');
    const iban = checkPayableIban(str(tx.creditorIban));
    if (!iban.valid) err('creditorIban', iban.code);
    const bicRaw = str(tx.creditorBic).trim();
    const creditorBic = bicRaw === '' ? null : normalizeBic(bicRaw);
    if (creditorBic && !isValidBicFormat(creditorBic)) err('creditorBic', 'INVALID_BIC');
    if (!creditorBic && iban.valid && bicRequiredFor(iban.iban)) err('creditorBic', 'REQUIRED');
    const amount = tx.amountCents;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) err('amountCents', 'INVALID_AMOUNT');
    else if (amount <= 0 || amount > MAX_AMOUNT_CENTS) err('amountCents', 'OUT_OF_RANGE');
    else controlSumCents += amount;
    const remittance = sepaText(str(tx.remittanceInformation), REMITTANCE_MAX);
    prepared.push({
      endToEndId,
      creditorName,
      creditorIban: iban.iban,
      creditorBic,
      amountCents: typeof amount === 'number' ? amount : 0,
      remittance: remittance === '' ? null : remittance,
    });
  });
  if (!Number.isSafeInteger(controlSumCents))
    errors.push({ field: 'transactions', code: 'CONTROL_SUM_TOO_LARGE' });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    batch: {
      messageId,
      paymentInformationId,
      requestedExecutionDate: requested,
      executionDate,
      initiatingPartyName,
      batchBooking: batch.batchBooking !== false,
      debtor: { name: debtorName, iban: debtorIban.iban, bic: debtorBic },
      transactions: prepared,
      controlSumCents,
    },
  };
}
