import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { USER_SEARCH_MAX } from '../../../contract/limits';
import { interestAreasQuery } from '../../api/interest-areas';
import { fetchCountries } from '../../api/static-data';
import { fetchUsers, USER_STATUSES, type UserSummary, userKeys } from '../../api/users';
import {
  type DataColumn,
  type DataFilter,
  DataTable,
  type PageRequest,
} from '../../components/DataTable/DataTable';
import { Pill } from '../../components/Pill/Pill';
import { genderedKey } from '../../i18n/gender';
import { useI18n } from '../../i18n/i18n';
import { formatDate, GENDER_KEYS, statusKey, statusTone, userHref } from './format';
import { useBulkUserActions } from './user-actions';
import {
  USERS_DATE_RANGES,
  type UsersFilter,
  type UsersListRole,
  type UsersListStatus,
  usersFilters,
  usersFixedFilters,
  usersPageParams,
} from './users-list';

const fetchPage = (request: PageRequest) => fetchUsers(usersPageParams(request));

const getRowId = (user: UserSummary) => user.id;

export interface UsersTableProps {
  /** Names the table (its column choice is remembered under it). */
  id: string;
  userRole: UsersListRole;
  /** A preset screen's status (disabled doctors, doctors to verify): fixed, so no status filter is offered. */
  status?: UsersListStatus;
}

/** Customers and professionals lists, and the preset professional screens, over GET /v2/admin/users. */
export function UsersTable({ id, userRole: role, status }: UsersTableProps) {
  const { t, locale } = useI18n();
  const professionals = role === 'PROFESSIONAL';
  const countries = useQuery({
    queryKey: ['static-data', 'country'],
    queryFn: fetchCountries,
    staleTime: Infinity,
  });
  const areas = useQuery({ ...interestAreasQuery, enabled: professionals });

  const fixedFilters = useMemo(() => usersFixedFilters(role, status), [role, status]);
  const bulk = useBulkUserActions();

  const filters = useMemo<DataFilter[]>(() => {
    const byKey: Record<UsersFilter, DataFilter> = {
      status: {
        key: 'status',
        label: t('users.fields.status'),
        kind: 'multi',
        options: USER_STATUSES.map((s) => ({
          value: s,
          label: t(statusKey(s, role)),
        })),
      },
      country: {
        key: 'country',
        label: t('users.fields.country'),
        kind: 'select',
        options: (countries.data ?? []).map((c) => ({ value: c.code, label: c.name[locale] })),
      },
      gender: {
        key: 'gender',
        label: t('users.fields.gender'),
        kind: 'select',
        options: (['male', 'female'] as const).map((g) => ({ value: g, label: t(GENDER_KEYS[g]) })),
      },
      areaOfInterest: {
        key: 'areaOfInterest',
        label: t('users.fields.areasOfInterest'),
        kind: 'select',
        options: (areas.data?.items ?? []).map((a) => ({ value: a.id, label: a.name })),
      },
      created: {
        key: 'created',
        label: t('users.filters.created'),
        kind: 'dateRange',
        ...USERS_DATE_RANGES.created,
      },
      lastActive: {
        key: 'lastActive',
        label: t('users.filters.lastActive'),
        kind: 'dateRange',
        ...USERS_DATE_RANGES.lastActive,
      },
    };
    // The same keys as the first page fetched ahead during the session check (users-list.ts).
    return usersFilters(role, status).map((filter) => byKey[filter]);
  }, [t, locale, role, status, countries.data, areas.data]);

  const columns = useMemo<DataColumn<UserSummary>[]>(() => {
    const list: DataColumn<UserSummary>[] = [
      {
        id: 'name',
        header: t('users.fields.name'),
        sort: 'name',
        width: 'minmax(10rem, 1.2fr)',
        hideable: false,
        cell: (u) => u.name,
      },
      {
        id: 'email',
        header: t('users.fields.email'),
        sort: 'email',
        width: 'minmax(12rem, 1.4fr)',
        cell: (u) => u.email,
      },
      {
        id: 'status',
        header: t('users.fields.status'),
        width: '13.5rem',
        cell: (u) => (
          <Pill tone={statusTone(u.status, u.role)}>
            {t(genderedKey(statusKey(u.status, u.role), u.gender))}
          </Pill>
        ),
      },
      { id: 'country', header: t('users.fields.country'), width: '6rem', cell: (u) => u.country ?? '—' },
      {
        id: 'gender',
        header: t('users.fields.gender'),
        width: '7rem',
        cell: (u) => (u.gender ? t(GENDER_KEYS[u.gender]) : '—'),
      },
      {
        id: 'phone',
        header: t('users.fields.phoneNumber'),
        width: '10rem',
        cell: (u) => u.phoneNumber ?? '—',
      },
    ];
    if (professionals)
      list.push(
        {
          id: 'collegeNumber',
          header: t('users.fields.collegeNumber'),
          width: '8rem',
          cell: (u) => u.collegeNumber ?? '—',
        },
        {
          id: 'areas',
          header: t('users.fields.areasOfInterest'),
          width: 'minmax(10rem, 1fr)',
          cell: (u) => u.areasOfInterest.map((a) => a.name).join(', ') || '—',
        },
      );
    list.push(
      {
        id: 'created',
        header: t('users.fields.created'),
        sort: 'created',
        firstOrder: 'desc',
        width: '8rem',
        cell: (u) => formatDate(u.created, locale),
      },
      {
        id: 'lastActive',
        header: t('users.fields.lastActive'),
        sort: 'lastActive',
        firstOrder: 'desc',
        width: '8rem',
        cell: (u) => formatDate(u.lastActive, locale),
      },
    );
    return list;
  }, [t, locale, professionals]);

  return (
    <>
      {bulk.view}
      <DataTable
        id={id}
        label={t(professionals ? 'users.professionalsTable' : 'users.customersTable')}
        columns={columns}
        queryKey={userKeys.lists()}
        fetchPage={fetchPage}
        getRowId={getRowId}
        rowHref={userHref}
        filters={filters}
        fixedFilters={fixedFilters}
        defaultSort={{ sort: 'created', order: 'desc' }}
        searchMaxLength={USER_SEARCH_MAX}
        bulkActions={bulk.buttons}
      />
    </>
  );
}
