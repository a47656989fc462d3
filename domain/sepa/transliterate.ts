// The EPC SEPA Latin character set: a-z A-Z 0-9 / - ? : ( ) . , ' + and space.

export const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

const SPECIAL: Record<string, string> = {
  º: 'o',
  ª: 'a',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  '&': '+',
  '€': 'EUR',
  '‘': "'",
  '’': "'",
  '´': "'",
  '`': "'",
  '"': "'",
  '“': "'",
  '”': "'",
  '«': "'",
  '»': "'",
  '–': '-',
  '—': '-',
  _: '-',
  ';': ',',
  '[': '(',
  ']': ')',
  '{': '(',
  '}': ')',
  '\\': '/',
  '#': 'N.',
  '%': 'pct',
  '@': '(at)',
  '*': '.',
  '!': '.',
  '=': '-',
};

const replacements = new Map<string, string>(Object.entries(SPECIAL));

function replacement(ch: string): string {
  let r = replacements.get(ch);
  if (r === undefined) {
    const stripped = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    r = SEPA_TEXT.test(stripped) ? stripped : ' ';
    if (replacements.size < 10_000) replacements.set(ch, r);
  }
  return r;
}

const OUTSIDE = /[^A-Za-z0-9/\-?:().,'+ ]/gu;

/** Portuguese (and general Latin) text → the SEPA set: ç→c, ã→a, º→o, &→+ …; anything else → space. */
export function transliterate(input: string): string {
  return input.normalize('NFC').replace(OUTSIDE, replacement);
}

/** Descriptive text for the file: transliterated, whitespace collapsed, cut to `max` characters. */
export function sepaText(input: string, max: number): string {
  return transliterate(input).replace(/\s+/g, ' ').trim().slice(0, max).trimEnd();
}

/** EPC identifier rule: SEPA set without spaces, no leading/trailing '/', no '//', 1..35 characters. */
export function identifierProblem(
  id: string,
): 'REQUIRED' | 'TOO_LONG' | 'INVALID_CHARACTERS' | 'INVALID_SLASHES' | null {
  if (id === '') return 'REQUIRED';
  if (id.length > 35) return 'TOO_LONG';
  if (!/^[A-Za-z0-9/\-?:().,'+]+$/.test(id)) return 'INVALID_CHARACTERS';
  if (id.startsWith('/') || id.endsWith('/') || id.includes('//')) return 'INVALID_SLASHES';
  return null;
}
