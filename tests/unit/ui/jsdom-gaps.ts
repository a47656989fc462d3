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
