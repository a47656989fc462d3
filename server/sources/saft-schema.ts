import { readFileSync } from 'node:fs';
import { MAX_SAFT_COMPRESSION_RATIO } from '../../contract/limits';
import { decodeXmlBytes } from '../../domain/sepa/xml-bytes';
import { openSaftBytes } from '../../domain/sources/compressed';

/**
 * An uploaded SAF-T (PT) checked against the official XSD (DESIGN §6, decision 0152), read as XSD 1.0 as the
 * tests read it (decision 0148): the official file (`domain/sources/xsd/`, the fixture's copy) is XSD 1.1 —
 * 19 `xs:assert` and one `xs:all` of repeated elements — which libxml2 cannot compile; the asserts are dropped
 * and that `xs:all` read as a repeated choice, both only ever more permissive. In-process with libxml2-wasm,
 * as the pain.001 check (server/pain-schema.ts), the validator compiled once per thread.
 *
 * libxml2 validates a whole document in memory: a month of 100,000 invoices (213 MiB of XML) took 9.3 s and
 * 1.8 GiB to parse and validate, more than the whole import's budget. So a file is checked up to
 * `SAFT_SCHEMA_CHECK_MAX_BYTES` of XML (~15,000 invoices, about a second) and recorded as not checked beyond.
 */

export const SAFT_SCHEMA_CHECK_MAX_BYTES = 32 * 1_048_576;
/** The first complaints are enough to say what is wrong; a broken file can have one per document. */
const MAX_ERRORS = 10;

const OFFICIAL_XSD = new URL('../../domain/sources/xsd/SAFTPT1.04_01.xsd', import.meta.url);

/** The official XSD's text (windows-1252) as libxml2 can compile it, declared UTF-8 for `fromString`. */
export function saftXsd10(official: string): { xsd: string; asserts: number; alls: number } {
  const ASSERT = /<xs:assert\b[^>]*\/>/g;
  const asserts = official.match(ASSERT)?.length ?? 0;
  const withoutAsserts = official.replace(ASSERT, '');
  const alls = withoutAsserts.split('<xs:all>').length - 1;
  const xsd = withoutAsserts
    .replaceAll('<xs:all>', '<xs:choice maxOccurs="unbounded">')
    .replaceAll('</xs:all>', '</xs:choice>');
  return { xsd, asserts, alls };
}

type Libxml2 = typeof import('libxml2-wasm');
let loaded: Promise<{ lib: Libxml2; validator: InstanceType<Libxml2['XsdValidator']> }> | undefined;

function validator() {
  if (!loaded)
    loaded = (async () => {
      const lib = await import('libxml2-wasm');
      const { xsd } = saftXsd10(readFileSync(OFFICIAL_XSD, 'latin1'));
      const schema = lib.XmlDocument.fromString(xsd.replace(/encoding="[^"]*"/, 'encoding="UTF-8"'), {
        option: lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE,
      });
      return { lib, validator: lib.XsdValidator.fromDoc(schema) };
    })();
  return loaded;
}

export type SaftSchemaCheck = { checked: false } | { checked: true; errors: string[] };

/**
 * The schema's complaints about an upload the SAF-T reader accepted (`line N: message`, empty when valid),
 * or `checked: false` when its XML (`xmlBytes`, as the reader counted it) is over the size checked. The reader ran first: the bytes decompress
 * within the limits and decode as declared (UTF-8, ISO-8859-1 or windows-1252), without a DOCTYPE.
 */
export async function saftSchemaErrors(upload: Uint8Array, xmlBytes: number): Promise<SaftSchemaCheck> {
  // The reader counted the XML: a file over the size checked is not decompressed a second time to learn it.
  if (xmlBytes > SAFT_SCHEMA_CHECK_MAX_BYTES) return { checked: false };
  const source = openSaftBytes(upload, {
    maxBytes: SAFT_SCHEMA_CHECK_MAX_BYTES,
    maxRatio: MAX_SAFT_COMPRESSION_RATIO,
  });
  const pieces: Uint8Array[] = [];
  let size = 0;
  try {
    for (let piece = source.next(); piece !== null; piece = source.next()) {
      pieces.push(piece);
      size += piece.length;
    }
  } catch {
    return { checked: false };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  const decoded = decodeXmlBytes(bytes);
  if (!decoded.ok) return { checked: false };
  const { lib, validator: xsd } = await validator();
  // Decoded here (libxml2-wasm reads UTF-8 only): the declaration then says what the text now is.
  const xml = decoded.xml.replace(/^(\uFEFF?<\?xml[^>]*encoding=)(["'])[^"']*\2/, '$1"UTF-8"');
  let doc: InstanceType<Libxml2['XmlDocument']> | undefined;
  try {
    doc = lib.XmlDocument.fromString(xml, {
      option:
        lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE | lib.ParseOption.XML_PARSE_HUGE,
    });
    xsd.validate(doc);
    return { checked: true, errors: [] };
  } catch (e) {
    if (e instanceof lib.XmlLibError && e.details.length > 0)
      return {
        checked: true,
        errors: e.details.slice(0, MAX_ERRORS).map((d) => `line ${d.line}: ${d.message.trim()}`),
      };
    if (e instanceof lib.XmlError) return { checked: true, errors: [`line 1: ${e.message}`] };
    throw e;
  } finally {
    doc?.dispose();
  }
}
