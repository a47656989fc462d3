import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { localesQuery } from '../api/static-data';
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
  const name = SessionContext.useSelector((s) => s.context.user?.user.name ?? s.context.user?.user.email);
  const others = useEnabledLocales().filter((l) => l !== locale);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="profile-menu" ref={root}>
      <button
        type="button"
        className="topbar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        {name ?? t('nav.profileMenu')}
      </button>
      {open ? (
        <div className="dropdown" id={menuId} role="menu" aria-label={t('nav.profileMenu')}>
          {others.map((other) => (
            <button
              key={other}
              type="button"
              role="menuitem"
              lang={other}
              onClick={() => {
                setLocale(other);
                setOpen(false);
              }}
            >
              {t(languageKey(other))}
            </button>
          ))}
          <Link href="/logout" role="menuitem" onClick={() => setOpen(false)}>
            {t('nav.logout')}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
