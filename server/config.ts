import { resolve } from 'node:path';
import { checkPayableIban, isValidBicFormat, normalizeBic } from '../domain/iban';
import { sepaText } from '../domain/sepa/transliterate';
import { parseTrustedProxies } from './platform/client-addresses';
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from './platform/sessions';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * `FILES_BACKEND`: where stored files live. `local`: `$DATA_DIR/files` (the embedded default);
   * `postgres`: chunks in the database, so several instances on one server all see every file
   * (the default when DATABASE_URL is set; docs/decisions/0063).
   */
  filesBackend: FilesBackend;
  adminEmail: string;
  adminPassword: string;
  demoPassword: string;
  smtpUrl: string | undefined;
  /**
   * Where people reach the product from outside, without a trailing slash: links in e-mails are
   * built from it, never from the request's Host header (which the sender of the request chooses).
   */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set. Unset, `publicUrl` is only a guess at this machine's own address, so a
   * cookie mutation's Origin may also be the request's own host (docs/decisions/0126).
   */
  publicUrlSet: boolean;
  /** How long a console session lives: `SESSION_IDLE_HOURS` without a request, `SESSION_LIFETIME_DAYS` in all. */
  session: SessionPolicy;
  /**
   * `TRUSTED_PROXIES`: addresses or CIDR ranges of the reverse proxies in front of the API. Only a
   * request whose socket comes from one of them has its X-Forwarded-For read. Unset: never read.
   */
  trustedProxies: string | undefined;
  development: boolean;
  /**
   * `NODE_ENV=test`: every JSON answer is checked against the response schema its route declares
   * (contract/), and a mismatch answers 500 RESPONSE_CONTRACT_VIOLATION so the test fails.
   */
  checkResponses: boolean;
  /** The account SEPA payouts are debited from, and whether the bank books the file as one debit. */
  sepa: SepaConfig;
  /**
   * `SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES`: a SAF-T upload of up to this much XML is checked against the
   * official XSD before it is answered 202, a bigger one by its import job (decision 0163). Unset: 32 MiB.
   */
  saftSchemaBeforeAcceptMaxBytes: number | undefined;
}

export interface SepaConfig {
  debtor: { name: string; iban: string; bic: string | null };
  /** `SEPA_BATCH_BOOKING` (default true): `<BtchBookg>`, one debit line for the whole file. */
  batchBooking: boolean;
}

/** The demo company's account (a valid PT IBAN of a test bank): what `npm start` pays from by default. */
export const DEMO_SEPA_DEBTOR = {
  name: 'Consultas Online, Lda.',
  iban: 'PT50003506510000123456714',
  bic: 'CGDIPTPL',
} as const;

/**
 * `SEPA_DEBTOR_NAME`, `SEPA_DEBTOR_IBAN`, `SEPA_DEBTOR_BIC`, `SEPA_BATCH_BOOKING`, checked at start so a
 * typo stops the server with the variable's name instead of producing files the bank refuses.
 */
export function readSepaConfig(env: NodeJS.ProcessEnv): SepaConfig {
  const name = env.SEPA_DEBTOR_NAME ?? DEMO_SEPA_DEBTOR.name;
  if (sepaText(name, 70) === '')
    throw new Error(`SEPA_DEBTOR_NAME must be a name a SEPA file can carry, got ${JSON.stringify(name)}`);
  const iban = checkPayableIban(env.SEPA_DEBTOR_IBAN ?? DEMO_SEPA_DEBTOR.iban);
  if (!iban.valid)
    throw new Error(
      `SEPA_DEBTOR_IBAN must be a valid IBAN of a SEPA country (${iban.code}), got ${env.SEPA_DEBTOR_IBAN}`,
    );
  const rawBic = env.SEPA_DEBTOR_BIC ?? (env.SEPA_DEBTOR_IBAN ? '' : DEMO_SEPA_DEBTOR.bic);
  const bic = rawBic.trim() === '' ? null : normalizeBic(rawBic);
  if (bic && !isValidBicFormat(bic))
    throw new Error(`SEPA_DEBTOR_BIC must be a BIC (8 or 11 characters), got ${env.SEPA_DEBTOR_BIC}`);
  const booking = env.SEPA_BATCH_BOOKING ?? 'true';
  if (booking !== 'true' && booking !== 'false')
    throw new Error(`SEPA_BATCH_BOOKING must be true or false, got ${booking}`);
  return { debtor: { name, iban: iban.iban, bic }, batchBooking: booking === 'true' };
}

const HOUR_MS = 60 * 60 * 1000;

/** A positive number of hours or days from the environment, or the default; anything else stops the start. */
function readDuration(env: NodeJS.ProcessEnv, name: string, fallback: number, unitMs: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback * unitMs;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value * unitMs;
}

/** `SESSION_IDLE_HOURS` (default 8) and `SESSION_LIFETIME_DAYS` (default 7), docs/decisions/0126. */
export function readSessionPolicy(env: NodeJS.ProcessEnv): SessionPolicy {
  return {
    idleMs: readDuration(env, 'SESSION_IDLE_HOURS', DEFAULT_SESSION_POLICY.idleMs / HOUR_MS, HOUR_MS),
    lifetimeMs: readDuration(
      env,
      'SESSION_LIFETIME_DAYS',
      DEFAULT_SESSION_POLICY.lifetimeMs / (24 * HOUR_MS),
      24 * HOUR_MS,
    ),
  };
}

export type FilesBackend = 'local' | 'postgres';

function readFilesBackend(value: string | undefined, databaseUrl: string | undefined): FilesBackend {
  if (!value) return databaseUrl ? 'postgres' : 'local';
  if (value !== 'local' && value !== 'postgres')
    throw new Error(`FILES_BACKEND must be "local" or "postgres", got ${JSON.stringify(value)}`);
  if (value === 'postgres' && !databaseUrl)
    throw new Error(
      'FILES_BACKEND=postgres needs DATABASE_URL: the embedded database (PGlite) keeps stored files in $DATA_DIR/files',
    );
  return value;
}

export const DEFAULT_ADMIN_EMAIL = 'admin@demo.pt';
export const DEFAULT_ADMIN_PASSWORD = 'admin-demo-2026';
export const DEFAULT_DEMO_PASSWORD = 'demo-pass-2026';

/** The address `npm start` prints: a wildcard bind is reachable on loopback, so that is what a browser opens. */
export function localUrl(host: string, port: number): string {
  const shown = ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function readPublicUrl(value: string | undefined, host: string, port: number): string {
  if (!value) return localUrl(host, port);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got ${value}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password)
    throw new Error(`PUBLIC_URL must be an http(s) URL without query, fragment or credentials, got ${value}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? '127.0.0.1';
  parseTrustedProxies(env.TRUSTED_PROXIES); // refuses a typo at start-up rather than ignoring it
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    filesBackend: readFilesBackend(env.FILES_BACKEND, databaseUrl),
    adminEmail: env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    demoPassword: env.DEMO_PASSWORD ?? DEFAULT_DEMO_PASSWORD,
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: readPublicUrl(env.PUBLIC_URL, host, port),
    publicUrlSet: Boolean(env.PUBLIC_URL),
    session: readSessionPolicy(env),
    trustedProxies: env.TRUSTED_PROXIES || undefined,
    development: env.NODE_ENV === 'development',
    checkResponses: env.NODE_ENV === 'test',
    sepa: readSepaConfig(env),
    saftSchemaBeforeAcceptMaxBytes: readByteCount(
      'SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES',
      env.SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES,
    ),
  };
}

function readByteCount(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const bytes = Number(value);
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw new Error(`${name} must be a number of bytes, got ${value}`);
  return bytes;
}
