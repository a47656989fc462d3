// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '../../../machines/session';
import { FilePicker } from '../../../src/components/FilePicker/FilePicker';
import { I18nProvider } from '../../../src/i18n/i18n';
import { enGB, ptPT } from '../../support/messages';

afterEach(cleanup);

const mount = (locale: Locale, onFile: (name: string | undefined) => void = () => {}) =>
  render(
    <I18nProvider initial={locale}>
      <FilePicker label="Extrato" accept=".xml" onChange={(event) => onFile(event.target.files?.[0]?.name)} />
    </I18nProvider>,
  );

describe('FilePicker: the file input in the console language', () => {
  it.each([
    ['pt-PT', ptPT],
    ['en-GB', enGB],
  ] as const)(
    '%s: the button and "no file" are the console language, the input is named by its label',
    async (locale, text) => {
      mount(locale);
      expect(screen.queryAllByText(text.files.choose)).toHaveLength(1);
      expect(screen.getByTestId('file-picker-name').textContent).toBe(text.files.none);
      const input = screen.getByLabelText('Extrato') as HTMLInputElement;
      expect(input.type).toBe('file');
      expect(input.accept).toBe('.xml');
    },
  );

  it('shows the chosen file and still hands the change to the form', async () => {
    const chosen: (string | undefined)[] = [];
    mount('pt-PT', (name) => chosen.push(name));
    const file = new File(['<Document/>'], 'pain002.xml', { type: 'application/xml' });
    await userEvent.upload(screen.getByLabelText('Extrato'), file);
    expect(screen.getByTestId('file-picker-name').textContent).toBe('pain002.xml');
    expect(chosen).toEqual(['pain002.xml']);
  });
});
