import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../../machines/session';
import { readConfig } from '../../../server/config';
import { type Database, openDatabase } from '../../../server/db/client';
import { prepareDatabase } from '../../../server/platform/bootstrap';
import type { UserPage, UserSummary } from '../../../src/api/users';
import { baseCommands, helpCommand } from '../../../src/app/palette/commands';
import { userSearchCommand } from '../../../src/features/users/palette-commands';
import { USER_ACTIONS } from '../../../src/features/users/user-actions';
import { translateEvery, translateIn } from '../../../src/i18n/i18n';
import { keepAboveCursor, rankCommands } from '../../../src/kernel/palette-ranking';
import type { PaletteCommand } from '../../../src/kernel/palette-registry';
import { bearer, issueToken, type RunningApi, startApi } from '../../api/harness';

/*
 * The palette's ranking on the demo seed (issue 14): what is typed → what Enter runs. The people come
 * from the real search API, asked as the palette asks (per role, 5 each); the screens, language,
 * sign-out and help commands and a doctor's page actions are built by the console's own builders.
 */

let db: Database;
let api: RunningApi;
let token: string;
let doctor: UserSummary;
let lopes: { id: string; email: string; name: string };

const noop = () => {};

async function searchUsers(term: string, role: 'CUSTOMER' | 'PROFESSIONAL'): Promise<UserSummary[]> {
  const query = new URLSearchParams({ q: term, role, limit: '5' });
  const response = await fetch(`${api.url}/v2/admin/users?${query}`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  return ((await response.json()) as UserPage).items;
}

/** Every command the palette would hold for this search, in registration order. */
async function commandsFor(search: string, lang: Locale, onDoctorPage: boolean): Promise<PaletteCommand[]> {
  const t = translateIn(lang);
  const other: Locale = lang === 'pt-PT' ? 'en-GB' : 'pt-PT';
  const base = baseCommands({
    t,
    locale: lang,
    locales: [lang, other],
    authenticated: true,
    navigate: noop,
    setLocale: noop,
  });
  const term = search.trim();
  const people =
    term.length >= 2
      ? [
          ...(await searchUsers(term, 'CUSTOMER')).map((u) =>
            userSearchCommand(u, t('users.palette.customers'), term, noop),
          ),
          ...(await searchUsers(term, 'PROFESSIONAL')).map((u) =>
            userSearchCommand(u, t('users.palette.professionals'), term, noop),
          ),
        ]
      : [];
  // As useEntityActions registers them on the doctor's page.
  const actions: PaletteCommand[] = onDoctorPage
    ? USER_ACTIONS.actions
        .filter((a) => a.visible?.(doctor, { selfId: null }) ?? true)
        .map((a) => ({
          id: `user:${a.id}:${doctor.id}`,
          group: t(USER_ACTIONS.paletteGroupKey),
          label: t(a.labelKey),
          keywords: translateEvery(a.labelKey),
          kind: 'action' as const,
          run: noop,
        }))
    : [];
  // The registration order of the console: base, case ids, people, help, then the page's actions.
  return [...base, ...people, helpCommand(t, noop), ...actions];
}

beforeAll(async () => {
  db = await openDatabase({});
  const config = readConfig({ NODE_ENV: 'test' });
  await prepareDatabase(db, config, 300);
  api = await startApi(db);
  const admin = await db.query<{ id: string }>("SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1");
  token = await issueToken(db, admin.rows[0]!.id);
  const verifiable = await db.query<{ id: string }>(
    `SELECT id FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED' AND NOT disabled
      ORDER BY email LIMIT 1`,
  );
  const detail = await fetch(`${api.url}/v2/admin/users/${verifiable.rows[0]!.id}`, {
    headers: bearer(token),
  });
  doctor = (await detail.json()) as UserSummary;
  // A person whose address has a middle part and a number: "<first>.<last>.<n>@…".
  const found = await db.query<{ id: string; email: string; name: string }>(
    `SELECT id, email, name FROM users WHERE email ~ '^[a-z]+\\.[a-z]+\\.[0-9]{3}@' ORDER BY email LIMIT 1`,
  );
  lopes = found.rows[0]!;
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await db?.close();
});

type Expect = string | ((first: PaletteCommand) => boolean);
interface Row {
  search: string | (() => string);
  lang: Locale;
  page?: 'doctor';
  recent?: string[];
  first: Expect | (() => Expect);
  why: string;
}

const entityNamed = (start: string) => (c: PaletteCommand) =>
  c.kind === 'entity' && c.label.toLowerCase().includes(start.toLowerCase());
const lastPart = () => lopes.email.split('@')[0]!.split('.').slice(1).join('.');
const surname = () => lopes.email.split('.')[1]!;

const ROWS: Row[] = [
  // The page's own actions first when the query names them.
  {
    search: 'verificar',
    lang: 'pt-PT',
    page: 'doctor',
    first: () => `user:verify:${doctor.id}`,
    why: 'action over the screen',
  },
  {
    search: 'verif',
    lang: 'pt-PT',
    page: 'doctor',
    first: () => `user:verify:${doctor.id}`,
    why: 'prefix of the action',
  },
  {
    search: 'desativar',
    lang: 'pt-PT',
    page: 'doctor',
    first: () => `user:disable:${doctor.id}`,
    why: 'action over "Médicos desativados"',
  },
  {
    search: 'desat',
    lang: 'pt-PT',
    page: 'doctor',
    first: () => `user:disable:${doctor.id}`,
    why: 'prefix of the action',
  },
  {
    search: 'verify',
    lang: 'en-GB',
    page: 'doctor',
    first: () => `user:verify:${doctor.id}`,
    why: 'action, English',
  },
  {
    search: 'disable',
    lang: 'en-GB',
    page: 'doctor',
    first: () => `user:disable:${doctor.id}`,
    why: 'action, English',
  },
  {
    search: 'desativar',
    lang: 'en-GB',
    page: 'doctor',
    first: () => `user:disable:${doctor.id}`,
    why: 'Portuguese word, English console',
  },
  {
    search: '',
    lang: 'pt-PT',
    page: 'doctor',
    first: () => `user:disable:${doctor.id}`,
    why: 'empty: the page first',
  },
  {
    search: '',
    lang: 'pt-PT',
    page: 'doctor',
    recent: ['go:cases'],
    first: 'go:cases',
    why: 'empty: recent first',
  },
  {
    search: '',
    lang: 'en-GB',
    recent: ['logout', 'go:cases'],
    first: 'logout',
    why: 'empty: newest recent first',
  },
  // Synonyms in both languages.
  { search: 'logout', lang: 'pt-PT', first: 'logout', why: 'not "Exportar utilizadores"' },
  { search: 'sair', lang: 'pt-PT', first: 'logout', why: 'synonym' },
  { search: 'terminar sessão', lang: 'pt-PT', first: 'logout', why: 'the label' },
  { search: 'sign out', lang: 'en-GB', first: 'logout', why: 'the label' },
  { search: 'sair', lang: 'en-GB', first: 'logout', why: 'Portuguese synonym, English console' },
  { search: 'logout', lang: 'en-GB', first: 'logout', why: 'synonym' },
  { search: 'ajuda', lang: 'pt-PT', first: 'help', why: 'synonym' },
  { search: 'shortcuts', lang: 'pt-PT', first: 'help', why: 'English synonym' },
  { search: 'atalhos', lang: 'pt-PT', first: 'help', why: 'the label' },
  { search: 'idioma', lang: 'pt-PT', first: 'locale:en-GB', why: 'synonym' },
  { search: 'english', lang: 'pt-PT', first: 'locale:en-GB', why: 'the language' },
  { search: 'language', lang: 'en-GB', first: 'locale:pt-PT', why: 'synonym' },
  // Screens by their name in either language, accents or not.
  { search: 'pacientes', lang: 'pt-PT', first: 'go:customers', why: 'exact screen' },
  { search: 'patients', lang: 'pt-PT', first: 'go:customers', why: 'English name' },
  { search: 'medicos', lang: 'pt-PT', first: 'go:professionals', why: 'without accents' },
  { search: 'doctors', lang: 'en-GB', first: 'go:professionals', why: 'exact screen' },
  { search: 'casos', lang: 'en-GB', first: 'go:cases', why: 'Portuguese name' },
  { search: 'cases', lang: 'en-GB', first: 'go:cases', why: 'exact screen' },
  { search: 'desativados', lang: 'pt-PT', first: 'go:professionalsDisabled', why: 'a word of the screen' },
  { search: 'verificação', lang: 'pt-PT', first: 'go:professionalsVerification', why: 'off the doctor page' },
  // People: name or any part of the address above fuzzy screen names.
  {
    search: 'Patr',
    lang: 'pt-PT',
    first: entityNamed('Patr'),
    why: 'a name prefix, not "Exportar pacientes"',
  },
  {
    search: surname,
    lang: 'pt-PT',
    first: () => entityNamed(surname()),
    why: 'a surname, not "Exportar médicos"',
  },
  {
    search: lastPart,
    lang: 'pt-PT',
    first: () => `user:open:${lopes.id}`,
    why: 'a later part of the address',
  },
  {
    search: () => lopes.email,
    lang: 'en-GB',
    first: () => `user:open:${lopes.id}`,
    why: 'the whole address',
  },
  {
    search: () => lopes.email.slice(0, 12),
    lang: 'pt-PT',
    first: () => `user:open:${lopes.id}`,
    why: 'an address prefix',
  },
];

describe('palette ranking on the seed: query → first result', () => {
  it.each(ROWS.map((row) => [row.why, row] as const))('%s', async (_why, row) => {
    const search = typeof row.search === 'function' ? row.search() : row.search;
    const ranked = rankCommands(await commandsFor(search, row.lang, row.page === 'doctor'), search, {
      recent: row.recent ?? [],
    });
    const expected =
      typeof row.first === 'function' && row.first.length === 0 ? (row.first as () => Expect)() : row.first;
    const first = ranked[0];
    expect(first, `nothing listed for "${search}"`).toBeDefined();
    if (typeof expected === 'string') expect(first!.id, `"${search}" (${row.lang})`).toBe(expected);
    else
      expect((expected as (c: PaletteCommand) => boolean)(first!), `"${search}" → ${first!.label}`).toBe(
        true,
      );
  });

  it('holds at least 30 rows in both languages', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ROWS.map((r) => r.lang))).toEqual(new Set(['pt-PT', 'en-GB']));
  });
});

describe('answers arriving under the cursor', () => {
  it('keeps the items down to the chosen one in place and puts new ones below it', () => {
    expect(keepAboveCursor(['a', 'b', 'c'], ['x', 'a', 'b', 'c'], 'b')).toEqual(['a', 'b', 'x', 'c']);
    expect(keepAboveCursor(['a', 'b', 'c'], ['x', 'c', 'b'], 'b')).toEqual(['b', 'x', 'c']);
  });
  it('lets the ranking stand when nothing was chosen or the choice is gone', () => {
    expect(keepAboveCursor(['a', 'b'], ['x', 'a', 'b'], null)).toEqual(['x', 'a', 'b']);
    expect(keepAboveCursor(['a', 'b'], ['x', 'a'], 'b')).toEqual(['x', 'a']);
  });
});
