import { decimalToCents } from '../money';
import { decodeXmlBytes, xmlPieceDecoder } from '../sepa/xml-bytes';
import { LINE, list, MAX_XML_CHARS, type OpenElement, parseXmlSafely, text } from '../xml';
import { openSaftBytes, type SaftContainer, SourceStop, type UnpackLimits } from './compressed';
import { formatScaled, scaledDecimal } from './decimal-text';
import { refused, type SourceRead } from './refusal';

/**
 * SAF-T (PT) 1.04_01 — `SourceDocuments/SalesInvoices` of the file every certified Portuguese invoicing
 * program exports (Portaria 302/2016; the official XSD and AT's demonstration file are fixtures, see
 * tests/fixtures/sources/SOURCES.md). Read with the project's bounded XML reader (no DOCTYPE, no entity
 * expansion, bounded depth), from bytes in UTF-8, ISO-8859-1 or windows-1252 as the declaration says.
 * Decision 0148: what is read, the control totals' rule, what the import will store.
 */

export const SAFT_PT_NAMESPACE = 'urn:OECD:StandardAuditFile-Tax:PT_1.04_01';

/** `InvoiceStatus`: N normal, S self-billed, A cancelled, R summary of other programs' documents, F invoiced. */
export type SaftInvoiceStatus = 'N' | 'S' | 'A' | 'R' | 'F';
const STATUSES: ReadonlySet<string> = new Set(['N', 'S', 'A', 'R', 'F']);

/** `InvoiceType` as the XSD lists it (the last ten are legacy and insurance types). */
const INVOICE_TYPES: ReadonlySet<string> = new Set([
  'FT',
  'FS',
  'FR',
  'ND',
  'NC',
  'VD',
  'TV',
  'TD',
  'AA',
  'DA',
  'RP',
  'RE',
  'CS',
  'LD',
  'RA',
]);

/** A credit note gives money back: its totals are printed positive, it offsets the documents it references. */
const CREDITING_TYPES: ReadonlySet<string> = new Set(['NC']);

/** Statuses left out of `TotalDebit`/`TotalCredit` (they stay in `NumberOfEntries`): cancelled and invoiced. */
const OUTSIDE_CONTROL_TOTALS: ReadonlySet<string> = new Set(['A', 'F']);

/** Decimals kept when summing line amounts for the control totals (programs print up to 6 or so). */
const LINE_SCALE = 10;

export interface SaftDocument {
  /** `InvoiceNo`, e.g. `FT 1T/1`: with `atcud`, the document's identity for deduplication. */
  invoiceNo: string;
  /** `ATCUD` (`0` in files from before the series were communicated). */
  atcud: string;
  /** `InvoiceType`: FT, FS, FR, ND, NC, … */
  type: string;
  /** True for a credit note (NC): it offsets `references`. */
  crediting: boolean;
  status: Exclude<SaftInvoiceStatus, 'A'>;
  /** `InvoiceDate`, ISO. */
  date: string;
  customerId: string;
  /** The customer's `CustomerTaxID` from `MasterFiles/Customer` (`999999990` is the final consumer). */
  customerTaxId: string;
  /** `DocumentTotals`, cents, as printed (positive for credit notes too). */
  grossCents: number;
  netCents: number;
  taxCents: number;
  /** `Line/References/Reference`, each once: the documents a credit or debit note corrects. */
  references: string[];
  /** `Line/OrderReferences/OriginatingON`, each once: where a marketplace's case reference may be. */
  orderReferences: string[];
  /** `Line/ProductDescription` and `Line/Description`, each once: the other place a case reference may be. */
  lineTexts: string[];
  /** Line of the file where the document starts. */
  line: number;
}

/** A cancelled document (status A): read and listed, never imported. */
export interface SaftCancelledDocument {
  invoiceNo: string;
  atcud: string;
  type: string;
  date: string;
  /** `DocumentStatus/Reason`, when the program gave one. */
  reason: string | null;
  grossCents: number;
  line: number;
}

export interface SaftSalesInvoices {
  /** Header: the issuer and the period the file covers. */
  companyTaxId: string | null;
  companyName: string | null;
  startDate: string | null;
  endDate: string | null;
  /** Header `ProductID`: the invoicing program. */
  software: string | null;
  encoding: 'utf-8' | 'iso-8859-1' | 'windows-1252' | null;
  documents: SaftDocument[];
  cancelled: SaftCancelledDocument[];
  /** The control totals as the file declares them (all three checked against its documents). */
  numberOfEntries: number;
  totalDebit: string;
  totalCredit: string;
}

type Node = unknown;

const lineOf = (node: Node) => ((node as Record<string, unknown>)[LINE] as number | undefined) ?? 1;

const ARRAYS = new Set(['Customer', 'Invoice', 'Line', 'OrderReferences', 'References']);
const INVOICE = new Set(['Invoice']);
const LINE_TAGS = new Set(['Invoice']);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isoDate(value: string | null): string | null {
  const m = value === null ? null : ISO_DATE.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value ? value : null;
}

/** A document total: non-negative, at most two significant decimals. */
function totalCents(value: string | null): number | null {
  if (value === null || value.startsWith('-')) return null;
  return decimalToCents(value);
}

const unique = (values: (string | null)[]): string[] => [
  ...new Set(values.filter((v): v is string => v !== null && v !== '')),
];

/** A document as its `Invoice` element gives it: the customer's tax id is looked up once all are read. */
type InvoiceRead = Omit<SaftDocument, 'customerTaxId' | 'status'> & {
  status: SaftInvoiceStatus;
  reason: string | null;
};

/** What one `Invoice` gives, read as it closes so that the tree never holds every line of the file. */
class ReadInvoice {
  constructor(
    readonly document: InvoiceRead | null,
    /** The field that could not be read, when `document` is null. */
    readonly invalidField: string | null,
    readonly invoiceNo: string | null,
    readonly line: number,
    /** Sums of the lines' `DebitAmount` and `CreditAmount`, 10^-LINE_SCALE units. */
    readonly debit: bigint,
    readonly credit: bigint,
  ) {}
}

function readInvoice(invoice: Node): ReadInvoice {
  const line = lineOf(invoice);
  const invoiceNo = text(invoice, 'InvoiceNo');
  const invalid = (field: string) => new ReadInvoice(null, field, invoiceNo, line, 0n, 0n);
  if (!invoiceNo) return invalid('InvoiceNo');
  const atcud = text(invoice, 'ATCUD');
  if (!atcud) return invalid('ATCUD');
  const status = text(invoice, 'DocumentStatus', 'InvoiceStatus') ?? '';
  if (!STATUSES.has(status)) return invalid('InvoiceStatus');
  const type = text(invoice, 'InvoiceType') ?? '';
  if (!INVOICE_TYPES.has(type)) return invalid('InvoiceType');
  const date = isoDate(text(invoice, 'InvoiceDate'));
  if (!date) return invalid('InvoiceDate');
  const customerId = text(invoice, 'CustomerID');
  if (!customerId) return invalid('CustomerID');
  const grossCents = totalCents(text(invoice, 'DocumentTotals', 'GrossTotal'));
  if (grossCents === null) return invalid('GrossTotal');
  const netCents = totalCents(text(invoice, 'DocumentTotals', 'NetTotal'));
  if (netCents === null) return invalid('NetTotal');
  const taxCents = totalCents(text(invoice, 'DocumentTotals', 'TaxPayable'));
  if (taxCents === null) return invalid('TaxPayable');
  let debit = 0n;
  let credit = 0n;
  const references: (string | null)[] = [];
  const orderReferences: (string | null)[] = [];
  const lineTexts: (string | null)[] = [];
  for (const item of list(invoice, 'Line')) {
    const debitText = text(item, 'DebitAmount');
    const creditText = text(item, 'CreditAmount');
    const amount = scaledDecimal(debitText ?? creditText ?? '', LINE_SCALE);
    if (amount === null || amount < 0n) return invalid(debitText === null ? 'CreditAmount' : 'DebitAmount');
    if (debitText === null) credit += amount;
    else debit += amount;
    for (const ref of list(item, 'References')) references.push(text(ref, 'Reference'));
    for (const order of list(item, 'OrderReferences')) orderReferences.push(text(order, 'OriginatingON'));
    lineTexts.push(text(item, 'ProductDescription'), text(item, 'Description'));
  }
  const document: InvoiceRead = {
    invoiceNo,
    atcud,
    type,
    crediting: CREDITING_TYPES.has(type),
    status: status as SaftInvoiceStatus,
    reason: text(invoice, 'DocumentStatus', 'Reason'),
    date,
    customerId,
    grossCents,
    netCents,
    taxCents,
    references: unique(references),
    orderReferences: unique(orderReferences),
    lineTexts: unique(lineTexts),
    line,
  };
  return new ReadInvoice(document, null, invoiceNo, line, debit, credit);
}

/** The root element's namespace as written (the reader drops `xmlns` attributes), or null. */
function rootNamespace(xml: string): string | null {
  const root = /<([A-Za-z_][\w.-]*:)?AuditFile\b([^>]*)>/.exec(xml);
  if (!root) return null;
  const prefix = root[1] ? `:${root[1].slice(0, -1)}` : '';
  const attribute = new RegExp(`\\sxmlns${prefix.replace(/\./g, '\\.')}\\s*=\\s*["']([^"']*)["']`);
  return attribute.exec(root[2]!)?.[1] ?? null;
}

interface ControlTotals {
  /** The control total the file does not give as a number, if any. */
  unreadable: string | null;
  mismatches: { total: string; declared: string; computed: string }[];
}

/** The control totals compared: what the file declares and what its documents add up to. */
function controlTotals(salesInvoices: Node, invoices: readonly ReadInvoice[]): ControlTotals {
  const countText = text(salesInvoices, 'NumberOfEntries') ?? '';
  const declared = {
    NumberOfEntries: /^\d{1,9}$/.test(countText) ? BigInt(countText) : null,
    TotalDebit: scaledDecimal(text(salesInvoices, 'TotalDebit') ?? '', LINE_SCALE),
    TotalCredit: scaledDecimal(text(salesInvoices, 'TotalCredit') ?? '', LINE_SCALE),
  };
  const unreadable = Object.entries(declared).find(([, value]) => value === null || value < 0n)?.[0] ?? null;
  if (unreadable !== null) return { unreadable, mismatches: [] };
  let debit = 0n;
  let credit = 0n;
  for (const invoice of invoices) {
    if (OUTSIDE_CONTROL_TOTALS.has(invoice.document!.status)) continue;
    debit += invoice.debit;
    credit += invoice.credit;
  }
  const compared = [
    { total: 'NumberOfEntries', computed: BigInt(invoices.length), scale: 0 },
    { total: 'TotalDebit', computed: debit, scale: LINE_SCALE },
    { total: 'TotalCredit', computed: credit, scale: LINE_SCALE },
  ] as const;
  const mismatches = compared
    .filter((c) => declared[c.total] !== c.computed)
    .map((c) => ({
      total: c.total,
      declared: formatScaled(declared[c.total]!, c.scale),
      computed: formatScaled(c.computed, c.scale),
    }));
  return { unreadable: null, mismatches };
}

/** SAF-T (PT) bytes → its sales invoices, decoded as the XML declaration says. */
export function readSaftSalesInvoices(bytes: Uint8Array): SourceRead<SaftSalesInvoices> {
  const decoded = decodeXmlBytes(bytes);
  if (!decoded.ok) {
    return decoded.code === 'UNSUPPORTED_ENCODING'
      ? refused('SAFT_ENCODING_UNSUPPORTED', 1, { encoding: decoded.found })
      : refused('SAFT_UNREADABLE', 1, { reason: 'INVALID_BYTES' });
  }
  const read = readSaftSalesInvoicesText(decoded.xml);
  return read.ok ? { ok: true, value: { ...read.value, encoding: decoded.encoding } } : read;
}

/** What an upload was read from: the XML itself, gzip, or the one entry of a ZIP. */
export interface SaftFileRead extends SaftSalesInvoices {
  container: SaftContainer;
  entryName: string | null;
  /** The XML's size in bytes, decompressed: what else would need it need not decompress it again. */
  xmlBytes: number;
}

/** Bytes read before the encoding is decided and the root element looked for (a declaration, comments). */
const HEAD_BYTES = 64 * 1024;

/**
 * A SAF-T (PT) upload → its sales invoices, the XML as it is or compressed (gzip, a ZIP of one XML
 * file), read in pieces as it is decompressed and decoded so that a month of 100,000 invoices is never
 * held whole (decision 0149). Refused as `readSaftSalesInvoices` refuses, and a compressed file that
 * cannot be decompressed, holds another entry, or expands past `limits`.
 */
export function readSaftFile(bytes: Uint8Array, limits: UnpackLimits): SourceRead<SaftFileRead> {
  try {
    const opened = openSaftText(bytes, limits);
    if (!opened.ok) return opened;
    const text = opened.value;
    const read = readSaftPieces(text.first, text.next, limits.maxBytes);
    if (!read.ok) return read;
    return {
      ok: true,
      value: {
        ...read.value,
        encoding: text.encoding,
        container: text.container,
        entryName: text.entryName(),
        xmlBytes: text.xmlBytes(),
      },
    };
  } catch (error) {
    if (error instanceof SourceStop) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

/** A SAF-T upload's text in pieces, decompressed and decoded as they are asked for. */
export interface SaftText {
  first: string;
  /** The next piece of text, null at the end; throws `SourceStop` when the file is refused on the way. */
  next: () => string | null;
  encoding: 'utf-8' | 'iso-8859-1' | 'windows-1252';
  container: SaftContainer;
  entryName: () => string | null;
  /** The XML's bytes read so far (all of them once `next` gave null). */
  xmlBytes: () => number;
}

/**
 * The upload's XML as text pieces (decision 0149): decompressed a slice at a time, decoded as its
 * declaration says. What the reader reads, and what the schema check cuts into documents (decision 0163).
 * Throws `SourceStop` (from here or from `next`) when the bytes are refused.
 */
export function openSaftText(bytes: Uint8Array, limits: UnpackLimits): SourceRead<SaftText> {
  const source = openSaftBytes(bytes, limits);
  const heads: Uint8Array[] = [];
  let headSize = 0;
  for (let piece = source.next(); piece !== null; piece = headSize < HEAD_BYTES ? source.next() : null) {
    heads.push(piece);
    headSize += piece.length;
  }
  const head = concatBytes(heads, headSize);
  let xmlBytes = headSize;
  const decoder = xmlPieceDecoder(head);
  if (!decoder.ok) return refused('SAFT_ENCODING_UNSUPPORTED', 1, { encoding: decoder.found });
  let ended = head.length === 0 || headSize < HEAD_BYTES;
  const decode = (piece: Uint8Array, last: boolean) => {
    try {
      return decoder.decode(piece, last);
    } catch {
      throw new SourceStop({ code: 'SAFT_UNREADABLE', line: 1, extra: { reason: 'INVALID_BYTES' } });
    }
  };
  const first = decode(head, ended);
  const next = () => {
    if (ended) return null;
    const piece = source.next();
    if (piece === null) ended = true;
    else xmlBytes += piece.length;
    return decode(piece ?? new Uint8Array(0), piece === null);
  };
  return {
    ok: true,
    value: {
      first,
      next,
      encoding: decoder.encoding,
      container: source.container,
      entryName: () => source.entryName(),
      xmlBytes: () => xmlBytes,
    },
  };
}

function concatBytes(pieces: readonly Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  return all;
}

/**
 * SAF-T (PT) text → its sales invoices: every document but the cancelled ones (listed apart), each
 * with its customer's tax number; refused whole when a document cannot be read, a number repeats, a
 * customer is not in `MasterFiles`, or the control totals disagree with the documents (all three:
 * `NumberOfEntries` counts every document, `TotalDebit`/`TotalCredit` the lines of those neither
 * cancelled nor invoiced, status A or F — the rule of Portaria 302/2016 that AT's demonstration file keeps).
 */
export function readSaftSalesInvoicesText(xml: string): SourceRead<SaftSalesInvoices> {
  return readSaftPieces(xml, undefined, MAX_XML_CHARS);
}

/** The text in pieces: `first`, then what `next` gives (none when undefined). */
function readSaftPieces(
  first: string,
  next: (() => string | null) | undefined,
  maxChars: number,
): SourceRead<SaftSalesInvoices> {
  const readEarly = (_name: string, invoice: unknown, open: readonly OpenElement[]) => {
    if (open.length !== 4 || open[1]!.name !== 'AuditFile' || open[3]!.name !== 'SalesInvoices') return;
    if (open[2]!.name !== 'SourceDocuments') return;
    return readInvoice(invoice);
  };
  const parsed = parseXmlSafely(first, ARRAYS, {
    lineTags: LINE_TAGS,
    onClose: { tags: INVOICE, handle: readEarly },
    maxChars,
    ...(next ? { next } : {}),
  });
  if (!parsed.ok) return refused('SAFT_UNREADABLE', parsed.line ?? 1, { reason: parsed.code });
  const auditFile = parsed.doc.AuditFile;
  if (auditFile === undefined) return refused('SAFT_NOT_AUDIT_FILE', 1);
  const namespace = rootNamespace(first);
  if (namespace !== SAFT_PT_NAMESPACE) {
    return namespace?.startsWith('urn:OECD:StandardAuditFile-Tax:PT_')
      ? refused('SAFT_VERSION_UNSUPPORTED', 1, {
          namespace,
          version: text(auditFile, 'Header', 'AuditFileVersion'),
        })
      : refused('SAFT_NOT_AUDIT_FILE', 1, { namespace });
  }
  const salesInvoices = (auditFile as Record<string, Node>).SourceDocuments;
  const sales = salesInvoices && (salesInvoices as Record<string, Node>).SalesInvoices;
  if (!sales) return refused('SAFT_NO_SALES_INVOICES', 1);
  const invoices = list(sales, 'Invoice').map((node) =>
    node instanceof ReadInvoice ? node : readInvoice(node),
  );
  const invalid = invoices.find((invoice) => invoice.document === null);
  if (invalid) {
    return refused('SAFT_DOCUMENT_INVALID', invalid.line, {
      invoiceNo: invalid.invoiceNo,
      field: invalid.invalidField,
    });
  }
  const taxIds = new Map<string, string>();
  for (const customer of list(auditFile, 'MasterFiles', 'Customer')) {
    const id = text(customer, 'CustomerID');
    const taxId = text(customer, 'CustomerTaxID');
    if (id && taxId) taxIds.set(id, taxId);
  }
  const seen = new Set<string>();
  const documents: SaftDocument[] = [];
  const cancelled: SaftCancelledDocument[] = [];
  for (const { document } of invoices) {
    const { status, reason, ...kept } = document!;
    if (seen.has(kept.invoiceNo)) {
      return refused('SAFT_DUPLICATE_DOCUMENT', kept.line, { invoiceNo: kept.invoiceNo });
    }
    seen.add(kept.invoiceNo);
    const customerTaxId = taxIds.get(kept.customerId);
    if (customerTaxId === undefined) {
      return refused('SAFT_UNKNOWN_CUSTOMER', kept.line, {
        invoiceNo: kept.invoiceNo,
        customerId: kept.customerId,
      });
    }
    if (status === 'A') {
      const { invoiceNo, atcud, type, date, grossCents, line } = kept;
      cancelled.push({ invoiceNo, atcud, type, date, reason, grossCents, line });
    } else documents.push({ ...kept, status, customerTaxId });
  }
  const { unreadable, mismatches } = controlTotals(sales, invoices);
  if (unreadable !== null) return refused('SAFT_DOCUMENT_INVALID', 1, { field: unreadable });
  if (mismatches.length > 0) return refused('SAFT_CONTROL_TOTALS_MISMATCH', 1, { mismatches });
  return {
    ok: true,
    value: {
      companyTaxId: text(auditFile, 'Header', 'TaxRegistrationNumber'),
      companyName: text(auditFile, 'Header', 'CompanyName'),
      startDate: isoDate(text(auditFile, 'Header', 'StartDate')),
      endDate: isoDate(text(auditFile, 'Header', 'EndDate')),
      software: text(auditFile, 'Header', 'ProductID'),
      encoding: null,
      documents,
      cancelled,
      numberOfEntries: invoices.length,
      totalDebit: text(sales, 'TotalDebit')!,
      totalCredit: text(sales, 'TotalCredit')!,
    },
  };
}
