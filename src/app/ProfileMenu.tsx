import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { localesQuery } from '../api/static-data';
import { Menu, type MenuItem } from '../components/Menu/Menu';
import { useI18n } from '../i18n/i18n';
import { LOCALES, languageKey } from '../i18n/locales';
import { SessionContext } from '../kernel/session';

/** Enabled languages from the server; the built-in list until it answers. */
export function useEnabledLocales() {
  const { data } = useQuery({ ...localesQuery, placeholderData: keepPreviousData });
  // Stable identity: palette commands are rebuilt (and re-registered) whenever this changes.
  return useMemo(
    () => (data ? data.filter((l) => l.enabled && LOCALES.includes(l.id)).map((l) => l.id) : LOCALES),
    [data],
  );
}

export function ProfileMenu() {
  const { t, locale, setLocale } = useI18n();
  const [, navigate] = useLocation();
  const name = SessionContext.useSelector((s) => s.context.user?.user.name ?? s.context.user?.user.email);
  const others = useEnabledLocales().filter((l) => l !== locale);
  const items: MenuItem[] = [
    ...others.map((other) => ({
      id: other,
      label: t(languageKey(other)),
      lang: other,
      onSelect: () => setLocale(other),
    })),
    { id: 'logout', label: t('nav.logout'), onSelect: () => navigate('/logout') },
  ];
  return (
    <Menu
      className="profile-menu"
      button={name ?? t('nav.profileMenu')}
      label={t('nav.profileMenu')}
      items={items}
    />
  );
}
