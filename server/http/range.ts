/**
 * `Range: bytes=…` for one stored file (RFC 9110 §14). One range only: browsers' media elements
 * and download managers never ask for several, and a multipart/byteranges answer would be code
 * no client here exercises, so several ranges are served as the whole file (the RFC lets a
 * server ignore Range). Any other syntax error is a 416, so a client bug shows up instead of
 * silently receiving megabytes it did not ask for (docs/decisions/0046).
 */
export type RangeRequest =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const SINGLE = /^(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'full' };
  const trimmed = header.trim();
  const equals = trimmed.indexOf('=');
  // A unit we do not serve is ignored, as the RFC requires.
  if (equals < 0 || trimmed.slice(0, equals).trim().toLowerCase() !== 'bytes') return { kind: 'full' };
  const specs = trimmed
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim());
  if (specs.length > 1)
    return specs.every((spec) => SINGLE.test(spec)) ? { kind: 'full' } : { kind: 'unsatisfiable' };

  const match = SINGLE.exec(specs[0]!);
  if (!match) return { kind: 'unsatisfiable' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    // suffix: the last N bytes (all of them when N exceeds the size)
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
