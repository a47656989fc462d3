import type { ExportDateField, ExportType } from '../../contract/statuses';
import type { ColumnKind } from '../../domain/export-files';
import { dateRange, type KeysetQuery, SqlParams } from '../db/list';

/**
 * What each export type reads and how its columns are titled (docs/decisions/0075). Every field of the
 * specification's tables (§3 User, Case) is a column; money is a `cents` column beside its currency;
 * instants are written as the Lisbon wall clock by the writers. Each row comes as one JSON text keyed
 * by the column keys (`rowJson`), which goes to the writer thread untouched.
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

/**
 * An instant as epoch milliseconds (a float8): the datetime columns accept them, and the driver reads a
 * number far faster than it builds a `Date` from timestamp text — at a million rows that is most of the
 * API thread's time (bench/results/exports.md).
 */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** The filters a job was started with, as stored in `export_jobs.filters`. */
export interface ExportFilters {
  dateField: ExportDateField;
  startDate: string;
  endDate: string | null;
}

/** A type's rows: the keyset statement to stream, and its count over the same filters. */
export interface ExportSource {
  columns: readonly SourceColumn[];
  keyset: KeysetQuery;
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
  col('phoneNumberCountryCode', 'text', 'Indicativo', 'Phone country code'),
  col('phoneNumber', 'text', 'Telefone', 'Phone number'),
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

/** `[column key, SQL]` pairs: the columns' values as one JSON object per row (see `rowJson`). */
type Fields = readonly (readonly [key: string, sql: string])[];

const PERSON_FIELDS: Fields = [
  ['id', 'u.id'],
  ['role', 'u.role'],
  ['name', 'u.name'],
  ['fullName', 'u.full_name'],
  ['email', 'u.email'],
  ['status', 'u.status'],
  ['gender', 'u.gender'],
  ['country', 'u.country'],
  ['phoneNumberCountryCode', 'u.phone_country_code'],
  ['phoneNumber', 'u.phone_number'],
  ['idCardNumber', 'u.id_card_number'],
  ['taxNumber', 'u.tax_number'],
  ['userDisabled', 'u.disabled'],
  ['emailVerified', 'u.email_verified'],
  ['created', epochMs('u.created_at')],
  ['lastActive', epochMs('u.last_active_at')],
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
  [
    'areasOfInterest',
    `CASE WHEN u.role = 'PROFESSIONAL' THEN (
      SELECT string_agg(a.name, ', ' ORDER BY a.name) FROM professional_interest_areas pia
        JOIN interest_areas a ON a.id = pia.area_id WHERE pia.professional_id = u.id) END`,
  ],
  ['shareLinkId', 'u.share_link_id'],
  ['referralName', 'u.referral_name'],
  ['professionalBackground', 'u.professional_background'],
  ['collegeCardFrontFile', `${fileUrl} || u.college_card_front_file_id::text || '/download'`],
  ['collegeCardBackFile', `${fileUrl} || u.college_card_back_file_id::text || '/download'`],
  ['bicSwift', 'u.bic_swift'],
  ['iban', 'u.iban'],
  ['associationLink', 'u.association_link'],
];

/**
 * The keyset's select: the row's id (for the keyset position) and its cells as one JSON text, built by
 * PostgreSQL. The API thread passes that text on to the writer thread as it came (no per-cell parsing,
 * no structured clone of a million objects: bench/results/exports.md), and the writer parses it.
 */
const rowJson = (id: string, fields: Fields) =>
  `${id} AS id, json_build_object(${fields.map(([key, sql]) => `'${key}', ${sql}`).join(', ')})::text AS row_json`;

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
): ExportSource {
  const params = new SqlParams();
  const column = filters.dateField === 'LAST_ACTIVE' ? 'u.last_active_at' : 'u.created_at';
  const where = [
    USER_ROLES[type],
    ...dateRange(params, column, filters.startDate, filters.endDate ?? undefined),
  ];
  const countValues = [...params.values];
  const from = 'FROM users u';
  const professional = type !== 'CUSTOMERS';
  const select = rowJson(
    'u.id',
    professional
      ? [...PERSON_FIELDS, ...professionalFields(params.add(`${publicUrl}/v2/admin/attachments/`))]
      : PERSON_FIELDS,
  );
  return {
    columns: professional ? [...PERSON_COLUMNS, ...PROFESSIONAL_COLUMNS] : PERSON_COLUMNS,
    keyset: {
      select,
      from,
      where,
      params,
      // The date bound makes the column non-null, as a keyset sort needs.
      sort: { sql: column, type: 'timestamptz' },
      id: 'u.id',
      order: 'asc',
    },
    countFrom: `${from} WHERE ${where.join(' AND ')}`,
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

function caseSource(filters: ExportFilters, publicUrl: string): ExportSource {
  const params = new SqlParams();
  const from = `FROM cases c JOIN users cu ON cu.id = c.customer_id JOIN users pr ON pr.id = c.professional_id`;
  const where = dateRange(params, 'c.created_at', filters.startDate, filters.endDate ?? undefined);
  const countValues = [...params.values];
  const chatUrl = params.add(`${publicUrl}/chat/`);
  return {
    columns: CASE_COLUMNS,
    keyset: {
      select: rowJson('c.id', [
        ['id', 'c.id'],
        ['customerId', 'c.customer_id'],
        ['customerName', 'cu.name'],
        ['professionalId', 'c.professional_id'],
        ['professionalName', 'pr.name'],
        ['closed', 'c.closed'],
        ['status', 'c.status'],
        ['totalMessages', 'c.total_messages'],
        ['type', 'c.type'],
        ['startDate', epochMs('c.start_date')],
        ['endDate', epochMs('c.end_date')],
        ['price', 'c.price_cents'],
        ['currency', 'c.currency'],
        ['professionalSummary', 'c.professional_summary'],
        ['chatLink', `${chatUrl} || c.id::text`],
        ['createdAt', epochMs('c.created_at')],
      ]),
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
  return {
    columns: STATS_COLUMNS,
    keyset: {
      select: rowJson('s.professional_id', [
        ['day', 's.day::text'],
        ['shareLinkId', 's.share_link_id'],
        ['referralName', 'p.referral_name'],
        ['professionalId', 's.professional_id'],
        ['professionalName', 'p.name'],
        ['visits', 's.visits'],
        ['signups', 's.signups'],
        ['cases', 's.cases'],
        ['total', 's.total'],
      ]),
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

export function exportSource(type: ExportType, filters: ExportFilters, publicUrl: string): ExportSource {
  switch (type) {
    case 'CASES':
      return caseSource(filters, publicUrl);
    case 'STATS':
      return statsSource(filters);
    default:
      return userSource(type, filters, publicUrl);
  }
}
