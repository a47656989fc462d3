/**
 * Decimal amounts exactly as source files print them, never through floats. SAF-T writes line amounts
 * with up to a few decimals (`23.3938`) and sums them in its control totals; Stripe prints major units
 * (`12.34`, `-0.5`, `1000` for yen). Both are read into integers of a chosen number of decimals.
 */

const DECIMAL = /^(-?)(\d{1,20})(?:[.,](\d{1,20}))?$/;

/**
 * `text` as an integer count of 10^-`scale` units, or null when it is not a plain decimal (one optional
 * minus, one `.` or `,` mark, no grouping) or has a significant digit beyond `scale` decimals.
 */
export function scaledDecimal(text: string, scale: number): bigint | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const fraction = m[3] ?? '';
  if (/[1-9]/.test(fraction.slice(scale))) return null;
  const units = BigInt(m[2]! + fraction.slice(0, scale).padEnd(scale, '0'));
  return m[1] && units !== 0n ? -units : units;
}

/** `value` (10^-`scale` units) as decimal text with no trailing zeros: `22017838n, 4` → `2201.7838`. */
export function formatScaled(value: bigint, scale: number): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Minor units (cents for EUR) of an amount whose currency has `exponent` decimals; null when not exact. */
export function minorUnits(text: string, exponent: number): number | null {
  const units = scaledDecimal(text, exponent);
  if (units === null) return null;
  const n = Number(units);
  return Number.isSafeInteger(n) ? n : null;
}
