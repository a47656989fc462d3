import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { expectedFromPain001, parseExpectedItems } from '../domain/reconcile/expected';
import { type ExpectedItem, reconcile, withEntryIds } from '../domain/reconcile/match';
import { checkPain001, type Finding, readPain001 } from '../domain/sepa/read-pain001';
import { readPain002, type StatusReason } from '../domain/sepa/read-pain002';
import { isKnownReasonCode } from '../domain/sepa/reason-codes';
import { interpretStatusReport } from '../domain/sepa/status-report';
import { PAIN_NAMESPACE, type PainVersion, writePain001 } from '../domain/sepa/write-pain001';
import type { CsvMapping } from '../domain/statements/csv';
import { decodeWindows1252 } from '../domain/statements/decode';
import { parseStatement } from '../domain/statements/detect';
import { MAX_STATEMENT_BYTES, type StatementFormat } from '../domain/statements/types';
import enGB from '../locales/finance.en-GB.json';
import { painSchemaErrors } from './pain-schema';
import { formatIssues, sepaBatchSchema } from './sepa-batch-schema';

const USAGE = `Usage:
  npm run cli -- statement parse FILE [--format auto|csv|camt053|mt940] [--mapping JSON] [--json]
  npm run cli -- sepa generate --input BATCH.json --out FILE.xml [--version 03|09] [--json]
  npm run cli -- sepa check FILE.xml [--xsd-dir DIR] [--json]
  npm run cli -- sepa status PAIN002.xml [--json]
  npm run cli -- reconcile --statement FILE --expected EXPECTED.json|PAIN.xml [--format …] [--mapping JSON] [--window-days N] [--json]`;

class UsageError extends Error {}
class InputError extends Error {}

const DEFAULT_XSD_DIR = path.resolve(import.meta.dirname, '../domain/sepa/xsd');

/** Every input file (statement, batch, pain.001, expected items) has the statements' limit. */
const MAX_INPUT_BYTES = MAX_STATEMENT_BYTES;
const mebibytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * Reads a whole input file, refusing anything but a regular file within MAX_INPUT_BYTES *before*
 * reading: `/dev/zero` or a FIFO never ends, and a 326 MB camt.053 read whole peaked at 699 MB.
 * The check is repeated on the open descriptor and the read stops one byte past the limit, so a
 * file swapped or grown after the check is still bounded.
 */
function readInput(file: string): Buffer {
  const cannotRead = (e: unknown) =>
    new InputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  const checkStat = (stat: Stats) => {
    if (!stat.isFile()) throw new InputError(`${file} is not a regular file`);
    if (stat.size > MAX_INPUT_BYTES) {
      throw new InputError(
        `${file} is larger than the ${MAX_INPUT_BYTES / 2 ** 20} MiB limit (${mebibytes(stat.size)})`,
      );
    }
  };
  let fd: number;
  try {
    // Checked on the path first because opening a FIFO blocks until someone writes to it.
    checkStat(statSync(file));
    fd = openSync(file, 'r');
  } catch (e) {
    throw e instanceof InputError ? e : cannotRead(e);
  }
  try {
    const stat = fstatSync(fd);
    checkStat(stat);
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > MAX_INPUT_BYTES)
      throw new InputError(`${file} grew past the ${MAX_INPUT_BYTES / 2 ** 20} MiB limit`);
    return buffer.subarray(0, length);
  } catch (e) {
    throw e instanceof InputError ? e : cannotRead(e);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes beside the target and renames, so a failure never leaves half a file behind; on any
 * failure the temporary file is removed and the reason is one line (no stack trace).
 */
function writeOutput(file: string, contents: string): void {
  let existing: Stats | undefined;
  try {
    existing = statSync(file);
  } catch {}
  // Renaming over a folder fails after the temporary file exists; over a device (as root) it would succeed.
  if (existing?.isDirectory()) throw new InputError(`cannot write ${file}: is a folder`);
  if (existing && !existing.isFile()) throw new InputError(`cannot write ${file}: not a regular file`);
  const tmp = `${file}.${process.pid}.tmp`;
  let created = false;
  try {
    // 'wx': never truncate or follow something already at the temporary name.
    writeFileSync(tmp, contents, { encoding: 'utf8', flag: 'wx' });
    created = true;
    renameSync(tmp, file);
  } catch (e) {
    if (created) rmSync(tmp, { force: true });
    throw new InputError(
      `cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readInput(file).toString('utf8'));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${what} ${file} is not valid JSON`);
  }
}

function parseMapping(value: string | undefined): CsvMapping | undefined {
  if (value === undefined) return undefined;
  try {
    const m = JSON.parse(value) as unknown;
    if (m && typeof m === 'object' && !Array.isArray(m)) return m as CsvMapping;
  } catch {}
  throw new UsageError('--mapping must be a JSON object, e.g. {"bookingDate":"Data mov.","amount":"Valor"}');
}

function parseFormat(value: string | undefined): StatementFormat | 'auto' {
  const f = value ?? 'auto';
  if (f === 'auto' || f === 'csv' || f === 'camt053' || f === 'mt940') return f;
  throw new UsageError(`unknown --format ${f}`);
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
}

function statementParse(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string' }, mapping: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError('statement parse needs exactly one FILE');
  const result = parseStatement(new Uint8Array(readInput(positionals[0]!)), {
    format: parseFormat(values.format),
    mapping: parseMapping(values.mapping),
  });
  const b = result.balance;
  print(
    !!values.json,
    result,
    `${result.format}: ${result.entries.length} entries, ${result.errors.length} errors` +
      (b ? `, balance ${b.consistent ? 'consistent' : 'INCONSISTENT'}` : ''),
  );
  for (const e of result.errors) process.stderr.write(`line ${e.line}: ${e.code}\n`);
  return result.entries.length > 0 || result.errors.length === 0 ? 0 : 1;
}

function sepaGenerate(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      input: { type: 'string' },
      out: { type: 'string' },
      version: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.input || !values.out)
    throw new UsageError('sepa generate needs --input BATCH.json and --out FILE.xml');
  const version = (values.version ?? '03') as PainVersion;
  if (version !== '03' && version !== '09') throw new UsageError('--version must be 03 or 09');
  // Types first (zod): `"batchBooking": "false"` is truthy and was written as true.
  const parsed = sepaBatchSchema.safeParse(readJson(values.input, 'batch'));
  if (!parsed.success)
    throw new InputError(`batch ${values.input} is not valid:\n${formatIssues(parsed.error)}`);
  const result = writePain001(parsed.data, { version });
  if (!result.ok) {
    for (const e of result.errors) {
      const who = e.endToEndId ?? (e.index !== undefined ? `transaction ${e.index}` : 'batch');
      process.stderr.write(`${who}: ${e.field} ${e.code}\n`);
    }
    if (values.json)
      process.stdout.write(`${JSON.stringify({ ok: false, errors: result.errors }, null, 2)}\n`);
    return 1;
  }
  writeOutput(values.out, result.xml);
  const { xml: _xml, ...summary } = result;
  print(
    !!values.json,
    { ...summary, file: values.out },
    `${values.out}: ${result.numberOfTransactions} transactions, execution date ${result.executionDate}`,
  );
  return 0;
}

async function schemaErrors(xml: string, namespace: string, xsdDir: string): Promise<string[]> {
  const version = (Object.keys(PAIN_NAMESPACE) as PainVersion[]).find((v) => PAIN_NAMESPACE[v] === namespace);
  if (!version) return [`unsupported namespace ${namespace || '(none)'}`];
  const xsdFile = path.join(xsdDir, `pain.001.001.${version}.xsd`);
  if (!existsSync(xsdFile)) throw new InputError(`schema ${xsdFile} not found`);
  return painSchemaErrors(xml, xsdFile);
}

async function sepaCheck(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, 'xsd-dir': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('sepa check needs exactly one FILE.xml');
  const bytes = readInput(positionals[0]!);
  const findings: Finding[] = [];
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    findings.push({ location: 'file', field: 'encoding', code: 'BOM_PRESENT' });
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    findings.push({ location: 'file', field: 'encoding', code: 'NOT_UTF8' });
    xml = decodeWindows1252(bytes);
  }
  const read = readPain001(xml);
  let schema: string[];
  if (!read.ok) {
    schema = [`line ${read.line}: ${read.code}`];
  } else {
    findings.push(...checkPain001(read.file));
    schema = await schemaErrors(xml, read.file.namespace, values['xsd-dir'] ?? DEFAULT_XSD_DIR);
  }
  const ok = schema.length === 0 && findings.length === 0;
  const report = { ok, schemaValid: schema.length === 0, schemaErrors: schema, findings };
  print(
    !!values.json,
    report,
    ok
      ? 'OK: schema-valid, no EPC findings'
      : `${schema.length} schema errors, ${findings.length} EPC findings`,
  );
  if (!values.json) {
    for (const s of schema) process.stderr.write(`schema: ${s}\n`);
    for (const f of findings) process.stderr.write(`${f.location} ${f.field}: ${f.code}\n`);
  }
  return ok ? 0 : 1;
}

const describeReason = (r: StatusReason): string => {
  const code = r.code ?? r.proprietary ?? '(no code)';
  const text = r.code && isKnownReasonCode(r.code) ? ` ${enGB.bankReasons[r.code]}` : '';
  return `${code}${text}${r.additionalInfo.length > 0 ? ` (${r.additionalInfo.join(' ')})` : ''}`;
};

/** Prints what a pain.002 status report means for its file and transfers (decision 0058); applies nothing. */
function sepaStatus(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError('sepa status needs exactly one PAIN002.xml');
  const read = readPain002(
    readInput(positionals[0]!)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  );
  if (!read.ok) {
    const what = [read.field, read.found].filter(Boolean).join(' ');
    throw new InputError(`${positionals[0]}: line ${read.line}: ${read.code}${what ? ` ${what}` : ''}`);
  }
  const i = interpretStatusReport(read.report);
  print(
    !!values.json,
    { interpretation: i, warnings: read.report.warnings },
    `report ${i.reportMessageId} (${i.reportCreatedAt}) for file ${i.originalMessageId}: ${i.outcome}, ` +
      (i.fileStatus ? `file ${i.fileStatus}` : 'file unchanged'),
  );
  if (!values.json) {
    for (const r of i.rejections) {
      const who =
        r.scope === 'FILE'
          ? 'the whole file'
          : (r.endToEndId ?? `block ${r.paymentInformationId} (every transfer not named above)`);
      process.stdout.write(
        `rejected: ${who}: ${r.reasons.map(describeReason).join('; ') || 'no reason given'}\n`,
      );
    }
    for (const n of i.notes) {
      const where = [n.paymentInformationId, n.endToEndId, n.status].filter(Boolean).join(' ');
      process.stderr.write(`note: ${n.code}${where ? ` ${where}` : ''}\n`);
    }
    for (const w of read.report.warnings)
      process.stderr.write(`line ${w.line}: ${w.code} ${w.path} ${w.value}\n`);
  }
  return i.outcome === 'UNDETERMINED' ? 1 : 0;
}

function loadExpected(file: string): ExpectedItem[] {
  const bytes = readInput(file);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('<')) {
    const read = readPain001(text);
    if (!read.ok) throw new InputError(`${file}: line ${read.line}: ${read.code}`);
    return expectedFromPain001(read.file);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(`expected items ${file} is neither JSON nor a pain.001 file`);
  }
  const { items, errors } = parseExpectedItems(json);
  if (errors.length > 0) {
    throw new InputError(errors.map((e) => `expected item ${e.index}: ${e.field} ${e.code}`).join('\n'));
  }
  return items;
}

function reconcileCommand(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      statement: { type: 'string' },
      expected: { type: 'string' },
      format: { type: 'string' },
      mapping: { type: 'string' },
      'window-days': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.statement || !values.expected)
    throw new UsageError('reconcile needs --statement FILE and --expected FILE');
  const windowDays = values['window-days'] === undefined ? undefined : Number(values['window-days']);
  if (windowDays !== undefined && !(Number.isInteger(windowDays) && windowDays >= 0 && windowDays <= 366)) {
    throw new UsageError('--window-days must be an integer between 0 and 366');
  }
  const parsed = parseStatement(new Uint8Array(readInput(values.statement)), {
    format: parseFormat(values.format),
    mapping: parseMapping(values.mapping),
  });
  if (parsed.entries.length === 0 && parsed.errors.length > 0) {
    throw new InputError(
      parsed.errors.map((e) => `${values.statement}: line ${e.line}: ${e.code}`).join('\n'),
    );
  }
  const expected = loadExpected(values.expected);
  const result = reconcile(
    withEntryIds(parsed.entries),
    expected,
    windowDays === undefined ? {} : { windowDays },
  );
  print(
    !!values.json,
    { ...result, statementErrors: parsed.errors },
    `${result.matches.length} matches, ${result.suggestions.length} suggestions, ${result.returns.length} returns; ` +
      `unmatched: ${result.unmatchedEntries.length} entries, ${result.unmatchedItems.length} expected items`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === 'statement' && command === 'parse') return statementParse(rest);
  if (group === 'sepa' && command === 'generate') return sepaGenerate(rest);
  if (group === 'sepa' && command === 'check') return sepaCheck(rest);
  if (group === 'sepa' && command === 'status') return sepaStatus(rest);
  if (group === 'reconcile') return reconcileCommand(command === undefined ? [] : [command, ...rest]);
  throw new UsageError(
    group ? `unknown command: ${[group, command].filter(Boolean).join(' ')}` : 'no command given',
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(e as Error).message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (e instanceof InputError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`error: ${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    }
  },
);
