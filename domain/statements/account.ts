import { isValidIban } from '../iban';

/** Shortest and longest IBANs in use (Norway 15, Saint Lucia 32). */
const MIN_IBAN = 15;
const MAX_IBAN = 34;

/**
 * The first valid IBAN written inside `text` (spaces and hyphens between its groups allowed, text
 * or a currency code around it), in electronic format; null when there is none.
 */
export function ibanIn(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s-]+/g, '');
  const candidates = /[A-Z]{2}\d{2}[A-Z0-9]{11,30}/g;
  for (let m = candidates.exec(compact); m; m = candidates.exec(compact)) {
    // The run may carry letters after the IBAN (`…154EUR`): try the longest valid prefix.
    for (let length = Math.min(m[0].length, MAX_IBAN); length >= MIN_IBAN; length--) {
      const iban = m[0].slice(0, length);
      if (isValidIban(iban)) return iban;
    }
    candidates.lastIndex = m.index + 1;
  }
  return null;
}

/**
 * A Portuguese NIB written inside `text` (21 digits, spaces between its groups allowed:
 * `0035 0999 00098765432 10`), as its IBAN `PT50` + NIB, accepted only when that IBAN checks (mod 97):
 * a NIB's own check digits are chosen so that every Portuguese IBAN's are 50. Null when there is none.
 */
export function nibIbanIn(text: string): string | null {
  const runs = /(?<!\d ?)\d(?: ?\d){20}(?! ?\d)/g;
  for (let m = runs.exec(text); m; m = runs.exec(text)) {
    const iban = `PT50${m[0].replace(/ /g, '')}`;
    if (isValidIban(iban)) return iban;
  }
  return null;
}

/** The account named in a statement's text: an IBAN, else a Portuguese NIB turned into its IBAN. */
export function accountIn(text: string): string | null {
  return ibanIn(text) ?? nibIbanIn(text);
}
