import type { ExportDateField, ExportType } from '../../contract/statuses';
import type { ColumnKind, ExportLocale } from '../../domain/export-files';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';
import { dateRange, type KeysetQuery, SqlParams } from '../db/list';
import { csvCopyCells, type SqlCell, textCells } from './csv-sql';
import type { CsvCopyQuery } from './csv-stream';
import type { XlsxCopyQuery } from './xlsx-sql';

/**
 * What each export type reads and how its columns are titled (docs/decisions/0075). Every field of the
 * specification's tables (§3 User, Case) is a column; money is a `cents` column beside its currency;
 * instants are written as the Lisbon wall clock. The same statement (the list engine's keyset over the
 * same filters) is read through PostgreSQL's COPY as CSV cells (`csvRows`, decision 0090) or as the
 * XLSX sheet's rows (`xlsxRows`, decision 0105); the XLSX writer reads its first rows' values as JSON
 * (`jsonRows`) to size the columns.
 */

export interface SourceColumn {
  key: string;
  kind: ColumnKind;
  header: { 'pt-PT': string; 'en-GB': string };
}

const col = (key: string, kind: ColumnKind, pt: string, en: string): SourceColumn => ({
  key,
  kind,
  header: { 'pt-PT': pt, 'en-GB': en },
});

/** The filters a job was started with, as stored in `export_jobs.filters`. */
export interface ExportFilters {
  dateField: ExportDateField;
  startDate: string;
  endDate: string | null;
}

/** A type's rows: the keyset statement to stream, and its count over the same filters. */
export interface ExportSource {
  columns: readonly SourceColumn[];
  /** Each column's value as SQL over the keyset's `FROM`, in column order (see `exportSelect`). */
  values: readonly string[];
  /** The keyset statement without its select (the writer chooses how rows come: see `exportSelect`). */
  keyset: Omit<KeysetQuery, 'select'>;
  /** `FROM … WHERE …` to count or estimate the rows, and its parameters (a prefix of the keyset's). */
  countFrom: string;
  countValues: unknown[];
  /** The sheet's name (XLSX) and the file name's stem. */
  name: { 'pt-PT': string; 'en-GB': string };
}

const PERSON_COLUMNS: readonly SourceColumn[] = [
  col('id', 'text', 'ID', 'ID'),
  col('role', 'text', 'Perfil', 'Role'),
  col('name', 'text', 'Nome', 'Name'),
  col('fullName', 'text', 'Nome completo', 'Full name'),
  col('email', 'text', 'E-mail', 'Email'),
  col('status', 'text', 'Estado', 'Status'),
  col('gender', 'text', 'Género', 'Gender'),
  col('country', 'text', 'País', 'Country'),
  col('phoneNumberCountryCode', 'phone', 'Indicativo', 'Phone country code'),
  col('phoneNumber', 'phone', 'Telefone', 'Phone number'),
  col('idCardNumber', 'text', 'N.º de identificação', 'ID card number'),
  col('taxNumber', 'text', 'NIF', 'Tax number'),
  col('userDisabled', 'boolean', 'Desativado', 'Disabled'),
  col('emailVerified', 'boolean', 'E-mail verificado', 'Email verified'),
  col('created', 'datetime', 'Criado em (Lisboa)', 'Created (Lisbon)'),
  col('lastActive', 'datetime', 'Última atividade (Lisboa)', 'Last active (Lisbon)'),
];

const PROFESSIONAL_COLUMNS: readonly SourceColumn[] = [
  col('professionalVerified', 'boolean', 'Médico verificado', 'Doctor verified'),
  col('collegeNumber', 'text', 'N.º da Ordem', 'College number'),
  col('casePrice', 'cents', 'Preço do caso', 'Case price'),
  col('caseCurrency', 'text', 'Moeda do caso', 'Case currency'),
  col('subscriptionPrice', 'cents', 'Preço da subscrição', 'Subscription price'),
  col('subscriptionCurrency', 'text', 'Moeda da subscrição', 'Subscription currency'),
  col('currentWorkplaces', 'text', 'Locais de trabalho', 'Current workplaces'),
  col('specialities', 'text', 'Especialidades', 'Specialities'),
  col('areasOfInterest', 'text', 'Áreas de interesse', 'Areas of interest'),
  col('shareLinkId', 'text', 'Link de partilha', 'Share link'),
  col('referralName', 'text', 'Nome de referência', 'Referral name'),
  col('professionalBackground', 'text', 'Percurso profissional', 'Professional background'),
  col('collegeCardFrontFile', 'text', 'Cédula (frente)', 'College card (front)'),
  col('collegeCardBackFile', 'text', 'Cédula (verso)', 'College card (back)'),
  col('bicSwift', 'text', 'BIC/SWIFT', 'BIC/SWIFT'),
  col('iban', 'text', 'IBAN', 'IBAN'),
  col('associationLink', 'text', 'Link da associação', 'Doctor association link'),
];

/** SQL text of a string literal (standard conforming: only the quote is doubled). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

const WORDS = { 'pt-PT': ptPT, 'en-GB': enGB } as const;

/**
 * A stored code written in the export's language with the console's own words (decision 0128): a role,
 * a status, a gender is read by people, not by a program. A `_female` variant is chosen by the row's
 * gender when `genderSql` is given; a code without a translation is written as stored.
 */
function wordsSql(sql: string, words: Readonly<Record<string, string>>, genderSql?: string): string {
  const arms = Object.entries(words)
    .filter(([code]) => !code.endsWith('_female'))
    .map(([code, word]) => {
      const female = words[`${code}_female`];
      const then =
        female && genderSql
          ? `CASE WHEN ${genderSql} = 'female' THEN ${literal(female)} ELSE ${literal(word)} END`
          : literal(word);
      return `WHEN ${literal(code)} THEN ${then}`;
    });
  return `CASE ${sql} ${arms.join(' ')} ELSE ${sql} END`;
}

/** `[column key, SQL]` pairs: the columns' values, as PostgreSQL holds them. */
type Fields = readonly (readonly [key: string, sql: string])[];

// A doctor with a verified e-mail waits for the admin's verification: the console's words for it.
const PERSON_STATUS = `CASE WHEN u.role = 'PROFESSIONAL' AND u.status = 'EMAIL_VERIFIED' THEN 'awaitingVerification' ELSE u.status END`;

const personFields = (locale: ExportLocale): Fields => [
  ['id', 'u.id'],
  ['role', wordsSql('u.role', WORDS[locale].chat.role, 'u.gender')],
  ['name', 'u.name'],
  ['fullName', 'u.full_name'],
  ['email', 'u.email'],
  ['status', wordsSql(PERSON_STATUS, WORDS[locale].users.status, 'u.gender')],
  ['gender', wordsSql('u.gender', WORDS[locale].users.gender)],
  ['country', 'u.country'],
  ['phoneNumberCountryCode', 'u.phone_country_code'],
  ['phoneNumber', 'u.phone_number'],
  ['idCardNumber', 'u.id_card_number'],
  ['taxNumber', 'u.tax_number'],
  ['userDisabled', 'u.disabled'],
  ['emailVerified', 'u.email_verified'],
  ['created', 'u.created_at'],
  ['lastActive', 'u.last_active_at'],
];

/** `fileUrl`: the parameter holding the public address the attachment links are built from. */
const professionalFields = (fileUrl: string): Fields => [
  ['professionalVerified', 'u.professional_verified'],
  ['collegeNumber', 'u.college_number'],
  ['casePrice', 'u.case_price_cents'],
  ['caseCurrency', 'u.case_currency'],
  ['subscriptionPrice', 'u.subscription_price_cents'],
  ['subscriptionCurrency', 'u.subscription_currency'],
  ['currentWorkplaces', "nullif(array_to_string(u.current_workplaces, ', '), '')"],
  ['specialities', "nullif(array_to_string(u.specialities, ', '), '')"],
  // Kept by migration 0027's triggers (decision 0104): no join per row.
  ['areasOfInterest', "CASE WHEN u.role = 'PROFESSIONAL' THEN u.interest_area_names END"],
  ['shareLinkId', 'u.share_link_id'],
  ['referralName', 'u.referral_name'],
  ['professionalBackground', 'u.professional_background'],
  ['collegeCardFrontFile', `${fileUrl} || u.college_card_front_file_id::text || '/download'`],
  ['collegeCardBackFile', `${fileUrl} || u.college_card_back_file_id::text || '/download'`],
  ['bicSwift', 'u.bic_swift'],
  ['iban', 'u.iban'],
  ['associationLink', 'u.association_link'],
];

/** The fields' SQL in the columns' order (every column has its field). */
function valuesOf(columns: readonly SourceColumn[], fields: Fields): string[] {
  const byKey = new Map(fields);
  return columns.map((c) => {
    const sql = byKey.get(c.key);
    if (sql === undefined) throw new Error(`export column ${c.key} has no field`);
    return sql;
  });
}

const USER_ROLES: Record<'USERS' | 'CUSTOMERS' | 'PROFESSIONALS', string> = {
  // The partial indexes of migration 0019 serve exactly this predicate.
  USERS: `u.role <> 'ADMIN'`,
  CUSTOMERS: `u.role = 'CUSTOMER'`,
  PROFESSIONALS: `u.role = 'PROFESSIONAL'`,
};

const USER_NAMES = {
  USERS: { 'pt-PT': 'Utilizadores', 'en-GB': 'Users' },
  CUSTOMERS: { 'pt-PT': 'Pacientes', 'en-GB': 'Patients' },
  PROFESSIONALS: { 'pt-PT': 'Médicos', 'en-GB': 'Doctors' },
} as const;

function userSource(
  type: 'USERS' | 'CUSTOMERS' | 'PROFESSIONALS',
  filters: ExportFilters,
  publicUrl: string,
  locale: ExportLocale,
): ExportSource {
  const params = new SqlParams();
  const column = filters.dateField === 'LAST_ACTIVE' ? 'u.last_active_at' : 'u.created_at';
  const where = [
    USER_ROLES[type],
    ...dateRange(params, column, filters.startDate, filters.endDate ?? undefined),
  ];
  const countValues = [...params.values];
  const professional = type !== 'CUSTOMERS';
  const columns = professional ? [...PERSON_COLUMNS, ...PROFESSIONAL_COLUMNS] : PERSON_COLUMNS;
  const fields = professional
    ? [...personFields(locale), ...professionalFields(params.add(`${publicUrl}/v2/admin/attachments/`))]
    : personFields(locale);
  return {
    columns,
    values: valuesOf(columns, fields),
    keyset: {
      from: 'FROM users u',
      where,
      params,
      // The date bound makes the column non-null, as a keyset sort needs.
      sort: { sql: column, type: 'timestamptz' },
      id: 'u.id',
      order: 'asc',
    },
    countFrom: `FROM users u WHERE ${where.join(' AND ')}`,
    countValues,
    name: USER_NAMES[type],
  };
}

const CASE_COLUMNS: readonly SourceColumn[] = [
  col('id', 'text', 'ID', 'ID'),
  col('customerId', 'text', 'ID do paciente', 'Patient ID'),
  col('customerName', 'text', 'Paciente', 'Patient'),
  col('professionalId', 'text', 'ID do médico', 'Doctor ID'),
  col('professionalName', 'text', 'Médico', 'Doctor'),
  col('closed', 'boolean', 'Fechado', 'Closed'),
  col('status', 'text', 'Estado', 'Status'),
  col('totalMessages', 'integer', 'Mensagens', 'Messages'),
  col('type', 'text', 'Tipo', 'Type'),
  col('startDate', 'datetime', 'Início (Lisboa)', 'Start (Lisbon)'),
  col('endDate', 'datetime', 'Fim (Lisboa)', 'End (Lisbon)'),
  col('price', 'cents', 'Preço', 'Price'),
  col('currency', 'text', 'Moeda', 'Currency'),
  col('professionalSummary', 'text', 'Resumo do médico', 'Doctor summary'),
  col('chatLink', 'text', 'Link da conversa', 'Case chat link'),
  col('createdAt', 'datetime', 'Criado em (Lisboa)', 'Created (Lisbon)'),
];

function caseSource(filters: ExportFilters, publicUrl: string, locale: ExportLocale): ExportSource {
  const params = new SqlParams();
  const from = `FROM cases c JOIN users cu ON cu.id = c.customer_id JOIN users pr ON pr.id = c.professional_id`;
  const where = dateRange(params, 'c.created_at', filters.startDate, filters.endDate ?? undefined);
  const countValues = [...params.values];
  const chatUrl = params.add(`${publicUrl}/chat/`);
  const fields: Fields = [
    ['id', 'c.id'],
    ['customerId', 'c.customer_id'],
    ['customerName', 'cu.name'],
    ['professionalId', 'c.professional_id'],
    ['professionalName', 'pr.name'],
    ['closed', 'c.closed'],
    ['status', wordsSql('c.status', WORDS[locale].cases.status)],
    ['totalMessages', 'c.total_messages'],
    ['type', wordsSql('c.type', WORDS[locale].cases.type)],
    ['startDate', 'c.start_date'],
    ['endDate', 'c.end_date'],
    ['price', 'c.price_cents'],
    ['currency', 'c.currency'],
    ['professionalSummary', 'c.professional_summary'],
    ['chatLink', `${chatUrl} || c.id::text`],
    ['createdAt', 'c.created_at'],
  ];
  return {
    columns: CASE_COLUMNS,
    values: valuesOf(CASE_COLUMNS, fields),
    keyset: {
      from,
      where,
      params,
      sort: { sql: 'c.created_at', type: 'timestamptz' },
      id: 'c.id',
      order: 'asc',
    },
    countFrom: `FROM cases c WHERE ${where.join(' AND ')}`,
    countValues,
    name: { 'pt-PT': 'Casos', 'en-GB': 'Cases' },
  };
}

const STATS_COLUMNS: readonly SourceColumn[] = [
  col('day', 'date', 'Dia (Lisboa)', 'Day (Lisbon)'),
  col('shareLinkId', 'text', 'Link de partilha', 'Share link'),
  col('referralName', 'text', 'Nome de referência', 'Referral name'),
  col('professionalId', 'text', 'ID do médico', 'Doctor ID'),
  col('professionalName', 'text', 'Médico', 'Doctor'),
  col('visits', 'integer', 'Visitas', 'Visits'),
  col('signups', 'integer', 'Registos', 'Sign-ups'),
  col('cases', 'integer', 'Casos', 'Cases'),
  col('total', 'integer', 'Total', 'Total'),
];

/**
 * Share-link occurrences (migration 0002: one row per use of a doctor's link, VISIT / SIGNUP / CASE)
 * counted per Lisbon day, link as it was used, and doctor. The keyset runs over the grouped rows: the
 * sort key is the day and link as text, the doctor's id breaks ties.
 */
function statsSource(filters: ExportFilters): ExportSource {
  const params = new SqlParams();
  const where = dateRange(params, 'o.occurred_at', filters.startDate, filters.endDate ?? undefined);
  const grouped = `(SELECT (o.occurred_at AT TIME ZONE 'Europe/Lisbon')::date AS day, o.share_link_id,
        o.professional_id, count(*) FILTER (WHERE o.kind = 'VISIT')::int AS visits,
        count(*) FILTER (WHERE o.kind = 'SIGNUP')::int AS signups,
        count(*) FILTER (WHERE o.kind = 'CASE')::int AS cases, count(*)::int AS total
      FROM share_link_occurrences o WHERE ${where.join(' AND ')}
      GROUP BY 1, 2, 3) s`;
  const fields: Fields = [
    ['day', 's.day'],
    ['shareLinkId', 's.share_link_id'],
    ['referralName', 'p.referral_name'],
    ['professionalId', 's.professional_id'],
    ['professionalName', 'p.name'],
    ['visits', 's.visits'],
    ['signups', 's.signups'],
    ['cases', 's.cases'],
    ['total', 's.total'],
  ];
  return {
    columns: STATS_COLUMNS,
    values: valuesOf(STATS_COLUMNS, fields),
    keyset: {
      from: `FROM ${grouped} JOIN users p ON p.id = s.professional_id`,
      where: [],
      params,
      sort: { sql: `s.day::text || ' ' || s.share_link_id`, type: 'text' },
      id: 's.professional_id',
      order: 'asc',
    },
    countFrom: `FROM ${grouped}`,
    countValues: params.values,
    name: { 'pt-PT': 'Estatísticas', 'en-GB': 'Statistics' },
  };
}

/** `locale`: the export's language, in which its headers and its coded values (roles, statuses) are written. */
export function exportSource(
  type: ExportType,
  filters: ExportFilters,
  publicUrl: string,
  locale: ExportLocale,
): ExportSource {
  switch (type) {
    case 'CASES':
      return caseSource(filters, publicUrl, locale);
    case 'STATS':
      return statsSource(filters);
    default:
      return userSource(type, filters, publicUrl, locale);
  }
}

/**
 * An instant as epoch milliseconds (a float8): the datetime columns accept them, and the driver reads a
 * number far faster than it builds a `Date` from timestamp text (bench/results/exports.md).
 */
const epochMs = (value: string) => `(extract(epoch FROM ${value}) * 1000)::float8`;

/**
 * The rows as one JSON text each, keyed by the column keys, built by PostgreSQL, as the domain's writers
 * read values: the XLSX export reads its first rows this way to size the sheet's columns (decision 0105).
 */
export function jsonRows(source: ExportSource): KeysetQuery {
  const pairs = source.columns.map((c, i) => {
    const value = source.values[i]!;
    const sql =
      c.kind === 'datetime'
        ? epochMs(value)
        : c.kind === 'date'
          ? `to_char((${value})::date, 'YYYY-MM-DD')`
          : value;
    return `'${c.key}', ${sql}`;
  });
  return {
    ...source.keyset,
    select: `${source.keyset.id} AS id, json_build_object(${pairs.join(', ')})::text AS row_json`,
  };
}

const cellsOf = (source: ExportSource): SqlCell[] =>
  source.columns.map((c, i) => ({ sql: source.values[i]!, kind: c.kind }));

/** The rows as the XLSX sheet's `<row>` elements (decision 0105, `xlsxBatchSelect`). */
export const xlsxRows = (source: ExportSource): XlsxCopyQuery => ({
  keyset: source.keyset,
  cells: cellsOf(source),
});

/** The rows as COPY's CSV cells (decision 0090, `csvCopyCells`). */
export function csvRows(source: ExportSource, locale: ExportLocale): CsvCopyQuery {
  const cells = cellsOf(source);
  return {
    query: { ...source.keyset, select: csvCopyCells(cells, locale) },
    textCells: textCells(cells),
    locale,
  };
}
