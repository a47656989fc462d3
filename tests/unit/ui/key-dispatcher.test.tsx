// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type GlobalKeys,
  installKeyDispatcher,
  type KeyState,
  keyLayer,
  useScreenKeyHandler,
} from '../../../src/kernel/key-dispatcher';
import { isControlActivation } from '../../../src/kernel/keys';

afterEach(cleanup);

const key = (init: KeyboardEventInit, target: EventTarget = document.body) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
};

describe('keyLayer: modal > palette > chord in progress > screen (then global)', () => {
  const states = fc.record({
    modalOpen: fc.boolean(),
    paletteOpen: fc.boolean(),
    chordPending: fc.boolean(),
  });
  const letters = fc.constantFrom('g', 'u', 'a', 'j', 'c', '?', 'Enter', 'Escape', ' ');

  it('a modal takes every key, the palette every key but what a modal takes', () => {
    fc.assert(
      fc.property(states, letters, (state, letter) => {
        const layer = keyLayer(state, key({ key: letter }));
        if (state.modalOpen) expect(layer).toBe('modal');
        else if (state.paletteOpen) expect(layer).toBe('palette');
        else if (state.chordPending) expect(layer).toBe('chord');
        else expect(layer).toBe('screen');
      }),
    );
  });

  it('no screen key in a field; a chord in progress still takes its second key', () => {
    const input = document.createElement('input');
    const idle: KeyState = { modalOpen: false, paletteOpen: false, chordPending: false };
    expect(keyLayer(idle, key({ key: 'u' }, input))).toBeNull();
    expect(keyLayer({ ...idle, chordPending: true }, key({ key: 'u' }, input))).toBe('chord');
  });

  it('a focused file picker, checkbox or button is not a field: screen keys reach the screen; Space stays theirs', () => {
    const idle: KeyState = { modalOpen: false, paletteOpen: false, chordPending: false };
    for (const type of ['file', 'checkbox', 'radio', 'submit']) {
      const input = document.createElement('input');
      input.type = type;
      expect(keyLayer(idle, key({ key: 'j' }, input)), type).toBe('screen');
      expect(isControlActivation(key({ key: ' ' }, input)), type).toBe(true);
    }
    for (const type of ['text', 'search', 'email', 'number', 'date']) {
      const input = document.createElement('input');
      input.type = type;
      expect(keyLayer(idle, key({ key: 'j' }, input)), type).toBeNull();
    }
  });

  it('Shift alone does not end a chord (the `?` after `g`), Ctrl+K is the palette’s even in a field', () => {
    const idle: KeyState = { modalOpen: false, paletteOpen: false, chordPending: true };
    expect(keyLayer(idle, key({ key: 'Shift', shiftKey: true }))).toBeNull();
    const input = document.createElement('input');
    expect(keyLayer({ ...idle, chordPending: false }, key({ key: 'k', ctrlKey: true }, input))).toBe(
      'palette',
    );
    expect(keyLayer({ ...idle, modalOpen: true }, key({ key: 'k', ctrlKey: true }))).toBe('modal');
  });
});

/** What the screens and global keys of the test did, in order. */
const seen: string[] = [];

function Screen({ name, keys }: { name: string; keys: string }) {
  useScreenKeyHandler((event) => {
    if (!keys.includes(event.key)) return false;
    seen.push(`${name} ${event.key}`);
    return true;
  });
  return <input aria-label="field" />;
}

describe('the installed dispatcher', () => {
  let paletteOpen = false;
  let uninstall: () => void = () => {};
  const globalKeys: GlobalKeys = {
    paletteOpen: () => paletteOpen,
    togglePalette: () => seen.push('palette'),
    global: (event) => {
      if (event.key === 'g') return 'chord';
      if (event.key === '?') seen.push('help');
      return event.key === '?';
    },
    finishChord: (event) => seen.push(`go ${event.key}`),
  };

  beforeEach(() => {
    seen.length = 0;
    paletteOpen = false;
    uninstall = installKeyDispatcher(globalKeys);
  });
  afterEach(() => uninstall());

  it('`g` then `u`: navigation only — neither a registered screen key nor a window listener of its own sees `u`', async () => {
    const bypassing: string[] = [];
    // A screen that listens on window itself, as one did before the dispatcher (issue 29 point 1).
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.defaultPrevented) bypassing.push(event.key);
    };
    window.addEventListener('keydown', onKeyDown);
    try {
      render(<Screen name="table" keys="uj" />);
      const user = userEvent.setup();
      await user.keyboard('g');
      await user.keyboard('u');
      expect(seen).toEqual(['go u']);
      expect(bypassing).not.toContain('u');
      // The chord is over: `u` is the screen's again.
      await user.keyboard('u');
      expect(seen).toEqual(['go u', 'table u']);
    } finally {
      window.removeEventListener('keydown', onKeyDown);
    }
  });

  it('a chord consumes any second key, even one no route has', async () => {
    render(<Screen name="table" keys="jq" />);
    const user = userEvent.setup();
    await user.keyboard('gq');
    expect(seen).toEqual(['go q']);
    await user.keyboard('j');
    expect(seen).toEqual(['go q', 'table j']);
  });

  it('screen keys before global ones, the screen mounted last first', async () => {
    render(
      <>
        <Screen name="list" keys="j?" />
        <Screen name="panel" keys="j" />
      </>,
    );
    const user = userEvent.setup();
    await user.keyboard('j?');
    expect(seen).toEqual(['panel j', 'list ?']);
  });

  it('nothing in a field, nothing under a modal or the palette, nothing a control already handled', async () => {
    const { getByLabelText, unmount } = render(<Screen name="table" keys="ug?" />);
    const user = userEvent.setup();
    await user.click(getByLabelText('field'));
    await user.keyboard('gu?');
    expect(seen).toEqual([]);
    await act(async () => (getByLabelText('field') as HTMLInputElement).blur());

    const modal = document.createElement('div');
    modal.setAttribute('aria-modal', 'true');
    document.body.append(modal);
    await user.keyboard('gu?');
    expect(seen).toEqual([]);
    modal.remove();

    paletteOpen = true;
    await user.keyboard('gu?');
    expect(seen).toEqual([]);
    paletteOpen = false;

    const handled = key({ key: 'u' });
    handled.preventDefault();
    window.dispatchEvent(handled);
    expect(seen).toEqual([]);
    unmount();
  });

  it('an unmounted screen’s keys are gone; Ctrl+K toggles the palette', async () => {
    const { unmount } = render(<Screen name="table" keys="u" />);
    unmount();
    const user = userEvent.setup();
    await user.keyboard('u{Control>}k{/Control}');
    expect(seen).toEqual(['palette']);
  });
});
