import { useMemo } from 'react';
import { Link } from 'wouter';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../../contract/statuses';
import { AUDIT_TABLE_KEY, type AuditLogItem, fetchAuditLog } from '../../api/audit';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { type Translate, useI18n } from '../../i18n/i18n';
import { auditActionLabel } from '../../kernel/audit';
import { AuditChanges } from '../../kernel/audit-changes';
import { formatDateTime } from '../../kernel/dates';
import './audit-messages';

const getRowId = (item: AuditLogItem) => item.id;
// The API has no free-text search: only the filters and the page go out.
const fetchPage = ({ filters, cursor, limit }: PageRequest) => fetchAuditLog({ ...filters, cursor, limit });

/** Where an audited entity is shown; a user id under either role's route reaches the right one. */
export function entityHref(item: Pick<AuditLogItem, 'entityType' | 'entityId'>): string | null {
  switch (item.entityType) {
    case 'user':
      return `/customers/${item.entityId}`;
    case 'case':
      return `/chat/${item.entityId}`;
    case 'interest_area':
      return '/professionals/area-interest';
    case 'settlement':
      return '/settlement';
    case 'professional':
      return `/professionals/${item.entityId}`;
    case 'sepa_file':
      return '/sepa';
    case 'statement_file':
      return `/statements?statementFileId=${item.entityId}`;
    default:
      return null;
  }
}
const rowHref = (item: AuditLogItem) => entityHref(item) ?? '/audit';

const entityTypeLabel = (t: Translate, type: string) => {
  const key = `auditEntities.${type}`;
  const label = t(key);
  return label && label !== key ? label : type;
};

/** `/audit`: every admin action, newest first, filtered in the URL. */
export default function AuditScreen() {
  const { t, locale } = useI18n();

  const columns = useMemo<DataColumn<AuditLogItem>[]>(() => {
    return [
      {
        id: 'at',
        header: t('audit.columns.at'),
        width: '12rem',
        hideable: false,
        cell: (item) => <time dateTime={item.at}>{formatDateTime(item.at, locale)}</time>,
      },
      {
        id: 'actor',
        header: t('audit.columns.actor'),
        width: 'minmax(8rem, 1fr)',
        cell: (item) =>
          item.actor ? (
            <Link href={`/audit?actorId=${item.actor.id}`}>{item.actor.name}</Link>
          ) : (
            t('audit.system')
          ),
      },
      {
        id: 'action',
        header: t('audit.columns.action'),
        width: 'minmax(10rem, 1fr)',
        hideable: false,
        cell: (item) => auditActionLabel(t, item.action),
      },
      {
        id: 'entity',
        header: t('audit.columns.entity'),
        width: 'minmax(12rem, 1.2fr)',
        cell: (item) => {
          const text = `${entityTypeLabel(t, item.entityType)} · ${item.entityLabel ?? item.entityId.slice(0, 8)}`;
          const href = entityHref(item);
          return href ? <Link href={href}>{text}</Link> : text;
        },
      },
      {
        id: 'change',
        header: t('audit.columns.change'),
        width: 'minmax(14rem, 2fr)',
        cell: (item) => (
          <AuditChanges before={item.before} after={item.after} entityType={item.entityType} inline />
        ),
      },
    ];
  }, [t, locale]);

  const filters = useMemo<DataFilter[]>(
    () => [
      {
        key: 'action',
        label: t('audit.columns.action'),
        kind: 'multi',
        options: AUDIT_ACTIONS.map((code) => ({ value: code, label: auditActionLabel(t, code) })),
      },
      {
        key: 'entityType',
        label: t('audit.filters.entityType'),
        kind: 'select',
        options: AUDIT_ENTITY_TYPES.map((type) => ({ value: type, label: entityTypeLabel(t, type) })),
      },
      { key: 'entityId', label: t('audit.filters.entityId'), kind: 'text' },
      { key: 'actorId', label: t('audit.filters.actorId'), kind: 'text' },
      { key: 'period', label: t('audit.filters.period'), kind: 'dateRange', from: 'from', to: 'to' },
    ],
    [t],
  );

  return (
    <DataTable
      id="audit"
      label={t('routes.audit')}
      columns={columns}
      queryKey={AUDIT_TABLE_KEY}
      fetchPage={fetchPage}
      getRowId={getRowId}
      rowHref={rowHref}
      filters={filters}
      searchable={false}
      rowHeight={40}
    />
  );
}
