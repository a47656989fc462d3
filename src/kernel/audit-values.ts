import { formatCents } from '../../domain/money';
import type { Translate } from '../i18n/i18n';
import { formatDate, formatDateTime } from './dates';

/**
 * An audit row's before → after as people read it (issue 29, decision 0128): field names translated
 * (`auditFields.*`), money in the locale, statuses and enums through the screens' own translations,
 * yes/no for booleans, dates on Lisbon's clock, nested values as lines. Every before → after rendering
 * (the audit log, a record's history) goes through here.
 */

/** A value as text, or a nested value as one line per field (or per list item). */
export type ReadableValue = string | ReadableLine[];
export interface ReadableLine {
  label: string;
  value: string;
}

/** One field an audit row changed (absent side: the field did not exist). */
export interface ReadableChange {
  field: string;
  label: string;
  before?: ReadableValue;
  after?: ReadableValue;
}

export interface AuditValueContext {
  t: Translate;
  locale: string;
  /** The audited entity's type: its statuses are looked up first (a SEPA file's PAID, not a case's). */
  entityType?: string;
}

// Namespaces are written as [area, table] pairs: they are prefixes, not keys, so the locale test
// (which reads every quoted `area.key` as a key) does not take them for missing ones.
type Namespace = readonly [string, string];
const ns = ([area, table]: Namespace) => `${area}.${table}`;

/** Where each entity type's statuses are translated already (the screens' own keys, reused). */
const STATUS_NAMESPACES: Record<string, Namespace> = {
  settlement: ['finance', 'status'],
  sepa_file: ['sepa', 'status'],
  user: ['users', 'status'],
  case: ['cases', 'status'],
  statement_line: ['statements', 'status'],
  export: ['exports', 'status'],
};
/** Any other enum: a SEPA file's row also names settlement statuses, a close names case statuses. */
const ENUM_NAMESPACES: Namespace[] = [
  ...Object.values(STATUS_NAMESPACES),
  ['users', 'gender'],
  ['chat', 'role'],
  ['statements', 'kind'],
];
/** Fields whose values a screen translates already under its own key (an export's type). */
const FIELD_NAMESPACES: Record<string, Namespace> = { type: ['exports', 'types'] };

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_MONTH = /^\d{4}-\d{2}$/;
/** A code (`PENDING_TRANSFER`); a lowercase word only where the field is an enum (`male`, `cancelled`). */
const UPPER_CODE = /^[A-Z][A-Z0-9_]*$/;
const LOWER_ENUM_FIELDS = new Set(['status', 'gender', 'kind', 'role']);
const isEnumCode = (field: string, value: string) =>
  UPPER_CODE.test(value) || (LOWER_ENUM_FIELDS.has(field) && /^[a-z][a-z_]*$/.test(value));

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key's text, or undefined when there is none (rosetta answers '' for a missing key). */
function lookup(t: Translate, key: string): string | undefined {
  const text = t(key);
  return text && text !== key ? text : undefined;
}

/** A field's name in words; a field with no translation shows as itself. */
const auditFieldLabel = (t: Translate, field: string): string => lookup(t, `auditFields.${field}`) ?? field;

const monthFormatters = new Map<string, Intl.DateTimeFormat>();
function formatMonth(month: string, locale: string): string {
  let found = monthFormatters.get(locale);
  if (!found) {
    // A calendar month, not an instant: read at noon UTC so no zone moves it to the month before.
    found = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthFormatters.set(locale, found);
  }
  return found.format(new Date(`${month}-15T12:00:00Z`));
}

function enumLabel(field: string, code: string, ctx: AuditValueContext): string | undefined {
  const own = ctx.entityType ? STATUS_NAMESPACES[ctx.entityType] : undefined;
  const namespaces = [
    `auditValues.${field}`,
    ...[FIELD_NAMESPACES[field], own, ...ENUM_NAMESPACES].flatMap((namespace) =>
      namespace ? [ns(namespace)] : [],
    ),
  ];
  for (const namespace of namespaces) {
    const text = lookup(ctx.t, `${namespace}.${code}`);
    if (text) return text;
  }
  return undefined;
}

/** One bare value as text, read by the field that holds it. */
function formatAuditScalar(field: string, value: unknown, ctx: AuditValueContext): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return ctx.t(value ? 'auditValues.yes' : 'auditValues.no');
  if (typeof value === 'number') {
    if (/Cents$/.test(field) && Number.isInteger(value)) return formatCents(value, ctx.locale, 'EUR');
    return new Intl.NumberFormat(ctx.locale).format(value);
  }
  if (typeof value !== 'string') return JSON.stringify(value);
  if (ISO_INSTANT.test(value)) return formatDateTime(value, ctx.locale);
  if (ISO_DAY.test(value)) return formatDate(`${value}T12:00:00Z`, ctx.locale);
  if (ISO_MONTH.test(value)) return formatMonth(value, ctx.locale);
  if (isEnumCode(field, value)) return enumLabel(field, value, ctx) ?? value;
  return value;
}

/** An object's fields as `label: value`, nested objects flattened as `outer › inner`. */
function objectLines(record: Record<string, unknown>, ctx: AuditValueContext, prefix = ''): ReadableLine[] {
  return Object.entries(record).flatMap(([field, value]) => {
    const label = `${prefix}${auditFieldLabel(ctx.t, field)}`;
    if (isRecord(value)) return objectLines(value, ctx, `${label} › `);
    return [{ label, value: listOrScalar(field, value, ctx) }];
  });
}

function listOrScalar(field: string, value: unknown, ctx: AuditValueContext): string {
  if (!Array.isArray(value)) return formatAuditScalar(field, value, ctx);
  if (value.length === 0) return '—';
  return value
    .map((item) =>
      isRecord(item) ? readableText(objectLines(item, ctx)) : formatAuditScalar(field, item, ctx),
    )
    .join('; ');
}

/** A field's value as people read it: text, or lines for an object or a list of objects. */
function formatAuditValue(field: string, value: unknown, ctx: AuditValueContext): ReadableValue {
  if (isRecord(value)) return objectLines(value, ctx);
  if (Array.isArray(value) && value.some(isRecord))
    return value.map((item, index) => ({
      label: `${index + 1}.`,
      value: isRecord(item) ? readableText(objectLines(item, ctx)) : formatAuditScalar(field, item, ctx),
    }));
  return listOrScalar(field, value, ctx);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between `before` and `after`, in the order they first appear, each read by
 * `formatAuditValue`. Objects are compared field by field; anything else (a list, a bare value) is one
 * change named `value`.
 */
export function readableChanges(before: unknown, after: unknown, ctx: AuditValueContext): ReadableChange[] {
  if (before == null && after == null) return [];
  const change = (field: string, had: boolean, was: unknown, has: boolean, is: unknown): ReadableChange[] =>
    had === has && same(was, is)
      ? []
      : [
          {
            field,
            label: auditFieldLabel(ctx.t, field),
            ...(had ? { before: formatAuditValue(field, was, ctx) } : {}),
            ...(has ? { after: formatAuditValue(field, is, ctx) } : {}),
          },
        ];
  if (!(isRecord(before) || before == null) || !(isRecord(after) || after == null))
    return change('value', before != null, before, after != null, after);
  const from = before ?? {};
  const to = after ?? {};
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return fields.flatMap((field) => change(field, field in from, from[field], field in to, to[field]));
}

/** A readable value on one line (a table cell, a title, a list item): lines joined with " · ". */
export function readableText(value: ReadableValue): string {
  return typeof value === 'string' ? value : value.map((line) => `${line.label}: ${line.value}`).join(' · ');
}
