// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '../../../machines/session';
import '../../../src/features/sources/sources-messages';
import { RefusalFacts } from '../../../src/features/sources/RefusalFacts';
import { I18nProvider } from '../../../src/i18n/i18n';

afterEach(cleanup);

const shown = (locale: Locale, facts: Record<string, unknown>) =>
  (
    render(
      <I18nProvider initial={locale}>
        <RefusalFacts refusal={{ code: 'STRIPE_REPORT_ROW_INVALID', line: 3, facts }} />
      </I18nProvider>,
    ).container.textContent ?? ''
  ).replace(/\s+/g, ' ');

/**
 * A Stripe report refused for a payout in another currency (server/sources/source-reading.ts: reason
 * `NOT_EUR`) says why in both languages, beside its line and column — not the column alone.
 */
describe('a source refusal’s facts', () => {
  it.each([
    ['pt-PT', 'Coluna currency: não está em euros'],
    ['en-GB', 'Column currency: not in euros'],
  ] as const)('%s: a payout in another currency says so', (locale, words) => {
    const text = shown(locale, { column: 'currency', reason: 'NOT_EUR', currency: 'USD' });
    expect(text).toContain(words);
    expect(text).not.toContain('NOT_EUR');
  });
});
