import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useI18n } from '../i18n/i18n';
import { focusScreenIfLost } from '../kernel/focus';
import { ProfileMenu } from './ProfileMenu';
import { Sidebar } from './Sidebar';

const COLLAPSED_KEY = 'sidebar-collapsed';
const MAIN_ID = 'main';

export function AdminLayout({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useI18n();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  // A screen opened (a link, a key, the first load) starts with focus on it, never on no element.
  useEffect(focusScreenIfLost, []);
  const toggle = () => {
    setCollapsed((v) => {
      localStorage.setItem(COLLAPSED_KEY, v ? '0' : '1');
      return !v;
    });
  };
  return (
    <div className="admin-layout">
      {/* The first Tab stop (WCAG 2.4.1): hidden until focused, it moves focus into the main region. */}
      <a
        href={`#${MAIN_ID}`}
        className="skip-link"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
      >
        {t('nav.skipToContent')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="topbar-button sidebar-toggle"
          aria-expanded={!collapsed}
          aria-label={t('nav.toggleSidebar')}
          onClick={toggle}
        >
          ☰
        </button>
        <Link href="/" className="logo">
          {t('app.logo')}
        </Link>
        <span className="topbar-hint">{t('shortcuts.paletteHint')}</span>
        <ProfileMenu />
      </header>
      <div className="admin-body">
        <Sidebar collapsed={collapsed} />
        <main className="admin-main" id={MAIN_ID} tabIndex={-1}>
          <h1 className="page-title">{t(titleKey)}</h1>
          {children}
        </main>
      </div>
    </div>
  );
}

export function PlainLayout({ children }: { children: ReactNode }) {
  return <main className="plain-layout">{children}</main>;
}
