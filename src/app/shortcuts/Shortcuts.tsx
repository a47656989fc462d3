import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { trapTab, useModalFocus } from '../../components/Dialog/modal-focus';
import { useI18n } from '../../i18n/i18n';
import { installKeyDispatcher, useChordPending } from '../../kernel/key-dispatcher';
import { isPaletteChord } from '../../kernel/keys';
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
        onKeyDown={(event) => {
          // A modal reads its own keys (decision 0127): Esc closes the help.
          if (event.key === 'Escape') {
            event.preventDefault();
            onClose();
          } else trapTab(event);
        }}
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

/**
 * The keys every screen shares (DESIGN §8): palette, help and `g` + letter navigation, given to the one
 * keyboard dispatcher (decision 0127), which asks the screen's keys first and lets a chord take its
 * second key before anything else.
 */
export function Shortcuts() {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const goPending = useChordPending();
  // Read by the dispatcher, installed once: a reinstall would drop a chord in progress.
  const paletteOpenNow = useRef(paletteOpen);
  paletteOpenNow.current = paletteOpen;
  const navigateNow = useRef(navigate);
  navigateNow.current = navigate;

  const helpCommands = useMemo(() => [helpCommand(t, () => setHelpOpen(true))], [t]);
  useRegisterCommands('shortcuts', helpCommands);

  // The palette's dialog is its own chunk (docs/decisions/0053): fetched when the page is idle, or
  // as soon as Ctrl or ⌘ goes down if that comes first; Ctrl/⌘+K opens it whether it is here or not.
  useEffect(preloadPaletteWhenIdle, []);
  useEffect(() => {
    const onModifier = (event: KeyboardEvent) => {
      if (event.key === 'Control' || event.key === 'Meta') void loadPalette().catch(() => undefined);
    };
    window.addEventListener('keydown', onModifier);
    return () => window.removeEventListener('keydown', onModifier);
  }, []);

  useEffect(
    () =>
      installKeyDispatcher({
        paletteOpen: () => paletteOpenNow.current,
        togglePalette: () => setPaletteOpen((open) => !open),
        global: (event) => {
          const pressed = GLOBAL_KEYS.find((row) => row.matches(event))?.action;
          if (pressed === 'help') setHelpOpen(true);
          if (pressed === 'go') return 'chord';
          return pressed === 'help';
        },
        finishChord: (event) => {
          const route = GO_ROUTES.find((r) => r.goKey === event.key.toLowerCase());
          if (route) navigateNow.current(route.path);
        },
      }),
    [],
  );

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
