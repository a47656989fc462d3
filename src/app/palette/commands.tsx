import { useMemo } from 'react';
import { useLocation } from 'wouter';
import type { Locale } from '../../../machines/session';
import { useCaseJumpCommands } from '../../features/cases/palette-commands';
import { useFinanceCommands, useSepaFileCommands } from '../../features/finance/palette-commands';
import { useStatementSearchCommands } from '../../features/statements/palette-commands';
import { useUserSearchCommands } from '../../features/users/palette-commands';
import { everySynonym, type Translate, translateEvery, useI18n } from '../../i18n/i18n';
import { languageKey } from '../../i18n/locales';
import { type PaletteCommand, useRegisterCommands } from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';
import { useEnabledLocales } from '../ProfileMenu';
import { isStaticRoute, ROUTES } from '../routes';

export interface BaseCommandsInput {
  t: Translate;
  /** The language shown now; the others are offered. */
  locale: Locale;
  locales: readonly Locale[];
  authenticated: boolean;
  navigate(path: string): void;
  setLocale(locale: Locale): void;
}

/**
 * The commands every screen has: navigation, language and sign-out. Each is also found by its name in
 * the other language and by synonyms (`palette.synonyms.*`), so "sair" and "logout" both sign out.
 */
export function baseCommands({
  t,
  locale,
  locales,
  authenticated,
  navigate,
  setLocale,
}: BaseCommandsInput): PaletteCommand[] {
  const navigation = ROUTES.filter((r) => r.access === 'auth' && isStaticRoute(r)).map((r) => ({
    id: `go:${r.id}`,
    group: t('palette.groups.navigation'),
    label: t(r.titleKey),
    keywords: [r.path, ...translateEvery(r.titleKey), ...(r.synonymsKey ? everySynonym(r.synonymsKey) : [])],
    kind: 'screen' as const,
    ...(r.goKey ? { hint: `g ${r.goKey}` } : {}),
    run: () => navigate(r.path),
  }));
  const languages = locales
    .filter((l) => l !== locale)
    .map((l) => ({
      id: `locale:${l}`,
      group: t('palette.groups.language'),
      label: t('palette.switchLanguage', { language: t(languageKey(l)) }),
      keywords: [l, t(languageKey(l)), ...everySynonym('palette.synonyms.language')],
      run: () => setLocale(l),
    }));
  const session = authenticated
    ? [
        {
          id: 'logout',
          group: t('palette.groups.session'),
          label: t('nav.logout'),
          keywords: [...translateEvery('nav.logout'), ...everySynonym('palette.synonyms.logout')],
          run: () => navigate('/logout'),
        },
      ]
    : [];
  return [...navigation, ...languages, ...session];
}

/** The command that opens the keyboard help (`?`). */
export function helpCommand(t: Translate, open: () => void): PaletteCommand {
  return {
    id: 'help',
    group: t('palette.groups.help'),
    label: t('shortcuts.title'),
    keywords: [...translateEvery('shortcuts.title'), ...everySynonym('palette.synonyms.help')],
    hint: '?',
    run: open,
  };
}

function useBaseCommands(): void {
  const { t, locale, setLocale } = useI18n();
  const [, navigate] = useLocation();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const locales = useEnabledLocales();
  const commands = useMemo(
    () => baseCommands({ t, locale, locales, authenticated, navigate, setLocale }),
    [t, locale, setLocale, navigate, authenticated, locales],
  );
  useRegisterCommands('base', commands);
}

/**
 * The palette's always-present command sources: navigation, language, sign-out, case ids, user search,
 * the money records (SEPA files, transfers, doctors, statement files and lines) and the shown SEPA
 * file's commands (screens add their own while mounted). They live in the entry beside the registry, so the
 * commands are there — and the searches start — whether or not the palette's dialog code has loaded
 * (docs/decisions/0053). Render it before anything else that registers, as the order of registration
 * is the order of the palette's groups.
 */
export function PaletteCommandSources(): null {
  useBaseCommands();
  useCaseJumpCommands();
  useUserSearchCommands();
  useFinanceCommands();
  useSepaFileCommands();
  useStatementSearchCommands();
  return null;
}
