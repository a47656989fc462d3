import { parseAmount } from './money';

/** Digits with separators, an optional sign and euro mark: the shapes of an amount someone types. */
const AMOUNT_LIKE = /^[+-]?\s*(€\s*)?\d[\d\s.,]*(\s*€|\s*EUR)?$/i;

/**
 * The amount a search names, in cents and without sign ("45,30", "45.30", "€45.30", "1.234,56" → 4530,
 * 4530, 4530, 123456; "45" → 4500), or null when the text is not an amount or is zero. A statement line
 * of −45,30 € is found by "45,30": people type what they read, not the direction. The decimal and
 * thousands marks are read as `parseAmount` reads a bank's file (decision 0131).
 */
export function amountSearchCents(text: string): number | null {
  const typed = text.trim();
  if (!AMOUNT_LIKE.test(typed)) return null;
  const parsed = parseAmount(typed.replace(/^[+-]/, ''));
  if (!parsed.ok || parsed.cents === 0) return null;
  return Math.abs(parsed.cents);
}
