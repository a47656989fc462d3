import { readFileSync } from 'node:fs';
import { MAX_SAFT_COMPRESSION_RATIO, MAX_SAFT_XML_BYTES } from '../../contract/limits';
import { SourceStop } from '../../domain/sources/compressed';
import { openSaftText, type SaftText } from '../../domain/sources/saft-pt';
import { cutSaftForSchema } from '../../domain/sources/saft-schema-pieces';

/**
 * An uploaded SAF-T (PT) checked against the official XSD (DESIGN §6, decision 0152), read as XSD 1.0 as the
 * tests read it (decision 0148): the official file (`domain/sources/xsd/`, the fixture's copy) is XSD 1.1 —
 * 19 `xs:assert` and one `xs:all` of repeated elements — which libxml2 cannot compile; the asserts are dropped
 * and that `xs:all` read as a repeated choice, both only ever more permissive. In-process with libxml2-wasm,
 * as the pain.001 check (server/pain-schema.ts), the validator compiled once per thread.
 *
 * libxml2 validates a whole document in memory (a month of 100,000 invoices, 213 MiB of XML: 9.3 s and
 * 1.8 GiB), so the file is validated in pieces as it is decompressed and decoded, each a document the XSD
 * judges as it judges its part of the whole (`domain/sources/saft-schema-pieces.ts`, decision 0163): memory
 * bounded by a piece, the complaints' lines the upload's.
 */

/**
 * Sliced entries per piece, in characters: ~4 MiB is ~2,000 invoices, ~0.15 s each. Measured (decision 0163,
 * 100,000 invoices): the CPU is the same from 1 to 16 MiB; the peak memory grows past 4 MiB (+316 MiB at 16).
 */
export const SAFT_SCHEMA_PIECE_CHARS = 4 * 1_048_576;
/** The frame — header, tax table, control totals, journals' heads — is in every piece: held to this. */
const MAX_FRAME_CHARS = 8 * 1_048_576;
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
let loaded: Promise<(xml: string) => SchemaComplaint[]> | undefined;

/** One complaint of the XSD: the line in the document it was given, and libxml2's words. */
export interface SchemaComplaint {
  line: number;
  message: string;
}

/**
 * The validator, compiled once per thread: a document's text → the XSD's complaints, in the order of
 * their lines (libxml2 tells a keyref's at the end of the file; the first complaint is the earliest line).
 */
export function saftSchemaValidator(): Promise<(xml: string) => SchemaComplaint[]> {
  if (!loaded)
    loaded = (async () => {
      const lib: Libxml2 = await import('libxml2-wasm');
      const { xsd } = saftXsd10(readFileSync(OFFICIAL_XSD, 'latin1'));
      const schema = lib.XmlDocument.fromString(xsd.replace(/encoding="[^"]*"/, 'encoding="UTF-8"'), {
        option: lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE,
      });
      const validator = lib.XsdValidator.fromDoc(schema);
      const utf8 = new TextEncoder();
      return (text: string) => {
        // Decoded before (libxml2-wasm reads UTF-8 only): the declaration then says what the text now is.
        const xml = text.replace(/^(\uFEFF?<\?xml[^>]*encoding=)(["'])[^"']*\2/, '$1"UTF-8"');
        let doc: InstanceType<Libxml2['XmlDocument']> | undefined;
        try {
          // As bytes: Node's encoder, not the binding's per-character loop over the string (~2 of the
          // check's ~8 s of CPU for a month, decision 0168).
          doc = lib.XmlDocument.fromBuffer(utf8.encode(xml), {
            option:
              lib.ParseOption.XML_PARSE_NONET |
              lib.ParseOption.XML_PARSE_NO_XXE |
              lib.ParseOption.XML_PARSE_HUGE |
              // Lines past 65,535 as they are, not capped (a month's file has millions).
              lib.ParseOption.XML_PARSE_BIG_LINES,
          });
          validator.validate(doc);
          return [];
        } catch (e) {
          if (e instanceof lib.XmlLibError && e.details.length > 0)
            return e.details
              .map((d) => ({ line: d.line, message: d.message.trim() }))
              .sort((a, b) => a.line - b.line);
          if (e instanceof lib.XmlError) return [{ line: 1, message: e.message }];
          throw e;
        } finally {
          doc?.dispose();
        }
      };
    })();
  return loaded;
}

export type SaftSchemaCheck = { checked: false } | { checked: true; errors: string[] };

/**
 * A file whose frame is too big to repeat in every piece, or whose chart of accounts is too big to hold as one
 * slice (decision 0170: tens of thousands of journals or accounts, a comment of megabytes) is validated whole when its text is at most this long, as every file
 * was before 0163 (32 MiB of XML: ~0.3 GiB for libxml2).
 */
const WHOLE_MAX_CHARS = 32 * 1_048_576;

/**
 * The schema's complaints about an upload the SAF-T reader accepted (`line N: message`, at most ten, the
 * earliest lines first; empty when valid), checked a piece at a time (decisions 0163, 0170); `checked: false`
 * only for a file over `WHOLE_MAX_CHARS` whose parts that are not sliced (the header, the tax table, the
 * control totals, the journals' heads), or whose chart of accounts, are over `maxFrameChars` — the import refuses it
 * (`SAFT_SCHEMA_UNCHECKABLE`). The reader ran first: the bytes decompress within the limits and decode as
 * declared (UTF-8, ISO-8859-1 or windows-1252), without a DOCTYPE. `onProgress` is told the invoices
 * checked so far; `pieceChars` and `maxFrameChars` are the bench's and the tests'.
 */
export async function saftSchemaErrors(
  upload: Uint8Array,
  options: { onProgress?: (invoices: number) => void; pieceChars?: number; maxFrameChars?: number } = {},
): Promise<SaftSchemaCheck> {
  const { onProgress, pieceChars = SAFT_SCHEMA_PIECE_CHARS, maxFrameChars = MAX_FRAME_CHARS } = options;
  const validate = await saftSchemaValidator();
  const open = (): SaftText => {
    const opened = openSaftText(upload, {
      maxBytes: MAX_SAFT_XML_BYTES,
      maxRatio: MAX_SAFT_COMPRESSION_RATIO,
    });
    // The reader opened the same bytes with the same limits and accepted them.
    if (!opened.ok) throw new SourceStop(opened.refusal);
    return opened.value;
  };
  const errors: string[] = [];
  const complain = (complaints: SchemaComplaint[], fileLine: (line: number) => number) => {
    const seen = new Set<string>();
    for (const { line, message } of complaints) {
      const error = `line ${fileLine(line)}: ${message}`;
      // The frame and the master entries are in several pieces: their complaints are said once.
      if (!seen.has(error) && errors.length < MAX_ERRORS) errors.push(error);
      seen.add(error);
    }
  };
  let invoices = 0;
  try {
    const end = cutSaftForSchema(open, { sliceChars: pieceChars, maxFrameChars }, (piece) => {
      complain(validate(piece.xml), piece.fileLine);
      invoices += piece.invoices;
      onProgress?.(invoices);
      // Every complaint about a line before this piece's end is in it: the first piece with one is enough.
      return errors.length === 0;
    });
    if (!end.ok && end.reason === 'FRAME_TOO_LARGE') {
      const whole = wholeText(open());
      if (whole === null) return { checked: false };
      complain(validate(whole), (line) => line);
    }
    // The reader accepted the file: markup left open here would be a fault of this code, not of the file.
    else if (!end.ok) throw new Error('SAF-T schema pieces: the file ended inside an element');
  } catch (error) {
    if (error instanceof SourceStop) return { checked: false };
    throw error;
  }
  return { checked: true, errors };
}

/** The whole text, or null when it is longer than `WHOLE_MAX_CHARS`. */
function wholeText(text: SaftText): string | null {
  const parts = [text.first];
  let length = text.first.length;
  for (let piece = text.next(); piece !== null; piece = text.next()) {
    length += piece.length;
    if (length > WHOLE_MAX_CHARS) return null;
    parts.push(piece);
  }
  return parts.join('');
}
