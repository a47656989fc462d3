// Learned rules (decision 0146): what the operator's own matches teach. When an admin links a line to a
// counterpart by hand (or accepts a suggestion), the line's counterparty text, normalised as the matcher
// reads names (`printedName`), is remembered with the party the counterpart belongs to (a doctor, a
// customer); a later line printing the same text then suggests that party's counterparts, the rule
// named in the explanation.
import { printedName } from './names';
import { printedPhone } from './phones';

/** Normalised counterparty text → the party id (a user's id) it was matched to, never to another. */
export type LearnedRules = ReadonlyMap<string, string>;

/**
 * A pair's counterparty agreement with a learned rule: the rule speaks where the name is silent or
 * contradicts (≤ 0.5: a clinic's name for its doctor, a nickname) and then agrees fully; where the
 * printed name agrees, the name decides, so a short print ("J SILVA") that another customer taught
 * does not outweigh the names.
 */
export function withLearnedRule(nameAgreement: number, learned: boolean): number {
  return learned && nameAgreement <= 0.5 ? 1 : nameAgreement;
}

/** The longest text kept: names print in ≤ 140 characters; the rest says nothing more. */
export const MAX_LEARNED_TEXT = 140;

/**
 * The text a rule is kept under: the line's printed name words (bank case, the bank's own words and
 * anything with a digit dropped: "TRF CR SEPA+ 0000030 DE JOAO LONGO" → "JOAO LONGO"); for a line that
 * prints no name but an MB WAY payer's phone, that phone as the bank prints it ("TRF MBWAY 964XXX072" →
 * "MBWAY 964XXX072", decision 0151); else null (a bare reference, initials alone).
 */
export function counterpartyText(entry: {
  counterpartyName: string | null;
  description: string;
}): string | null {
  return learnedText(entry, printedName(entry).words);
}

/**
 * The text a payer's IBAN is kept under ("IBAN:PT50…", spaces dropped): a credit's camt.053 entry carries
 * the debtor's account (`DbtrAcct`), the same whatever name the payer's bank prints (decision 0160). The
 * colon keeps it apart from any name's text, which holds letters and spaces only.
 */
export function ibanText(iban: string | null | undefined): string | null {
  const compact = iban?.replace(/\s+/g, '').toUpperCase();
  return compact ? `IBAN:${compact}` : null;
}

/** A rule kept under an IBAN: an account is one payer's, so it outweighs what the name says. */
export const isIbanRule = (text: string): boolean => text.startsWith('IBAN:');

/** Every text a line's rules are kept under: its payer's IBAN's first, then its counterparty text. */
export function learnedTexts(entry: {
  counterpartyName: string | null;
  counterpartyIban: string | null;
  description: string;
}): string[] {
  return [ibanText(entry.counterpartyIban), counterpartyText(entry)].filter((t): t is string => t !== null);
}

/** The rule that speaks for a line of these texts (`learnedTexts`): the first one learned. */
export function ruleFor(
  texts: readonly string[],
  rules: LearnedRules,
): { text: string; partyId: string } | null {
  for (const text of texts) {
    const partyId = rules.get(text);
    if (partyId !== undefined) return { text, partyId };
  }
  return null;
}

/** `counterpartyText` from the name words already read. */
export function learnedText(entry: { description: string }, words: readonly string[]): string | null {
  if (!words.some((w) => w.length > 1)) return mbWayPhone(entry.description);
  return words.join(' ').slice(0, MAX_LEARNED_TEXT);
}

/** The MB WAY payer's phone a line prints, after the bank's mark ("MBWAY 964XXX072"), or null. */
export function mbWayPhone(description: string): string | null {
  const phone = printedPhone(description);
  return phone ? `MBWAY ${phone}` : null;
}
