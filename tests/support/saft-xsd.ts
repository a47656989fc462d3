// The official SAF-T (PT) XSD (tests/fixtures/sources/SAFTPT1.04_01.xsd) read as XSD 1.0, and Debian's
// xmllint checking a file against it, as the SEPA files are checked. The XSD is XSD 1.1
// (`vc:minVersion="1.1"`: 19 `xs:assert` and one `xs:all` of repeated elements), which libxml2 cannot
// compile: the asserts are dropped (tax-exemption and general-ledger rules the reader does not rely on)
// and that `xs:all` is read as a repeated choice, both only ever more permissive (decision 0148).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saftXsd10 } from '../../server/sources/saft-schema';

export const SOURCE_FIXTURES = fileURLToPath(new URL('../fixtures/sources/', import.meta.url));

export interface SaftSchemaCheck {
  /** How many `xs:assert` and `xs:all` the official XSD had: every 1.1 construct was found. */
  asserts: number;
  alls: number;
  /** xmllint's complaints about `bytes` (empty when valid). */
  errors(bytes: Uint8Array | string, name: string): string;
  /** Removes the folder the schema and checked files are written to. */
  close(): void;
}

export function saftSchemaCheck(): SaftSchemaCheck {
  const dir = mkdtempSync(join(tmpdir(), 'saft-xsd-'));
  // The server's own reading of the XSD as 1.0 (server/sources/saft-schema.ts): the tests check with it.
  const {
    xsd: downgraded,
    asserts,
    alls,
  } = saftXsd10(readFileSync(`${SOURCE_FIXTURES}SAFTPT1.04_01.xsd`, 'latin1'));
  const schema = join(dir, 'SAFTPT1.04_01-xsd10.xsd');
  writeFileSync(schema, downgraded, 'latin1');
  return {
    asserts,
    alls,
    errors(bytes, name) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      try {
        execFileSync('xmllint', ['--noout', '--nonet', '--schema', schema, file], { stdio: 'pipe' });
        return '';
      } catch (error) {
        return String((error as { stderr?: Buffer }).stderr ?? error);
      }
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
