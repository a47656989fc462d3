// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminProfile, clearCookies, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { renderApp } from './render-app';

beforeAll(fillJsdomGaps);
afterEach(() => {
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

describe('admin layout', () => {
  it.each([
    ['en-GB', 'Skip to content'],
    ['pt-PT', 'Saltar para o conteúdo'],
  ] as const)(
    'in %s, the first Tab reaches a skip link to the main region, which takes focus',
    async (locale, name) => {
      fakeApi({ 'GET /v2/user/me': () => ({ status: 200, body: adminProfile }) });
      const user = userEvent.setup();
      renderApp('/', { token: 'tok', locale });
      const main = await screen.findByRole('main');
      document.body.focus();
      await user.tab();
      const link = document.activeElement as HTMLAnchorElement;
      expect(link.tagName).toBe('A');
      expect(link.textContent).toBe(name);
      expect(link.getAttribute('href')).toBe(`#${main.id}`);
      await user.keyboard('{Enter}');
      expect(document.activeElement).toBe(main);
    },
  );
});
