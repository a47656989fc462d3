// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import enGB from '../../../locales/en-GB.json';
import ptPT from '../../../locales/pt-PT.json';
import type { Locale } from '../../../machines/session';
import type { CaseMessage } from '../../../src/api/cases';
import { formatBytes, formatDuration } from '../../../src/features/cases/format';
import { MessageTimeline } from '../../../src/features/cases/MessageTimeline';
import { I18nProvider } from '../../../src/i18n/i18n';

const VIEWPORT = 600;
const ROW = 60;

beforeEach(() => {
  // jsdom lays nothing out: give the scroller a height and every row a height, as a browser would.
  const height = (el: HTMLElement) => (el.classList.contains('timeline-scroller') ? VIEWPORT : ROW);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return height(this);
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return height(this);
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(800);
});
afterEach(cleanup);

const customer = {
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Ana Sousa',
  role: 'CUSTOMER' as const,
  gender: 'female' as const,
};
const doctor = {
  id: 'p0000000-0000-4000-8000-000000000002',
  name: 'Dr. Rui Lopes',
  role: 'PROFESSIONAL' as const,
  gender: 'male' as const,
};

const base = { text: null, callDurationSeconds: null, voice: null, attachments: [] };
const conversation: CaseMessage[] = [
  {
    ...base,
    id: 'm1',
    type: 'TEXT',
    sender: customer,
    createdAt: '2026-03-15T10:30:00Z',
    text: 'Tenho dores de cabeça há três dias.',
    attachments: [
      {
        id: 'a1',
        name: 'análises.pdf',
        contentType: 'application/pdf',
        sizeBytes: 12_636,
        url: '/v2/admin/case-message/attachments/download?id=a1',
      },
    ],
  },
  {
    ...base,
    id: 'm2',
    type: 'CALL',
    sender: doctor,
    createdAt: '2026-03-15T11:00:00Z',
    callDurationSeconds: 754,
  },
  {
    ...base,
    id: 'm3',
    type: 'VOICE',
    sender: customer,
    // Summer time in Lisbon: 23:30 UTC is already the next day there.
    createdAt: '2026-07-15T23:30:00Z',
    voice: {
      durationSeconds: 7.4,
      contentType: 'audio/wav',
      sizeBytes: 118_444,
      url: '/v2/admin/case/voice/m3',
    },
  },
];

function renderTimeline(
  messages: CaseMessage[],
  locale: Locale,
  extra: { hasMore?: boolean; loadMore?(): void } = {},
) {
  const loadMore = extra.loadMore ?? vi.fn();
  render(
    <I18nProvider initial={locale}>
      <MessageTimeline
        messages={messages}
        total={messages.length}
        hasMore={extra.hasMore ?? false}
        loadingMore={false}
        loadMore={loadMore}
      />
    </I18nProvider>,
  );
  return { loadMore };
}

const article = (name: string, index: number) =>
  screen.getAllByRole('article', { name: enGB.chat.messageFrom.replace('{{name}}', name) })[
    index
  ] as HTMLElement;

describe('message timeline', () => {
  it('renders text, call and voice messages with their sender, role, time and attachments (en-GB)', () => {
    renderTimeline(conversation, 'en-GB');
    expect(screen.queryAllByText('Messages: 3')).toHaveLength(1);

    const text = article('Ana Sousa', 0);
    expect(text.dataset.type).toBe('TEXT');
    expect(within(text).queryAllByText('Tenho dores de cabeça há três dias.')).toHaveLength(1);
    expect(within(text).queryAllByText(enGB.chat.role.CUSTOMER)).toHaveLength(1);
    expect(within(text).getByText('15/03/2026, 10:30').getAttribute('datetime')).toBe('2026-03-15T10:30:00Z');
    const download = within(text).getByRole('link', { name: 'Download análises.pdf' });
    expect(download.textContent).toBe('análises.pdf12.3 kB');
    expect(download.getAttribute('href')).toBe('/v2/admin/case-message/attachments/download?id=a1');
    expect(download.getAttribute('download')).toBe('análises.pdf');

    const call = article('Dr. Rui Lopes', 0);
    expect(call.dataset.type).toBe('CALL');
    expect(within(call).queryAllByText('Call, duration 12:34')).toHaveLength(1);
    expect(within(call).queryAllByText(enGB.chat.role.PROFESSIONAL)).toHaveLength(1);

    const voice = article('Ana Sousa', 1);
    expect(voice.dataset.type).toBe('VOICE');
    const player = within(voice).getByRole('group', { name: 'Voice message, 0:07' });
    const audio = player.querySelector('audio') as HTMLAudioElement;
    expect(audio.getAttribute('src')).toBe('/v2/admin/case/voice/m3');
    // Nothing is fetched before the admin asks to listen.
    expect(audio.preload).toBe('none');
    // One reading of the time: where it is of how long it is (not the browser's 0:00 / 0:00).
    expect(within(player).queryAllByRole('button', { name: 'Play' })).toHaveLength(1);
    expect(
      within(player)
        .getByRole('slider', { name: 'Position in the voice message' })
        .getAttribute('aria-valuetext'),
    ).toBe('0:00 / 0:07');
    expect(within(player).queryAllByText('0:00 / 0:07')).toHaveLength(1);
    expect(within(voice).queryAllByText('16/07/2026, 00:30')).toHaveLength(1);
  });

  it('uses the Portuguese formats and words in pt-PT', () => {
    renderTimeline(conversation, 'pt-PT');
    expect(screen.queryAllByText('Mensagens: 3')).toHaveLength(1);
    expect(screen.queryAllByText('15/03/2026, 10:30')).toHaveLength(1);
    expect(screen.queryAllByText('16/07/2026, 00:30')).toHaveLength(1);
    expect(screen.queryAllByText('Chamada, duração 12:34')).toHaveLength(1);
    expect(screen.queryAllByLabelText('Mensagem de voz, 0:07')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Transferir análises.pdf' }).textContent).toBe(
      'análises.pdf12,3 kB',
    );
    expect(screen.getAllByText(ptPT.chat.role.CUSTOMER)).toHaveLength(2);
  });

  it.each([
    ['female', 'Médica'],
    ['male', 'Médico'],
    [null, 'Médico'],
  ] as const)('in pt-PT, a %s doctor is labelled %s; a patient stays Paciente', (gender, label) => {
    const sender = { ...doctor, name: 'Dra. Rita Sousa', gender };
    renderTimeline([{ ...conversation[1]!, sender }, conversation[0]!], 'pt-PT');
    const role = (name: string) =>
      within(
        screen.getByRole('article', { name: ptPT.chat.messageFrom.replace('{{name}}', name) }),
      ).getByText((_, el) => el?.classList.contains('message-role') ?? false).textContent;
    expect(role('Dra. Rita Sousa')).toBe(label);
    expect(role('Ana Sousa')).toBe('Paciente');
  });

  it('keeps only the messages in view in the DOM and asks for the next page near the end', () => {
    const many: CaseMessage[] = Array.from({ length: 500 }, (_, i) => ({
      ...base,
      id: `m${i}`,
      type: 'TEXT',
      sender: i % 2 ? doctor : customer,
      createdAt: new Date(Date.UTC(2026, 2, 1, 9, i)).toISOString(),
      text: `message number ${i}`,
    }));
    const { loadMore } = renderTimeline(many, 'en-GB', { hasMore: true });
    const rows = screen.getAllByRole('article');
    expect(rows.length).toBeGreaterThanOrEqual(VIEWPORT / ROW);
    expect(rows.length).toBeLessThan(40);
    expect(screen.queryAllByText('message number 0')).toHaveLength(1);
    expect(screen.queryByText('message number 499')).toBeNull();
    // The first screenful is far from the end: no page is asked for yet.
    expect(loadMore).not.toHaveBeenCalled();
  });

  it('asks for the next page when the loaded messages run out on screen', () => {
    const { loadMore } = renderTimeline(conversation, 'en-GB', { hasMore: true });
    expect(loadMore).toHaveBeenCalled();
  });

  it('says so when a case has no messages', () => {
    renderTimeline([], 'en-GB');
    expect(screen.queryAllByText(enGB.chat.noMessages)).toHaveLength(1);
  });
});

describe('case formats', () => {
  it('prints durations as a clock and sizes in binary units', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatBytes(900, 'en-GB')).toBe('900 byte');
    expect(formatBytes(40 * 1024 * 1024, 'pt-PT')).toBe('40 MB');
  });
});
