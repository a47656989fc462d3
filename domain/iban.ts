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
 * The IBAN country codes of the SEPA payment schemes' geographical scope, from the European
 * Payments Council's "EPC List of SEPA Scheme Countries" (document EPC409-09), as it stands after
 * the EPC Board's decisions of November 2024 (Albania, Montenegro), 6 March 2025 (Moldova, North
 * Macedonia) and 22 May 2025 (Serbia): 41 countries, no change announced since (checked 2026).
 * That list gives each country or territory the code used in its IBANs; territories without
 * their own IBAN code are listed under the one they use:
 * - FR: French Guiana, Guadeloupe, Martinique, Mayotte, Réunion, Saint Barthélemy, Saint Martin
 *   (French part), Saint Pierre and Miquelon (not New Caledonia, French Polynesia, Wallis and
 *   Futuna: outside SEPA);
 * - PT: Azores, Madeira; ES: Canary Islands, Ceuta, Melilla; FI: Åland Islands;
 * - GB: Guernsey, Jersey, Isle of Man (their own ISO codes GG/JE/IM never start an IBAN).
 * Gibraltar has its own IBAN code (GI). Greenland and the Faroe Islands are outside SEPA.
 * `eea: false` marks the members outside the EEA, where IBAN-only does not apply and the creditor
 * BIC is still required (EU Reg. 260/2012 art. 5(7) covers EEA payments only).
 */
const SEPA_IBAN_COUNTRIES: ReadonlyMap<string, { eea: boolean }> = new Map<string, { eea: boolean }>([
  // EU member states, then Iceland, Liechtenstein, Norway (EEA)
  ...'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK IS LI NO'
    .split(' ')
    .map((code) => [code, { eea: true }] as [string, { eea: boolean }]),
  // Switzerland, United Kingdom, Gibraltar, Monaco, San Marino, Andorra, Vatican City State; then
  // the enlargement countries added in 2024–2025: Albania, Montenegro, Moldova, North Macedonia, Serbia
  ...'CH GB GI MC SM AD VA AL ME MD MK RS'
    .split(' ')
    .map((code) => [code, { eea: false }] as [string, { eea: boolean }]),
]);

/** Whether an IBAN belongs to a SEPA-scheme country or territory (decision 0038). */
export function isSepaIban(iban: string): boolean {
  return SEPA_IBAN_COUNTRIES.has(normalizeIban(iban).slice(0, 2));
}

export function bicRequiredFor(iban: string): boolean {
  return SEPA_IBAN_COUNTRIES.get(normalizeIban(iban).slice(0, 2))?.eea === false;
}

export type PayableIbanError = IbanError | 'IBAN_NOT_SEPA';

export type PayableIbanCheck =
  | { valid: true; iban: string }
  | { valid: false; iban: string; code: PayableIbanError };

/**
 * An IBAN we can pay with a SEPA credit transfer: valid (checkIban) and of a SEPA-scheme country.
 * A Brazilian IBAN is a real account, but no pain.001 can reach it, so for payouts it counts as
 * missing. The writer, `sepa check` and the professional's missing fields all use this one rule.
 */
export function checkPayableIban(input: string | null | undefined): PayableIbanCheck {
  const check = checkIban(input);
  if (check.valid && !isSepaIban(check.iban))
    return { valid: false, iban: check.iban, code: 'IBAN_NOT_SEPA' };
  return check;
}

export interface ProfessionalPaymentProfile {
  fullName?: string | null;
  taxNumber?: string | null;
  iban?: string | null;
  collegeNumber?: string | null;
}

export type ProfessionalField = 'fullName' | 'taxNumber' | 'iban' | 'collegeNumber';

/**
 * DESIGN.md §6 "Professional missing data": the fields that block settling or paying, by name.
 * An IBAN outside SEPA is reported as missing: it cannot receive the transfer.
 */
export function missingProfessionalFields(profile: ProfessionalPaymentProfile): ProfessionalField[] {
  const blank = (v: string | null | undefined) => v == null || v.trim() === '';
  const missing: ProfessionalField[] = [];
  if (blank(profile.fullName)) missing.push('fullName');
  if (blank(profile.taxNumber)) missing.push('taxNumber');
  if (!checkPayableIban(profile.iban).valid) missing.push('iban');
  if (blank(profile.collegeNumber)) missing.push('collegeNumber');
  return missing;
}
