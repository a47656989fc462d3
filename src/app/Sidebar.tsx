import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { statusCountsQuery } from '../api/professionals';
import { useI18n } from '../i18n/i18n';
import { NAV_SECTIONS, type NavGroup, type NavSection, ROUTES, type RouteDef } from './routes';

const SECTION_KEYS: Record<NavSection, string> = {
  users: 'nav.sections.users',
  exports: 'nav.sections.exports',
  financialManager: 'nav.sections.financialManager',
  administration: 'nav.sections.administration',
};
const GROUP_KEYS: Record<NavGroup, string> = {
  professionals: 'nav.groups.professionals',
  payments: 'nav.groups.payments',
  usersExport: 'nav.groups.usersExport',
};

function NavItem({ route, badge }: { route: RouteDef; badge?: number | undefined }) {
  const { t } = useI18n();
  const [location] = useLocation();
  return (
    <li>
      <Link
        href={route.path}
        className="nav-link"
        aria-current={location === route.path ? 'page' : undefined}
      >
        <span>{t(route.titleKey)}</span>
        {badge !== undefined ? (
          <span className="badge" data-testid={`badge-${route.id}`}>
            {badge}
          </span>
        ) : null}
      </Link>
    </li>
  );
}

function Group({ group, children }: { group: NavGroup; children: ReactNode }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(true);
  return (
    <li className="nav-group">
      <button
        type="button"
        className="nav-group-toggle"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {t(GROUP_KEYS[group])}
      </button>
      {open ? <ul>{children}</ul> : null}
    </li>
  );
}

export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useI18n();
  const { data: counts } = useQuery(statusCountsQuery);

  const renderItem = (route: RouteDef) => (
    <NavItem
      key={route.id}
      route={route}
      badge={route.nav?.badge ? (counts?.[route.nav.badge] ?? 0) : undefined}
    />
  );

  return (
    <nav className="sidebar" aria-label={t('nav.label')} data-collapsed={collapsed} hidden={collapsed}>
      {NAV_SECTIONS.map((section) => {
        const routes = ROUTES.filter((r) => r.nav?.section === section);
        const seen = new Set<NavGroup>();
        return (
          <section key={section} className="nav-section">
            <h2 className="nav-section-title">{t(SECTION_KEYS[section])}</h2>
            <ul>
              {routes.map((route) => {
                const group = route.nav?.group;
                if (!group) return renderItem(route);
                if (seen.has(group)) return null;
                seen.add(group);
                return (
                  <Group key={group} group={group}>
                    {routes.filter((r) => r.nav?.group === group).map(renderItem)}
                  </Group>
                );
              })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
