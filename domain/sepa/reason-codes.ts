// ISO 20022 external status reason codes a bank can give in a pain.002 status report (and in
// camt.053 `RtrInf`): the EPC SCT rulebook's reason codes for R-transactions (reject, return,
// recall and the answers to them) plus the ISO codes banks commonly use when they refuse a
// customer file (duplicate MsgId, control sum, dates). Their human descriptions live in the locale
// files under `bankReasons.<CODE>`; tests/unit/domain/reason-codes.test.ts checks both locales
// cover the list. A code not on the list is still kept and shown as it came (see read-pain002.ts).

/** Where a code comes from, for display and filtering only; nothing decides on it. */
export type ReasonCodeUse = 'reject' | 'return' | 'recall' | 'file';

export const BANK_REASON_CODES = {
  // EPC SCT rulebook, reason codes for rejects and returns
  AC01: ['reject', 'return'],
  AC04: ['return', 'recall'],
  AC06: ['return'],
  AC13: ['reject', 'return'],
  AG01: ['return'],
  AG02: ['reject', 'return'],
  AM04: ['recall'],
  AM05: ['reject', 'return'],
  BE04: ['return'],
  CERI: ['reject'],
  CNOR: ['reject', 'return'],
  DNOR: ['reject', 'return'],
  DT01: ['reject'],
  ED05: ['reject'],
  FF01: ['reject', 'return'],
  FOCR: ['return'],
  MD07: ['return'],
  MS02: ['return'],
  MS03: ['reject', 'return'],
  RC01: ['reject', 'return'],
  RR01: ['reject', 'return'],
  RR02: ['reject', 'return'],
  RR03: ['reject', 'return'],
  RR04: ['reject', 'return'],
  TM01: ['reject'],
  // EPC SCT recall and request for recall by the originator, and the negative answers to them
  AC03: ['recall'],
  AM09: ['recall'],
  ARDT: ['recall'],
  CUST: ['recall'],
  DUPL: ['recall'],
  FRAD: ['recall'],
  LEGL: ['recall'],
  NOAS: ['recall'],
  NOOR: ['recall'],
  TECH: ['recall'],
  // ISO 20022 codes banks use in pain.002 when they refuse a customer file or a payment block
  AC02: ['file'],
  AM01: ['file'],
  AM02: ['file'],
  AM03: ['file'],
  AM10: ['file'],
  AM18: ['file'],
  BE05: ['file'],
  CH03: ['file'],
  CH04: ['file'],
  DU01: ['file'],
  DU02: ['file'],
  NARR: ['file'],
} as const satisfies Record<string, readonly ReasonCodeUse[]>;

export type BankReasonCode = keyof typeof BANK_REASON_CODES;

/** Every code with a description in `bankReasons.<CODE>` of both locale files. */
export const REASON_CODES = Object.keys(BANK_REASON_CODES) as BankReasonCode[];

export function isKnownReasonCode(code: string): code is BankReasonCode {
  return Object.hasOwn(BANK_REASON_CODES, code);
}

/**
 * Reasons that say the doctor's account cannot receive the money (decision 0123): the IBAN is wrong,
 * closed or blocked, the account holder died, the beneficiary bank cannot be reached with it, or the
 * beneficiary's data the regulation requires is missing. Sending again to the same IBAN would fail
 * again, so the doctor's payouts are blocked until their IBAN changes. Every other reason (amount,
 * duplicate, technical, unspecified, a bank's own code, and AC13/RR01/RR02, which name the debtor's
 * account or data — ours, in a credit transfer) says nothing against the doctor's account: the
 * settlements are payable again, without a block.
 */
export const ACCOUNT_REASON_CODES: ReadonlySet<string> = new Set([
  'AC01',
  'AC03',
  'AC04',
  'AC06',
  'AG01',
  'BE04',
  'CNOR',
  'MD07',
  'RC01',
  'RR03',
  'RR04',
]);

/** Whether a rejection or return with this ISO code blocks the doctor's payouts (see ACCOUNT_REASON_CODES). */
export function blocksPayouts(code: string | null): boolean {
  return code !== null && ACCOUNT_REASON_CODES.has(code);
}

/** The locale key of a code's description, or null for a code we have no text for (show the code). */
export function reasonKey(code: string): `bankReasons.${BankReasonCode}` | null {
  return isKnownReasonCode(code) ? `bankReasons.${code}` : null;
}
