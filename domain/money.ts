// Money is always an integer number of cents. Floats only ever appear inside Intl for display.

export type AmountParse = { ok: true; cents: number } | { ok: false; code: AmountErrorCode };
export type AmountErrorCode = 'EMPTY' | 'INVALID_AMOUNT' | 'TOO_MANY_DECIMALS' | 'OUT_OF_RANGE';

export function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer number of cents: ${cents}`);
}

/** `123456` → `"1234.56"`, `-5` → `"-0.05"`: the dot-decimal form XML and JSON exchange formats use. */
export function centsToDecimal(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}${units}.${rest < 10 ? '0' : ''}${rest}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Locale display (`pt-PT` → `1234,56 €`, `en-GB` → `€1,234.56`); the exact decimal string is handed to Intl. */
export function formatCents(
  cents: number,
  locale: 'pt-PT' | 'en-GB' | string = 'pt-PT',
  currency = 'EUR',
): string {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 });
    formatters.set(key, f);
  }
  return f.format(centsToDecimal(cents) as unknown as number);
}

const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/**
 * Parses an amount the way banks print it: `1.234,56`, `-1 234,56`, `1,234.56`, `(12,00)`, `12,00-`,
 * `+5`, `EUR 3,10`. With both separators present the last one is the decimal mark; a lone separator
 * followed by exactly three digits is a thousands separator (money never has three decimals).
 */
export function parseAmount(input: string): AmountParse {
  // Fast path for the shapes statements are made of (`-1.234,56`, `1234.56`); the general rules below agree.
  const quick =
    /^(-?)(\d{1,3}(?:\.\d{3})+|\d{1,13}),(\d{2})$/.exec(input) ?? /^(-?)(\d{1,13})\.(\d{2})$/.exec(input);
  if (quick) {
    const cents = Number(quick[2]!.replace(/\./g, '')) * 100 + Number(quick[3]);
    return { ok: true, cents: quick[1] && cents !== 0 ? -cents : cents };
  }
  let s = input.replace(/[\s\u00a0\u202f']/g, '').replace(/EUR|€/gi, '');
  if (s === '') return { ok: false, code: 'EMPTY' };
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.endsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1);
  } else if (s.endsWith('+')) {
    s = s.slice(0, -1);
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) {
    s = s.slice(1);
  }
  if (!/^[0-9.,]+$/.test(s) || !/[0-9]/.test(s)) return { ok: false, code: 'INVALID_AMOUNT' };
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimalMark: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimalMark = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const count = s.split(mark).length - 1;
    const after = s.length - s.lastIndexOf(mark) - 1;
    decimalMark = count === 1 && after !== 3 ? mark : null;
  }
  let intPart = s;
  let fracPart = '';
  if (decimalMark) {
    const at = s.lastIndexOf(decimalMark);
    intPart = s.slice(0, at);
    fracPart = s.slice(at + 1);
    if (/[.,]/.test(fracPart)) return { ok: false, code: 'INVALID_AMOUNT' };
  }
  const thousands = decimalMark === ',' ? '.' : decimalMark === '.' ? ',' : /[.,]/.exec(intPart)?.[0];
  if (thousands && intPart.includes(thousands)) {
    const groups = intPart.split(thousands);
    if (groups.some((g, i) => (i === 0 ? g.length === 0 || g.length > 3 : g.length !== 3))) {
      return { ok: false, code: 'INVALID_AMOUNT' };
    }
    intPart = groups.join('');
  }
  if (/[.,]/.test(intPart)) return { ok: false, code: 'INVALID_AMOUNT' };
  if (fracPart.length > 2) {
    if (/[1-9]/.test(fracPart.slice(2))) return { ok: false, code: 'TOO_MANY_DECIMALS' };
    fracPart = fracPart.slice(0, 2);
  }
  if (intPart === '') intPart = '0';
  if (intPart.replace(/^0+/, '').length > 13) return { ok: false, code: 'OUT_OF_RANGE' };
  const cents = Number(intPart) * 100 + Number(fracPart.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return { ok: false, code: 'OUT_OF_RANGE' };
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}

/**
 * The dot-decimal form of XML files (`1250.00`, `0.5`, `12.34000`) → cents; null for anything else,
 * including a third significant decimal. Never guesses separators, unlike parseAmount.
 */
export function decimalToCents(text: string): number | null {
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,10}))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  if (/[1-9]/.test(frac.slice(2))) return null;
  const cents = Number(m[2]) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  return m[1] && cents !== 0 ? -cents : cents;
}

/**
 * Separate debit and credit columns → one signed amount (debits negative). Exactly one of them may
 * hold a non-zero amount; a debit written with a minus sign is still a debit.
 */
export function parseDebitCredit(debit: string, credit: string): AmountParse {
  const d = debit.trim() === '' ? null : parseAmount(debit);
  const c = credit.trim() === '' ? null : parseAmount(credit);
  if (d && !d.ok) return d;
  if (c && !c.ok) return c;
  const dc = d?.ok ? Math.abs(d.cents) : 0;
  const cc = c?.ok ? Math.abs(c.cents) : 0;
  if (!d && !c) return { ok: false, code: 'EMPTY' };
  if (dc !== 0 && cc !== 0) return { ok: false, code: 'INVALID_AMOUNT' };
  return { ok: true, cents: cc - dc };
}

/**
 * Splits `total` in proportion to `weights` (largest remainder, ties to the earlier part), so the
 * parts always add up to the total exactly. BigInt keeps `total × weight` exact.
 */
export function allocateCents(total: number, weights: readonly number[]): number[] {
  assertCents(total);
  if (weights.length === 0) throw new RangeError('no parts to split into');
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError('weights must be non-negative integers');
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new RangeError('weights add up to zero');
  const sign = total < 0 ? -1n : 1n;
  const t = BigInt(Math.abs(total));
  const s = BigInt(sum);
  const parts = weights.map((w) => (t * BigInt(w)) / s);
  const rems = weights.map((w, i) => ({ i, r: (t * BigInt(w)) % s }));
  let left = t - parts.reduce((a, b) => a + b, 0n);
  rems.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; left > 0n; k++, left--) {
    const at = rems[k % rems.length]!.i;
    parts[at] = parts[at]! + 1n;
  }
  return parts.map((p) => Number(p * sign) || 0);
}

/** Splits a total into `n` parts that differ by at most one cent. */
export function splitCents(total: number, n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('n must be a positive integer');
  return allocateCents(total, new Array<number>(n).fill(1));
}

export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    assertCents(v);
    total += v;
  }
  assertCents(total);
  return total;
}
