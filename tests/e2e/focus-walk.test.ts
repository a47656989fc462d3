import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chooseFileByKeyboard,
  chromiumSuite,
  closeTestPage,
  hasChromium,
  openTestPage,
  signInByKeyboard,
  tabTo,
} from '../support/browser';
import { ptPT } from '../support/messages';
import { FIXED_PATHS, recordPaths } from '../support/screens';
import type { TestServer } from '../support/server';

/** Keys pressed in order, or what a keyboard user does that a key list cannot say (Tab to a control). */
type Act = readonly string[] | ((page: Page) => Promise<void>);

/**
 * Where focus must be: on the element focused just before the step opened something (`opener`), on
 * the keyboard's active row, drawn as active (`active row`), on the screen's region (`screen`: what
 * opened it is gone), or on one element (`css`). Never `<body>`, never nothing.
 */
type Focus = 'opener' | 'active row' | 'screen' | { css: string; what: string };

/** One dialog, menu, palette or form of a screen: opened, closed, and where focus is then. */
interface Step {
  name: string;
  /** Puts the keyboard where the opener is (the active row, a button); focus is not checked here. */
  setup?: Act;
  open: Act;
  /** What is open once `open` ran. */
  shown(page: Page): Locator;
  /** Where focus is once it is open, when the step checks it (a screen opened from a row). */
  focusOpen?: Focus;
  close: Act;
  focus: Focus;
}

interface Screen {
  /** The screen's address; some need a record of the seed. */
  path: string | ((server: TestServer) => Promise<string>);
  /** Shown once the screen has drawn what its steps need. */
  ready?(page: Page): Locator;
  /** Where focus is once the screen has drawn (a doctor's month: its first row). */
  focusOnLoad?: Focus;
  steps: readonly Step[];
}

/** Keyboard only: Tab (bounded) until the focused control reads `text` (or begins with it, `prefix`). */
const tabToText =
  (text: string, { prefix = false, limit = 150 } = {}) =>
  async (page: Page) => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const read = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (prefix ? read.startsWith(text) : read === text) return;
    }
    throw new Error(`no control reading "${text}" within ${limit} Tab presses`);
  };

/**
 * The browser's Back (Alt+← in a browser with its own keys; headless Chromium has none, so Playwright's
 * history call stands in for it).
 */
const goBack = async (page: Page) => {
  await page.goBack();
};

const TO_SETTLE = `s.status IN ('READY_TO_SETTLE', 'AVAILABLE')`;
const COMPLETE = `u.full_name IS NOT NULL AND u.tax_number IS NOT NULL AND u.iban IS NOT NULL AND u.college_number IS NOT NULL`;

const one = async (server: TestServer, sql: string) => {
  const { rows } = await server.db.query<{ id: string }>(sql);
  if (!rows[0]) throw new Error(`the seed has nothing for: ${sql}`);
  return rows[0].id;
};

/** A complete doctor's month with two settlements or more to settle: its address. */
const doctorMonthPath = async (server: TestServer) => {
  const { rows } = await server.db.query<{ professional_id: string; reference_month: string }>(
    `SELECT s.professional_id, s.reference_month FROM settlements s JOIN users u ON u.id = s.professional_id
      WHERE ${TO_SETTLE} AND ${COMPLETE}
      GROUP BY 1, 2 HAVING count(*) >= 2 ORDER BY count(*), 1, 2 LIMIT 1`,
  );
  const month = rows[0];
  if (!month) throw new Error('the seed has no complete doctor’s month with two settlements');
  return `/settlement?tab=process&doctor=${month.professional_id}&month=${month.reference_month}`;
};

const dialog = (page: Page) => page.getByRole('dialog').or(page.getByRole('alertdialog')).first();
const alertDialog = (page: Page) => page.getByRole('alertdialog');

/** A bank CSV whose header the console has no mapping for: the mapping editor opens on it. */
const statementCsv = (dir: string) => {
  const path = join(dir, 'extrato-foco.csv');
  writeFileSync(path, 'Data Mov.;Descrição;Montante\r\n12-05-2026;TRF RECEBIDA FOCO;875,30\r\n');
  return path;
};

/** On every screen: the palette (Ctrl+K) and the keys' help (`?`), each closed with Esc. */
const EVERY_SCREEN: readonly Step[] = [
  {
    name: 'the palette (Ctrl+K), Esc',
    open: ['Control+k'],
    shown: (page) => page.locator('[cmdk-input]'),
    close: ['Escape'],
    focus: 'opener',
  },
];

const SCREENS = (csvPath: string): readonly Screen[] => [
  {
    path: '/settlement',
    ready: (page) => page.locator('.data-table-body-row').first(),
    steps: [
      {
        name: 'a doctor’s month opened from its row (j, Enter), then Esc back to the list',
        setup: ['j'],
        open: ['Enter'],
        shown: (page) => page.locator('.settle-panel'),
        focusOpen: 'active row',
        close: ['Escape'],
        focus: 'active row',
      },
    ],
  },
  {
    path: doctorMonthPath,
    ready: (page) => page.locator('.review-table tbody tr').first(),
    focusOnLoad: 'active row',
    steps: [
      {
        name: 'an adjustment (a), Esc',
        setup: ['j'],
        open: ['a'],
        shown: (page) => page.locator('.adjust-form'),
        close: ['Escape'],
        focus: 'active row',
      },
      {
        name: 'an adjustment (a), Cancel',
        open: ['a'],
        shown: (page) => page.locator('.adjust-form'),
        close: ['Tab', 'Tab', 'Tab', 'Enter'],
        focus: 'active row',
      },
      {
        name: 'an adjustment (a) applied with Enter',
        open: ['a'],
        shown: (page) => page.locator('.adjust-form'),
        close: async (page) => {
          await page.keyboard.type('1,00');
          await page.keyboard.press('Tab');
          await page.keyboard.type('foco');
          await page.keyboard.press('Enter');
        },
        focus: 'active row',
      },
      {
        name: 'the confirmation (c), Esc',
        open: ['c'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'active row',
      },
      {
        name: 'the confirmation (c), Cancel',
        open: ['c'],
        shown: alertDialog,
        close: ['Shift+Tab', 'Enter'],
        focus: 'active row',
      },
      {
        name: 'the confirmation (c), confirmed: the month is settled and its rows gone',
        open: ['c'],
        shown: alertDialog,
        close: async (page) => {
          await page.keyboard.press('Enter');
          await page.getByTestId('settle-nothing-left').waitFor();
        },
        focus: 'screen',
      },
    ],
  },
  {
    path: '/statements',
    ready: (page) => page.locator('.statement-lines tbody tr').first(),
    steps: [
      {
        name: 'the ignore dialog (j, i), Esc',
        setup: ['j'],
        open: ['i'],
        shown: dialog,
        close: ['Escape'],
        focus: 'active row',
      },
      {
        name: 'the note dialog (n), Esc',
        open: ['n'],
        shown: dialog,
        close: ['Escape'],
        focus: 'active row',
      },
      {
        name: 'the history dialog (h), Esc',
        open: ['h'],
        shown: dialog,
        close: ['Escape'],
        focus: 'active row',
      },
      {
        name: 'the history dialog (h), its Close button',
        open: ['h'],
        shown: dialog,
        close: ['Enter'],
        focus: 'active row',
      },
      {
        name: 'the filter menu (f), Esc',
        open: ['f'],
        shown: (page) => page.getByRole('menu'),
        close: ['Escape'],
        focus: { css: '.statement-lines .filter-bar-button', what: 'the filter button' },
      },
      {
        name: 'a statement import: "use this mapping", then Cancel',
        open: async (page) => {
          await page.getByTestId('statement-file').setInputFiles(csvPath);
          await page.getByRole('heading', { name: ptPT.statements.mapping.title }).waitFor();
          await tabToText(ptPT.statements.mapping.accept)(page);
          await page.keyboard.press('Enter');
        },
        shown: (page) => page.getByRole('combobox', { name: ptPT.statements.account.label }),
        focusOpen: { css: '[role="combobox"]', what: 'the account field' },
        close: async (page) => {
          await tabToText(ptPT.statements.import.cancel)(page);
          await page.keyboard.press('Enter');
        },
        focus: { css: '[data-testid="statement-file"]', what: 'the file picker' },
      },
      {
        name: 'a statement import: "use this mapping", the account, Import, then Close',
        open: async (page) => {
          await page.getByTestId('statement-file').setInputFiles(csvPath);
          // The mapping this header was given a step ago is kept: the account is asked at once.
          const account = page.getByRole('combobox', { name: ptPT.statements.account.label });
          await account.waitFor();
          await expect.poll(() => account.evaluate((el) => el === document.activeElement)).toBe(true);
          await page.keyboard.type('PT50 0035 0001 0001 2345 6780 5');
          await page.keyboard.press('Enter');
          const submit = ptPT.statements.import.submitNew.one.replace('{{count}}', '1');
          await page.getByRole('button', { name: submit }).waitFor();
          await tabToText(submit)(page);
          await page.keyboard.press('Enter');
        },
        shown: (page) => page.getByTestId('statement-result'),
        focusOpen: { css: '[data-testid="statement-result"] button', what: 'the result’s Close' },
        close: ['Enter'],
        focus: { css: '[data-testid="statement-file"]', what: 'the file picker' },
      },
    ],
  },
  {
    path: async (server) =>
      `/sepa?tab=process&month=${
        (
          await server.db.query<{ m: string }>(
            `SELECT s.reference_month AS m FROM settlements s WHERE s.status = 'SETTLED' ORDER BY 1 DESC LIMIT 1`,
          )
        ).rows[0]?.m
      }`,
    ready: (page) => page.getByTestId('sepa-totals'),
    steps: [
      {
        name: 'the dry run of every doctor, Esc',
        setup: tabToText(ptPT.sepa.process.all),
        open: ['Enter'],
        shown: (page) => page.getByTestId('sepa-dry-run-summary'),
        close: ['Escape'],
        focus: 'opener',
      },
    ],
  },
  {
    path: '/sepa?tab=history',
    ready: (page) => page.locator('.data-table-body-row').first(),
    steps: [
      {
        name: 'a status report uploaded (Carregar) and refused',
        setup: async (page) => {
          await tabTo(page, (el) => el instanceof HTMLInputElement && el.type === 'file');
          await chooseFileByKeyboard(page, {
            name: 'pain002.xml',
            mimeType: 'application/xml',
            buffer: Buffer.from('<?xml version="1.0"?><Document/>'),
          });
          await tabToText(ptPT.sepa.report.upload)(page);
        },
        open: ['Enter'],
        shown: (page) => page.getByRole('form', { name: ptPT.sepa.report.title }).getByRole('alert'),
        close: [],
        focus: 'opener',
      },
      {
        name: 'a file opened from its row (Tab to the list, j, Enter), then Back',
        setup: async (page) => {
          await tabTo(page, (el) => el.classList.contains('data-table-scroll'));
          await page.keyboard.press('j');
        },
        open: ['Enter'],
        shown: (page) => page.getByTestId('sepa-file-status'),
        close: goBack,
        focus: 'active row',
      },
    ],
  },
  {
    path: async (server) =>
      `/sepa/${await one(server, `SELECT id FROM sepa_files WHERE status = 'GENERATED' ORDER BY id LIMIT 1`)}`,
    ready: (page) => page.getByTestId('sepa-file-status'),
    steps: [
      {
        name: 'mark available, Esc',
        setup: tabToText(ptPT.sepa.file.markAvailable),
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
      {
        name: 'mark available, confirmed: its button gone',
        open: ['Enter'],
        shown: alertDialog,
        close: async (page) => {
          await page.keyboard.press('Enter');
          await page
            .getByRole('button', { name: ptPT.sepa.file.markAvailable })
            .waitFor({ state: 'detached' });
        },
        focus: 'screen',
      },
    ],
  },
  {
    path: async (server) =>
      `/sepa/${await one(server, `SELECT id FROM sepa_files WHERE status = 'AVAILABLE' ORDER BY id LIMIT 1`)}`,
    ready: (page) => page.getByTestId('sepa-file-status'),
    steps: [
      {
        name: 'mark paid, Esc',
        setup: tabToText(ptPT.sepa.file.markPaid),
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
      {
        name: 'mark unavailable, Esc',
        setup: tabToText(ptPT.sepa.file.markUnavailable),
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
    ],
  },
  {
    path: async (server) =>
      `/professionals/${await one(
        server,
        `SELECT id FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED' AND college_number IS NOT NULL ORDER BY id LIMIT 1`,
      )}`,
    ready: (page) => page.getByTestId('user-status'),
    steps: [
      {
        name: 'verify, Esc',
        setup: tabToText(ptPT.users.actions.verify),
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
      {
        name: 'disable, Esc',
        setup: tabToText(ptPT.users.actions.disable),
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
    ],
  },
  {
    path: '/professionals',
    ready: (page) => page.locator('.data-table-body-row').first(),
    steps: [
      {
        name: 'a row selected (j, x), the bulk disable, Esc',
        setup: async (page) => {
          await page.keyboard.press('j');
          await page.keyboard.press('x');
          await tabToText(`${ptPT.users.actions.disable} (1)`, { prefix: true })(page);
        },
        open: ['Enter'],
        shown: alertDialog,
        close: ['Escape'],
        focus: 'opener',
      },
      {
        name: 'the filter menu (f), Esc',
        open: ['f'],
        shown: (page) => page.getByRole('menu'),
        close: ['Escape'],
        focus: { css: '.filter-bar-button', what: 'the filter button' },
      },
    ],
  },
  {
    path: '/export/users',
    ready: (page) => page.getByLabel(ptPT.exports.startDate),
    steps: [
      {
        name: 'the export sent without its start date: the error shown',
        setup: async (page) => page.getByLabel(ptPT.exports.startDate).focus(),
        open: ['Enter'],
        shown: (page) => page.locator('#export-startDate-error'),
        close: [],
        focus: { css: '#export-startDate', what: 'the start date field' },
      },
    ],
  },
  {
    path: '/audit',
    ready: (page) => page.locator('.data-table-body-row').first(),
    steps: [
      {
        name: 'the filter menu (f), Esc',
        open: ['f'],
        shown: (page) => page.getByRole('menu'),
        close: ['Escape'],
        focus: { css: '.filter-bar-button', what: 'the filter button' },
      },
      {
        name: 'an entry’s record opened from its row (j, Enter), then Back',
        setup: ['j'],
        open: ['Enter'],
        shown: (page) => page.locator('main h1').filter({ hasNotText: ptPT.routes.audit }),
        close: goBack,
        focus: 'active row',
      },
    ],
  },
];

/** Marks the focused element as the opener: `opener` compares against it after closing. */
const markOpener = (page: Page) =>
  page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-walk-opener]')) el.removeAttribute('data-walk-opener');
    document.activeElement?.setAttribute('data-walk-opener', '');
  });

/** What is focused, said so a failure can be read, and whether it is where `expected` says. */
const focusCheck = (page: Page, expected: Focus) =>
  page.evaluate((want) => {
    const el = document.activeElement;
    const said =
      el === null
        ? 'nothing'
        : el === document.body
          ? '<body>'
          : `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? ` class="${el.className}"` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    if (el === null || el === document.body) return { ok: false, said };
    if (want === 'active row' && !el.matches('tr[data-active]')) {
      const row = document.querySelector('tr[data-active]');
      return {
        ok: false,
        said: `${said}; ${row ? `the active row "${(row.textContent ?? '').slice(0, 30)}" unfocused` : 'no active row'}`,
      };
    }
    if (want === 'opener') return { ok: el.hasAttribute('data-walk-opener'), said };
    if (want === 'screen') return { ok: el.tagName === 'MAIN', said };
    if (want === 'active row') {
      if (!el.matches('tr[data-active]')) return { ok: false, said };
      // Drawn as active: the row's outline is there to see.
      const style = getComputedStyle(el);
      const visible = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      return { ok: visible, said: visible ? said : `${said} (not drawn as active)` };
    }
    return { ok: el.matches(want.css), said };
  }, expected);

const describeFocus = (focus: Focus) =>
  typeof focus === 'string'
    ? { opener: 'the element that opened it', 'active row': 'the active row', screen: 'the screen (main)' }[
        focus
      ]
    : focus.what;

const run = async (page: Page, act: Act) => {
  if (typeof act === 'function') await act(page);
  else for (const key of act) await page.keyboard.press(key);
};

/** Issue 29 point 6: focus is never lost, after any dialog, menu, palette or form a keyboard opens. */
describe.skipIf(!hasChromium)('the focus walk in Chromium, keyboard only', () => {
  const suite = chromiumSuite();

  it('gives focus back to the opener or the row acted on after every dialog, menu, palette and form, on every screen', async () => {
    const opened = await openTestPage(suite.browser, {
      viewport: { width: 1440, height: 900 },
      locale: 'pt-PT',
    });
    const { page } = opened;
    const dir = mkdtempSync(join(tmpdir(), 'focus-walk-'));
    const lost: string[] = [];
    let walked = 0;
    try {
      await signInByKeyboard(page, suite.server);
      const screens: Screen[] = [
        ...[...FIXED_PATHS, ...(await recordPaths(suite.server))].map((path) => ({ path, steps: [] })),
        ...SCREENS(statementCsv(dir)),
      ];
      for (const screen of screens) {
        const path = typeof screen.path === 'string' ? screen.path : await screen.path(suite.server);
        const where = (name: string) => `${path} › ${name}`;
        try {
          await page.goto(`${suite.server.url}${path}`);
          await page.locator('main h1').first().waitFor();
          await screen.ready?.(page).waitFor({ timeout: 10_000 });
          await page.waitForLoadState('networkidle');
        } catch (error) {
          lost.push(`${where('opening')}: ${(error as Error).message.split('\n')[0]}`);
          continue;
        }
        const check = async (name: string, focus: Focus) => {
          // A dialog gives focus back as it goes; the shell's fallback waits one task.
          await page.waitForTimeout(50);
          const { ok, said } = await focusCheck(page, focus);
          if (!ok)
            lost.push(
              `${where(name)}: focus on ${said}, expected ${describeFocus(focus)} (at ${new URL(page.url()).pathname}${new URL(page.url()).search})`,
            );
        };
        if (screen.focusOnLoad) await check('opened', screen.focusOnLoad);
        for (const step of [...screen.steps, ...EVERY_SCREEN]) {
          walked++;
          try {
            if (step.setup) await run(page, step.setup);
            await markOpener(page);
            await run(page, step.open);
            await step.shown(page).waitFor({ timeout: 10_000 });
            if (step.focusOpen) await check(`${step.name} (open)`, step.focusOpen);
            await run(page, step.close);
            await page.waitForLoadState('networkidle');
            await check(step.name, step.focus);
          } catch (error) {
            lost.push(`${where(step.name)}: the step failed: ${(error as Error).message.split('\n')[0]}`);
            // The next step starts from the screen as loaded, not from a dialog left open.
            await page.goto(`${suite.server.url}${path}`);
            await page.locator('main h1').first().waitFor();
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await closeTestPage(opened);
    }
    expect(walked).toBeGreaterThan(40);
    expect(lost).toEqual([]);
  }, 600_000);
});
