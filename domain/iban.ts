import { electronicFormatIBAN, isValidBIC, ValidationErrorsIBAN, validateIBAN } from 'ibantools';

/** Electronic form: no spaces or separators, upper case. */
export function normalizeIban(input: string): string {
  return (electronicFormatIBAN(input) ?? '').toUpperCase();
}

export type IbanError =
  | 'REQUIRED'
  | 'INVALID_COUNTRY'
  | 'INVALID_LENGTH'
  | 'INVALID_FORMAT'
  | 'INVALID_CHECKSUM'
  | 'INVALID_NATIONAL_CHECKSUM';

export type IbanCheck = { valid: true; iban: string } | { valid: false; iban: string; code: IbanError };

/** mod-97 plus the national check digits ibantools knows (for PT: the NIB's). */
export function checkIban(input: string | null | undefined): IbanCheck {
  const iban = normalizeIban(input ?? '');
  if (iban === '') return { valid: false, iban, code: 'REQUIRED' };
  const r = validateIBAN(iban);
  if (r.valid) return { valid: true, iban };
  const codes = r.errorCodes;
  const code: IbanError = codes.includes(ValidationErrorsIBAN.NoIBANCountry)
    ? 'INVALID_COUNTRY'
    : codes.includes(ValidationErrorsIBAN.WrongBBANLength)
      ? 'INVALID_LENGTH'
      : codes.includes(ValidationErrorsIBAN.WrongBBANFormat) ||
          codes.includes(ValidationErrorsIBAN.ChecksumNotNumber)
        ? 'INVALID_FORMAT'
        : codes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)
          ? 'INVALID_NATIONAL_CHECKSUM'
          : 'INVALID_CHECKSUM';
  return { valid: false, iban, code };
}

export function isValidIban(input: string | null | undefined): boolean {
  return checkIban(input).valid;
}

export function normalizeBic(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** Format check only (no directory lookup); the XML pattern is upper case, so normalise first. */
export function isValidBicFormat(input: string): boolean {
  const bic = normalizeBic(input);
  return /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic) && isValidBIC(bic);
}

/**
 * SEPA members outside the EEA: IBAN-only does not apply to them, the creditor BIC is still
 * required (EU Reg. 260/2012 art. 5(7) covers EEA payments only).
 */
const NON_EEA_SEPA = new Set([
  'AD',
  'AL',
  'CH',
  'GB',
  'GG',
  'GI',
  'IM',
  'JE',
  'MC',
  'MD',
  'ME',
  'MK',
  'RS',
  'SM',
  'VA',
]);

export function bicRequiredFor(iban: string): boolean {
  return NON_EEA_SEPA.has(normalizeIban(iban).slice(0, 2));
}

export interface ProfessionalPaymentProfile {
  fullName?: string | null;
  taxNumber?: string | null;
  iban?: string | null;
  collegeNumber?: string | null;
}

export type ProfessionalField = 'fullName' | 'taxNumber' | 'iban' | 'collegeNumber';

/** DESIGN.md §6 "Professional missing data": the fields that block settling or paying, by name. */
export function missingProfessionalFields(profile: ProfessionalPaymentProfile): ProfessionalField[] {
  const blank = (v: string | null | undefined) => v == null || v.trim() === '';
  const missing: ProfessionalField[] = [];
  if (blank(profile.fullName)) missing.push('fullName');
  if (blank(profile.taxNumber)) missing.push('taxNumber');
  if (!isValidIban(profile.iban)) missing.push('iban');
  if (blank(profile.collegeNumber)) missing.push('collegeNumber');
  return missing;
}
