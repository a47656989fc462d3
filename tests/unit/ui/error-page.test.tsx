// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/http';
import { ErrorBoundary } from '../../../src/app/ErrorBoundary';
import { I18nProvider } from '../../../src/i18n/i18n';

afterEach(cleanup);

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

function renderThrowing(error: unknown) {
  // React reports caught render errors on the console; that is expected here.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <I18nProvider initial="en-GB">
      <ErrorBoundary resetKey="/x">
        <Thrower error={error} />
      </ErrorBoundary>
    </I18nProvider>,
  );
}

describe('error page', () => {
  it("defaults to 'Error' and status 500", () => {
    renderThrowing(new Error('render failed'));
    expect(screen.queryAllByRole('heading', { name: 'Error' })).toHaveLength(1);
    expect(screen.queryAllByText('500')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });

  it('shows the status of a failed API call', () => {
    renderThrowing(new ApiError(403, 'FORBIDDEN'));
    expect(screen.queryAllByText('403')).toHaveLength(1);
  });
});
