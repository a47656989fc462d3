// What a bank's free text says about an entry, for the formats that give nothing better (MT940 `:86:`
// free text, CSV descriptions): whether it is a return or a fee, and the reason code of a return.
// camt says it in elements (`RtrInf`, `BkTxCd`) and does not use this (decision 0120).
import { BANK_REASON_CODES } from '../sepa/reason-codes';

/**
 * Text without its accents, so "Devolução" reads as "Devolucao" (the patterns ignore case). Most bank
 * texts are plain ASCII and skip the decomposition: this runs once per statement line.
 */
function plain(text: string): string {
  return /[^ -~]/.test(text) ? text.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : text;
}

/**
 * Returns: Portuguese "DEVOLUÇÃO …", "DEV. TRF …", "ESTORNO", "RETORNO"; German "RÜCK…", "RUECK…";
 * Dutch/French "RETOUR"; English "RETURN".
 */
const RETURN_TEXT = /DEVOLU|\bDEV\.?\s*TRF\b|\bESTORNO|\bRETORN|RETOUR|\bRETURN|RUECK|\bRUCK/;
/**
 * Fees: "COMISSÃO …", "IMPOSTO DO SELO", "I.SELO"/"IMP. SELO" (stamp duty), "MANUTENÇÃO" (account
 * upkeep); German "ENTGELT", "GEBÜHR"; English "CHARGE(S)", "FEE(S)".
 */
const FEE_TEXT =
  /\bCOMISS|IMPOSTO DO SELO|\bI\.\s*SELO\b|\bIMP\.?\s*SELO\b|\bMANUTEN|ENTGELT|GEBUEHR|GEBUHR|\bCHARGES?\b|\bFEES?\b/;

/** Both in one pattern: its first match is the word written first. */
const KIND_TEXT = new RegExp(`(${RETURN_TEXT.source})|${FEE_TEXT.source}`, 'i');

/**
 * Whether the text names a return or a fee; when it names both, the one written first decides:
 * "COMISSAO DEVOLUCAO SEPA" is the fee charged for a return, "DEVOLUCAO TRF … COMISSAO" a return.
 */
export function kindInText(text: string): 'return' | 'fee' | null {
  const first = KIND_TEXT.exec(plain(text));
  return first === null ? null : first[1] !== undefined ? 'return' : 'fee';
}

/** Reason codes are written in capitals; a lower-case word is not one. */
const CODE_WORD = /[A-Z]{2}\d{2}|[A-Z]{4}/g;

/** The first ISO 20022 reason code the text names as a whole word (AC04, MD07, MS03, FOCR…); null when none. */
export function reasonCodeIn(text: string): string | null {
  const t = plain(text);
  for (const m of t.matchAll(CODE_WORD)) {
    const before = t[m.index - 1] ?? ' ';
    const after = t[m.index + m[0].length] ?? ' ';
    if (/[A-Za-z0-9]/.test(before) || /[A-Za-z0-9]/.test(after)) continue;
    if (Object.hasOwn(BANK_REASON_CODES, m[0])) return m[0];
  }
  return null;
}
