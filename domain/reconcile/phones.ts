// An MB WAY payer's phone as banks print it, against the customer's phone the product holds (decision
// 0160). Banks mask part of it — Caixa Geral de Depósitos the middle three digits ("TRF MBWAY
// 964XXX072"), ActivoBank all but the last four ("TRF MB WAY P/ *****4562") — so only the digits the
// bank shows are compared, right-aligned: one that differs means another phone.

/**
 * After the MB WAY mark (and "DE" / "P/"), the first chunk of digits, X and * with at least three
 * digits: the payer's phone as the bank prints it, masked or not — "TRF MBWAY 964XXX072 0000235180",
 * "TRF MB WAY P/ *****4562", "MB WAY 912345678". The chunk after it (a card or sequence number) is not read.
 */
const MB_WAY_PHONE = /(?:^|[^A-Z])MB ?WAY(?: DE| P\/?)?\s+([0-9X*]{4,})(?=\s|$)/;

/** The MB WAY payer's phone a line prints, its hidden digits as X or * ("964XXX072"), or null. */
export function printedPhone(description: string): string | null {
  const phone = MB_WAY_PHONE.exec(description.toUpperCase())?.[1];
  return phone && phone.replace(/\D/g, '').length >= 3 ? phone : null;
}

/**
 * A phone's digits without Portugal's country code, as MB WAY shows a Portuguese number: "+351 964 123
 * 072", "00351964123072" and "964123072" are the same nine digits. Other numbers keep all their digits.
 */
export function nationalDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 14 && digits.startsWith('00351')) return digits.slice(5);
  if (digits.length === 12 && digits.startsWith('351')) return digits.slice(3);
  return digits;
}

/** Visible digits that make a printed phone as telling as a name printed whole (CGD shows six of nine). */
const TELLING_DIGITS = 6;

/**
 * How a printed phone (`printedPhone`) agrees with a customer's phone, 0–1: 0 when a visible digit
 * differs (right-aligned: banks keep the last digits) or the print is longer than the number; else the
 * visible digits as a share of TELLING_DIGITS ("964XXX072": 1; "*****4562": 0.67).
 */
export function phoneAgreement(printed: string, phone: string): number {
  // A print with the country code ("351964XXX072") is compared without it, as the number is.
  const pattern = printed.length === 12 && printed.startsWith('351') ? printed.slice(3) : printed;
  const digits = nationalDigits(phone);
  if (digits.length === 0 || pattern.length > digits.length) return 0;
  let visible = 0;
  for (let k = 1; k <= pattern.length; k++) {
    const c = pattern[pattern.length - k]!;
    if (c === 'X' || c === '*') continue;
    if (c !== digits[digits.length - k]) return 0;
    visible++;
  }
  return Math.min(1, Math.round((100 * visible) / TELLING_DIGITS) / 100);
}

/** The last three digits as a number (the key open items are indexed by), or -1 when any is hidden. */
export function lastThree(phone: string): number {
  const tail = phone.slice(-3);
  return /^\d{3}$/.test(tail) ? Number(tail) : -1;
}
