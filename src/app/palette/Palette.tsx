import { Command } from 'cmdk';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { useCaseJumpCommands } from '../../features/cases/palette-commands';
import { useUserSearchCommands } from '../../features/users/palette-commands';
import { useI18n } from '../../i18n/i18n';
import { languageKey } from '../../i18n/locales';
import { useEnabledLocales } from '../ProfileMenu';
import { isStaticRoute, ROUTES } from '../routes';
import { SessionContext } from '../session';
import { type PaletteCommand, usePaletteCommands, usePaletteSearch, useRegisterCommands } from './registry';

/** The commands every screen has: navigation, language and sign-out. */
function useBaseCommands(): void {
  const { t, locale, setLocale } = useI18n();
  const [, navigate] = useLocation();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const locales = useEnabledLocales();

  const commands = useMemo<PaletteCommand[]>(() => {
    const navigation = ROUTES.filter((r) => r.access === 'auth' && isStaticRoute(r)).map((r) => ({
      id: `go:${r.id}`,
      group: t('palette.groups.navigation'),
      label: t(r.titleKey),
      keywords: [r.path],
      ...(r.goKey ? { hint: `g ${r.goKey}` } : {}),
      run: () => navigate(r.path),
    }));
    const languages = locales
      .filter((l) => l !== locale)
      .map((l) => ({
        id: `locale:${l}`,
        group: t('palette.groups.language'),
        label: t('palette.switchLanguage', { language: t(languageKey(l)) }),
        keywords: [l],
        run: () => setLocale(l),
      }));
    const session = authenticated
      ? [
          {
            id: 'logout',
            group: t('palette.groups.session'),
            label: t('nav.logout'),
            run: () => navigate('/logout'),
          },
        ]
      : [];
    return [...navigation, ...languages, ...session];
  }, [t, locale, setLocale, navigate, authenticated, locales]);

  useRegisterCommands('base', commands);
}

export function Palette({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useI18n();
  useBaseCommands();
  useCaseJumpCommands();
  useUserSearchCommands();
  const commands = usePaletteCommands();
  const [search, setSearch] = usePaletteSearch();
  const groups = useMemo(() => {
    const byGroup = new Map<string, PaletteCommand[]>();
    for (const c of commands) byGroup.set(c.group, [...(byGroup.get(c.group) ?? []), c]);
    return [...byGroup];
  }, [commands]);

  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setSearch('');
        onOpenChange(next);
      }}
      label={t('palette.label')}
      overlayClassName="palette-overlay"
      contentClassName="palette"
    >
      <Command.Input
        value={search}
        onValueChange={setSearch}
        placeholder={t('palette.placeholder')}
        aria-label={t('palette.placeholder')}
      />
      <Command.List>
        <Command.Empty>{t('palette.empty')}</Command.Empty>
        {groups.map(([group, items]) => (
          <Command.Group key={group} heading={group}>
            {items.map((c) => (
              <Command.Item
                key={c.id}
                value={`${c.label} ${c.id}`}
                keywords={c.keywords ?? []}
                onSelect={() => {
                  setSearch('');
                  onOpenChange(false);
                  c.run();
                }}
              >
                <span>{c.label}</span>
                {c.hint ? <kbd>{c.hint}</kbd> : null}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command.Dialog>
  );
}
