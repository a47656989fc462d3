// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '../../../machines/session';
import '../../../src/features/audit/audit-messages';
import { I18nProvider } from '../../../src/i18n/i18n';
import { AuditChanges } from '../../../src/kernel/audit-changes';

afterEach(cleanup);

/** The rendered text, spaces normalised (Intl writes no-break spaces in money and dates). */
function shown(locale: Locale, before: unknown, after: unknown, entityType: string, inline = false): string {
  const { container } = render(
    <I18nProvider initial={locale}>
      <AuditChanges before={before} after={after} entityType={entityType} inline={inline} />
    </I18nProvider>,
  );
  return (container.textContent ?? '').replace(/\s+/g, ' ');
}

describe('AuditChanges: an audit row as people read it', () => {
  it.each([
    ['pt-PT', 'Estado', 'Transferência pendente', 'Liquidada', 'Valor ajustado', '10,00 €'],
    ['en-GB', 'Status', 'Pending transfer', 'Settled', 'Adjusted amount', '€10.00'],
  ] as const)('%s: statuses translated, money in the locale, field names in words', (locale, ...words) => {
    const [status, pending, settled, adjusted, money] = words;
    const text = shown(
      locale,
      { status: 'PENDING_TRANSFER', adjustedCents: null },
      { status: 'SETTLED', adjustedCents: 1000 },
      'settlement',
    );
    expect(text).toContain(status);
    expect(text).toContain(pending);
    expect(text).toContain(settled);
    expect(text).toContain(adjusted);
    expect(text).toContain(`— → ${money}`);
    expect(text).not.toMatch(/PENDING_TRANSFER|SETTLED|adjustedCents|1000/);
  });

  it.each([
    ['pt-PT', 'Desativado não → sim', 'Estado E-mail confirmado → Desativado'],
    ['en-GB', 'Disabled no → yes', 'Status E-mail verified → Disabled'],
  ] as const)('%s: booleans as words, a user status by the user screens', (locale, disabled, status) => {
    const text = shown(
      locale,
      { disabled: false, status: 'EMAIL_VERIFIED' },
      { disabled: true, status: 'DISABLED' },
      'user',
      true,
    );
    expect(text).toContain(disabled);
    expect(text).toContain(status);
  });

  it.each([
    ['pt-PT', '30/11/2026', 'novembro de 2026', 'Sem sugestão: 2', 'Valor diferente: 1'],
    ['en-GB', '30/11/2026', 'November 2026', 'Not suggested: 2', 'Amount differs: 1'],
  ] as const)('%s: dates in the locale, nested values as lines of label: value', (locale, ...words) => {
    const [day, month, notSuggested, amountDiffers] = words;
    const { container } = render(
      <I18nProvider initial={locale}>
        <AuditChanges
          before={null}
          after={{
            executionDate: '2026-11-30',
            referenceMonth: '2026-11',
            skippedBecause: { notSuggested: 2, counterpartTaken: 0, amountDiffers: 1 },
          }}
          entityType="statement_line"
        />
      </I18nProvider>,
    );
    const text = (container.textContent ?? '').replace(/\s+/g, ' ');
    expect(text).toContain(day);
    expect(text).toContain(month);
    expect(text).not.toMatch(/2026-11|[{}"]/);
    const lines = [...container.querySelectorAll('.audit-lines li')].map((li) => {
      const label = li.querySelector('.audit-field')?.textContent ?? '';
      return `${label}: ${(li.textContent ?? '').slice(label.length).trim()}`;
    });
    expect(lines).toContain(notSuggested);
    expect(lines).toContain(amountDiffers);
  });

  it('shows nothing changed as a dash, and a field only on one side without an arrow', () => {
    expect(shown('en-GB', { status: 'PAID' }, { status: 'PAID' }, 'sepa_file')).toBe('—');
    expect(shown('en-GB', null, { name: 'Cardiologia' }, 'interest_area')).toBe('NameCardiologia');
  });

  it.each([
    ['pt-PT', 'transferência SEPA', 'pagamento', '45,30 €'],
    ['en-GB', 'SEPA transfer', 'payment', '€45.30'],
  ] as const)(
    '%s: a statement line history entry: its links as one readable line each, no codes',
    (locale, ...words) => {
      const link = {
        kind: 'SEPA_TRANSFER',
        id: 'e2e-1',
        role: 'PAYMENT',
        state: 'MATCHED',
        allocatedCents: 4530,
        score: null,
      };
      const { container } = render(
        <I18nProvider initial={locale}>
          <AuditChanges
            before={{ status: 'SUGGESTED', matchMethod: null, links: [{ ...link, state: 'SUGGESTED' }] }}
            after={{ status: 'MATCHED', matchMethod: 'MANUAL', links: [link] }}
            entityType="statement_line"
          />
        </I18nProvider>,
      );
      const text = (container.textContent ?? '').replace(/\s+/g, ' ');
      for (const word of words) expect(text).toContain(word);
      expect(text).not.toMatch(/SEPA_TRANSFER|PAYMENT|MATCHED|SUGGESTED|MANUAL|allocatedCents|4530/);
      // Each link is its own line, so a long history wraps inside the dialog instead of running past it.
      expect(container.querySelectorAll('.audit-lines li').length).toBe(2);
    },
  );
});
