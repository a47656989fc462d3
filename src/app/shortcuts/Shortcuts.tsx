import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { trapTab, useModalFocus } from '../../components/Dialog/modal-focus';
import { useI18n } from '../../i18n/i18n';
import { G_WINDOW_MS, isPaletteChord, isPlainKey, isTypingTarget } from '../../kernel/keys';
import { useRegisterCommands } from '../../kernel/palette-registry';
import { useCurrentScreenKeys } from '../../kernel/screen-keys';
import { helpCommand, PaletteCommandSources } from '../palette/commands';
import { LazyPalette, loadPalette, preloadPaletteWhenIdle } from '../palette/lazy-palette';
import { ROUTES } from '../routes';

const GO_ROUTES = ROUTES.filter((r) => r.goKey);

type GlobalKey = 'palette' | 'help' | 'close' | 'go';

/**
 * The keys of every screen: the handler below finds the pressed key in this table and the help lists
 * it, so neither can name a key the other does not know. The letters after `g` are listed per screen
 * from ROUTES, the same table the handler reads.
 */
const GLOBAL_KEYS: readonly {
  shown: string;
  labelKey: string;
  action: GlobalKey;
  matches(event: KeyboardEvent): boolean;
}[] = [
  { shown: 'Ctrl/⌘ K', labelKey: 'shortcuts.openPalette', action: 'palette', matches: isPaletteChord },
  { shown: '?', labelKey: 'shortcuts.help', action: 'help', matches: (event) => event.key === '?' },
  { shown: 'Esc', labelKey: 'shortcuts.close', action: 'close', matches: (event) => event.key === 'Escape' },
  { shown: 'g …', labelKey: 'shortcuts.goHint', action: 'go', matches: (event) => event.key === 'g' },
];

function HelpDialog({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const close = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const screenKeys = useCurrentScreenKeys();
  useModalFocus(dialog, close);
  const rows: [string, string][] = [
    ...screenKeys.map(([keys, labelKey]): [string, string] => [keys, t(labelKey)]),
    ...GLOBAL_KEYS.map((row): [string, string] => [row.shown, t(row.labelKey)]),
    ...GO_ROUTES.map((r): [string, string] => [
      `g ${r.goKey}`,
      t('shortcuts.goTo', { screen: t(r.titleKey) }),
    ]),
  ];
  return (
    <div className="modal-overlay">
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-help-title"
        onKeyDown={trapTab}
      >
        <h2 id="shortcut-help-title">{t('shortcuts.title')}</h2>
        <table className="shortcut-table">
          <tbody>
            {rows.map(([keys, action]) => (
              <tr key={`${keys} ${action}`}>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" ref={close} onClick={onClose}>
          {t('shortcuts.close')}
        </button>
      </div>
    </div>
  );
}

/** Global keyboard layer of DESIGN §8: palette, help and `g` + letter navigation. */
export function Shortcuts() {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [goPending, setGoPending] = useState(false);
  const goTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const helpCommands = useMemo(() => [helpCommand(t, () => setHelpOpen(true))], [t]);
  useRegisterCommands('shortcuts', helpCommands);

  const endGo = useCallback(() => {
    clearTimeout(goTimer.current);
    setGoPending(false);
  }, []);

  // The palette's dialog is its own chunk (docs/decisions/0053): fetched when the page is idle, or
  // as soon as Ctrl or ⌘ goes down if that comes first; Ctrl/⌘+K opens it whether it is here or not.
  useEffect(preloadPaletteWhenIdle, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Control' || event.key === 'Meta') void loadPalette().catch(() => undefined);
      const pressed = GLOBAL_KEYS.find((row) => row.matches(event))?.action;
      if (pressed === 'palette') {
        event.preventDefault();
        setPaletteOpen((v) => !v);
        return;
      }
      if (paletteOpen || !isPlainKey(event) || isTypingTarget(event.target)) return;
      if (helpOpen) {
        if (pressed === 'close') setHelpOpen(false);
        return;
      }
      if (goPending) {
        endGo();
        const route = GO_ROUTES.find((r) => r.goKey === event.key.toLowerCase());
        if (route) {
          event.preventDefault();
          navigate(route.path);
        }
        return;
      }
      if (pressed === 'help') {
        event.preventDefault();
        setHelpOpen(true);
      } else if (pressed === 'go') {
        setGoPending(true);
        goTimer.current = setTimeout(() => setGoPending(false), G_WINDOW_MS);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [paletteOpen, helpOpen, goPending, endGo, navigate]);

  useEffect(() => () => clearTimeout(goTimer.current), []);

  return (
    <>
      <PaletteCommandSources />
      <LazyPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
      {helpOpen ? <HelpDialog onClose={() => setHelpOpen(false)} /> : null}
      {goPending ? (
        <div className="go-hint" role="status">
          <kbd>g</kbd> … {t('shortcuts.goHint')}
        </div>
      ) : null}
    </>
  );
}
