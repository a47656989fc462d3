// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import enGB from '../../../locales/en-GB.json';
import ptPT from '../../../locales/pt-PT.json';
import type { UserDetail } from '../../../src/api/users';
import { rita } from '../../fixtures/users';
import { adminProfile, clearCookies, type FakeCall, fakeApi } from './fake-api';
import { fillJsdomGaps } from './jsdom-gaps';
import { currentPath, renderApp } from './render-app';

beforeAll(fillJsdomGaps);
afterEach(() => {
  // The toasts live in a store of their own, outside the rendered tree: one left over would be found
  // by the next test in place of the toast it waits for.
  toast.remove();
  cleanup();
  clearCookies();
  vi.unstubAllGlobals();
});

const ID = rita.id;

const doctor: UserDetail = {
  ...rita,
  phoneNumber: '912345678',
  phoneNumberCountryCode: '+351',
  shareLinkId: 'rita-sousa',
  lastActive: '2026-03-01T10:00:00.000Z',
  areasOfInterest: [{ id: 'a1', name: 'Cardiologia' }],
  birthDate: '1980-05-06',
  idCardNumber: '11223344',
  casePriceCents: 1500,
  caseCurrency: 'EUR',
  subscriptionPriceCents: 4900,
  subscriptionCurrency: 'EUR',
  currentWorkplaces: ['Hospital de Santa Maria'],
  specialities: ['Cardiologia'],
  referralName: 'Ana',
  professionalBackground: 'Twenty years of cardiology',
  associationLink: 'https://example.org/rita',
  avatar: null,
  collegeCardFrontFile: {
    id: 'f0000000-0000-4000-8000-000000000001',
    name: 'front.png',
    contentType: 'image/png',
    sizeBytes: 100,
    downloadUrl: '/v2/admin/attachments/f0000000-0000-4000-8000-000000000001/download',
  },
  collegeCardBackFile: null,
  bank: {
    iban: 'PT50000201231234567890154',
    ibanValid: false,
    ibanError: 'INVALID_CHECKSUM',
    bicSwift: null,
  },
  missingFields: ['taxNumber', 'iban'],
  shareLink: { id: 'rita-sousa', visits: 12, signups: 3, cases: 1 },
  adminActions: [
    {
      id: 1,
      action: 'user.enable',
      at: '2026-02-01T10:00:00.000Z',
      actor: { id: 'u1', name: 'Ada', email: 'admin@example.com' },
      before: null,
      after: null,
    },
  ],
};

function serve(user: UserDetail, post: (call: FakeCall) => { status: number; body?: unknown }) {
  let counts = { EMAIL_VERIFIED: 7, DISABLED: 3 };
  let current = user;
  const api = fakeApi({
    'GET /v2/user/me': () => ({ status: 200, body: adminProfile }),
    [`GET /v2/admin/users/${ID}`]: () => ({ status: 200, body: current }),
    'GET /v2/admin/professionals/status/count': () => ({ status: 200, body: counts }),
    [`POST /v2/admin/users/${ID}/disable`]: (call) => {
      const answer = post(call);
      if (answer.status === 200) {
        current = { ...current, userDisabled: true, status: 'DISABLED' };
        counts = { EMAIL_VERIFIED: 6, DISABLED: 4 };
      }
      return answer;
    },
    [`POST /v2/admin/professionals/${ID}/verify`]: post,
    [`POST /v2/admin/users/${ID}/resend/verification-email`]: post,
  });
  return api;
}

describe('single doctor view', () => {
  it('shows the fields, files, bank validity, missing information and audit actions', async () => {
    serve(doctor, () => ({ status: 200 }));
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    for (const value of [
      'rita@example.pt',
      '12345',
      'Hospital de Santa Maria',
      'Twenty years of cardiology',
      'rita-sousa',
    ])
      expect(screen.getAllByText(value).length).toBeGreaterThan(0);
    expect(screen.getByText(enGB.users.fields.casePrice).nextElementSibling?.textContent).toBe('€15.00');
    expect(
      screen.getByRole('img', { name: enGB.users.fields.collegeCardFrontFile }).getAttribute('src'),
    ).toBe('/v2/admin/attachments/f0000000-0000-4000-8000-000000000001/download');
    expect(screen.queryAllByText(enGB.users.bank.invalid)).toHaveLength(1);
    expect(screen.queryByText(enGB.errorMessages.IBAN_NOT_SEPA, { exact: false })).toBeNull();
    expect(screen.queryAllByText(enGB.errorMessages.PROFESSIONAL_MISSING_DATA)).toHaveLength(1);
    const missing = screen.getByRole('list', { name: enGB.users.bank.missing });
    expect(
      within(missing)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([enGB.users.fields.taxNumber, enGB.users.fields.iban]);
    // The action in words, never its code.
    expect(screen.queryAllByRole('cell', { name: 'Enabled the user' })).toHaveLength(1);
    expect(screen.queryByText('user.enable')).toBeNull();
    expect(screen.getByRole('link', { name: enGB.users.casesLink }).getAttribute('href')).toBe(
      `/cases?professionalId=${ID}`,
    );
  });

  it('says why an IBAN outside SEPA is not valid for payouts; a checksum error just says not valid', async () => {
    serve(
      {
        ...doctor,
        bank: { ...doctor.bank, iban: 'BR1800360305000010009795493C1', ibanError: 'IBAN_NOT_SEPA' },
      },
      () => ({ status: 200 }),
    );
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    expect(screen.queryAllByText(`— ${enGB.errorMessages.IBAN_NOT_SEPA}`, { exact: false })).toHaveLength(1);
  });

  it('offers only the actions that apply: disable and verify, not enable nor resend', async () => {
    serve(doctor, () => ({ status: 200 }));
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).toContain(enGB.users.actions.disable);
    expect(names).toContain(enGB.users.actions.verify);
    expect(names).not.toContain(enGB.users.actions.enable);
    expect(names).not.toContain(enGB.users.actions.resend);
  });

  it('does not offer to disable the signed-in admin', async () => {
    serve({ ...doctor, id: ID, status: 'NEW_USER' }, () => ({ status: 200 }));
    fakeApi({
      'GET /v2/user/me': () => ({
        status: 200,
        body: { ...adminProfile, user: { ...adminProfile.user, id: ID } },
      }),
      [`GET /v2/admin/users/${ID}`]: () => ({ status: 200, body: { ...doctor, status: 'NEW_USER' } }),
    });
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).not.toContain(enGB.users.actions.disable);
    expect(names).toContain(enGB.users.actions.resend);
  });

  it('disables through the confirmation and the sidebar badges follow without a reload', async () => {
    const user = userEvent.setup();
    const { calls } = serve(doctor, () => ({ status: 200, body: {} }));
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    await waitFor(() => expect(screen.getByTestId('badge-professionalsDisabled').textContent).toBe('3'));
    await user.click(screen.getByRole('button', { name: enGB.users.actions.disable }));
    await screen.findByRole('alertdialog', {
      name: enGB.users.actions.disableTitle.replace('{{name}}', 'Rita Sousa'),
    });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('badge-professionalsDisabled').textContent).toBe('4'));
    expect(screen.getByTestId('badge-professionalsVerification').textContent).toBe('6');
    expect(await screen.findAllByRole('button', { name: enGB.users.actions.enable })).toHaveLength(1);
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ disabled: true });
  });

  it('shows a refused transition translated in the dialog, and sends nothing more', async () => {
    const user = userEvent.setup();
    const { calls } = serve(doctor, () => ({
      status: 409,
      body: { code: 'PROFESSIONAL_NOT_AWAITING_VERIFICATION' },
    }));
    renderApp(`/professionals/${ID}`, { token: 'tok' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    await user.click(screen.getByRole('button', { name: enGB.users.actions.verify }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        enGB.errorMessages.PROFESSIONAL_NOT_AWAITING_VERIFICATION,
      ),
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});

describe('a user under the other role’s route', () => {
  const patient: UserDetail = { ...doctor, role: 'CUSTOMER', name: 'Paula', fullName: 'Paula Reis' };

  it.each([
    [
      'a doctor under /customers',
      doctor,
      `/customers/${ID}`,
      `/professionals/${ID}`,
      enGB.routes.professional,
    ],
    [
      'a patient under /professionals',
      patient,
      `/professionals/${ID}`,
      `/customers/${ID}`,
      enGB.routes.customer,
    ],
  ])('%s moves to their own route, replacing the history entry', async (_, person, wrong, right, title) => {
    serve(person, () => ({ status: 200 }));
    window.history.replaceState(null, '', '/');
    window.history.pushState(null, '', '/');
    const before = window.history.length;
    renderApp(wrong, { token: 'tok' });
    await screen.findByRole('heading', { name: person.fullName ?? person.name });
    await waitFor(() => expect(currentPath()).toBe(right));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(title);
    expect(window.history.length).toBe(before);
  });
});

describe('Portuguese agreement with the user’s gender', () => {
  const fill = (text: string, name: string) => text.replace('{{name}}', name);

  it.each([
    ['female', 'Rita Sousa está agora verificada'],
    ['male', 'Rita Sousa está agora verificado'],
    [null, 'Rita Sousa está agora verificado'],
  ] as const)('the verification toast of a %s doctor reads “%s” in pt-PT', async (gender, toast) => {
    const user = userEvent.setup();
    serve({ ...doctor, gender }, () => ({ status: 200, body: {} }));
    renderApp(`/professionals/${ID}`, { token: 'tok', locale: 'pt-PT' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    await user.click(screen.getByRole('button', { name: ptPT.users.actions.verify }));
    await screen.findByRole('alertdialog', { name: fill(ptPT.users.actions.verifyTitle, 'Rita Sousa') });
    await user.keyboard('{Enter}');
    expect(await screen.findAllByText(toast)).toHaveLength(1);
  });

  it('the disable toast and the verified field agree with a woman; English is unchanged', async () => {
    const user = userEvent.setup();
    serve(doctor, () => ({ status: 200, body: {} }));
    renderApp(`/professionals/${ID}`, { token: 'tok', locale: 'pt-PT' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    expect(screen.queryAllByText('Médica verificada')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: ptPT.users.actions.disable }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Enter}');
    expect(await screen.findAllByText('Rita Sousa foi desativada')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('user-status').textContent).toBe('Desativada'));
    expect(
      screen.getByText(ptPT.users.fields.status, { selector: 'dt' }).nextElementSibling?.textContent,
    ).toBe('Desativada');
    expect(screen.queryAllByText('Desativada', { selector: 'dt' })).toHaveLength(1);
    cleanup();
    serve(doctor, () => ({ status: 200, body: {} }));
    renderApp(`/professionals/${ID}`, { token: 'tok', locale: 'en-GB' });
    await screen.findByRole('heading', { name: 'Rita Sousa' });
    expect(screen.queryAllByText(enGB.users.fields.professionalVerified)).toHaveLength(1);
  });
});
