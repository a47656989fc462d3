import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import { G_WINDOW_MS, isPaletteChord, isPlainKey, isTypingTarget } from '../../kernel/keys';
import { useRegisterCommands } from '../../kernel/palette-registry';
import { useCurrentScreenKeys } from '../../kernel/screen-keys';
import { helpCommand, PaletteCommandSources } from '../palette/commands';
import { LazyPalette, loadPalette, preloadPaletteWhenIdle } from '../palette/lazy-palette';
import { ROUTES } from '../routes';

const GO_ROUTES = ROUTES.filter((r) => r.goKey);

function HelpDialog({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const close = useRef<HTMLButtonElement>(null);
  const screenKeys = useCurrentScreenKeys();
  useEffect(() => close.current?.focus(), []);
  const rows: [string, string][] = [
    ...screenKeys.map(([keys, labelKey]): [string, string] => [keys, t(labelKey)]),
    ['Ctrl/⌘ K', t('shortcuts.openPalette')],
    ['?', t('shortcuts.help')],
    ['Esc', t('shortcuts.close')],
    ...GO_ROUTES.map((r): [string, string] => [
      `g ${r.goKey}`,
      t('shortcuts.goTo', { screen: t(r.titleKey) }),
    ]),
  ];
  return (
    <div className="modal-overlay">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="shortcut-help-title">
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
      if (isPaletteChord(event)) {
        event.preventDefault();
        setPaletteOpen((v) => !v);
        return;
      }
      if (paletteOpen || !isPlainKey(event) || isTypingTarget(event.target)) return;
      if (helpOpen) {
        if (event.key === 'Escape') setHelpOpen(false);
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
      if (event.key === '?') {
        event.preventDefault();
        setHelpOpen(true);
      } else if (event.key === 'g') {
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
