import { afterAll, beforeAll } from 'vitest';

/**
 * What the console's libraries call that jsdom does not implement: cmdk measures and scrolls the
 * selected item, react-hot-toast reads the reduced-motion preference, the virtualiser observes sizes.
 */
export function fillJsdomGaps(): void {
  Element.prototype.scrollIntoView = () => {};
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  })) as unknown as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

/**
 * jsdom lays nothing out: every element gets this height and width, so a table's virtualiser has a
 * window to render rows into. Call in a suite's top level; it undoes itself after the suite.
 */
export function layOutTables(height = 640, width = 1000): void {
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
  });
  afterAll(() => {
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  });
}
