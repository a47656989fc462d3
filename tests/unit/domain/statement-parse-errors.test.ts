// Every error code a statement parser can emit is declared in PARSE_ERROR_CODES and translated under
// `statements.parseErrors.<CODE>` in both locales, with a text that fits its format (issue 27: no
// "column mapping" advice for XML or MT940).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARSE_ERROR_CODES } from '../../../domain/statements/types';
import statementsEnGB from '../../../locales/statements.en-GB.json';
import statementsPtPT from '../../../locales/statements.pt-PT.json';

const root = join(import.meta.dirname, '../../..');
/** The parsers and what they pass on: every module of domain/statements but the line key, and the XML reader. */
const PARSER_SOURCES = [
  ...readdirSync(join(root, 'domain/statements'))
    .filter((name) => name.endsWith('.ts') && name !== 'line-key.ts')
    .map((name) => `domain/statements/${name}`),
  'domain/xml.ts',
];

const CODE = /'([A-Z][A-Z0-9_]+)'/g;

/**
 * The codes a source can emit: the literals of an error's `code:` value (ternaries included), of the XML reader's
 * `fail(…)`, and of any declaration typed with `ParseErrorCode` (tables from other codes to these).
 */
function emittedCodes(source: string): string[] {
  const places = [
    // `{ line…, code: … }`: an error (the `code` of other objects, e.g. a posting code, has no `line`).
    ...[...source.matchAll(/\bline\b[^{}]*?\bcode: ([^\n]*)/g)].map((m) => m[1]!),
    ...[...source.matchAll(/\bfail\(('[A-Z_]+')/g)].map((m) => m[1]!),
    ...[...source.matchAll(/: (?:readonly )?(?:Record<\w+, )?ParseErrorCode[^;]*;/gs)].map((m) => m[0]),
  ];
  return places.flatMap((text) => [...text.matchAll(CODE)].map((m) => m[1]!));
}

const emitted = new Set(
  PARSER_SOURCES.flatMap((path) => emittedCodes(readFileSync(join(root, path), 'utf8'))),
);
describe('parse error codes', () => {
  it('the codes the parser sources emit are exactly the declared ones', () => {
    expect([...emitted].sort()).toEqual([...PARSE_ERROR_CODES].sort());
  });

  it.each([
    ['en-GB', statementsEnGB.statements.parseErrors],
    ['pt-PT', statementsPtPT.statements.parseErrors],
  ] as const)('each has its %s text, and nothing else is there', (_, texts) => {
    expect(Object.keys(texts).sort()).toEqual([...PARSE_ERROR_CODES].sort());
    for (const text of Object.values(texts)) expect(text.trim().length).toBeGreaterThan(10);
  });

  it('only CSV codes speak of the column mapping; the XML and MT940 ones name what is wrong', () => {
    const csvOnly = new Set(['HEADER_NOT_FOUND']);
    for (const texts of [statementsEnGB.statements.parseErrors, statementsPtPT.statements.parseErrors]) {
      for (const [code, text] of Object.entries(texts)) {
        if (!csvOnly.has(code))
          expect({ code, text }).not.toEqual({ code, text: expect.stringMatching(/mapping|mapeamento/i) });
      }
    }
    expect(statementsEnGB.statements.parseErrors.UNCLOSED_XML).toMatch(/cut short/);
    expect(statementsEnGB.statements.parseErrors.INVALID_TRANSACTION_LINE).toMatch(/:61:/);
  });
});
