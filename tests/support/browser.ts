import { existsSync } from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type FileChooser,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';
import { startTestServer, type TestServer } from './server';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(`Chromium suites SKIPPED: ${CHROMIUM} is not installed (apt-get install -y chromium).`);
}

/** Debian's Chromium, headless; each `browser.newContext()` is a fresh profile with no cookies. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs the admin in from the login screen with the keyboard only, and waits for the home screen. */
export async function signInByKeyboard(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel(ptPT.login.email).focus();
  await page.keyboard.type(server.adminEmail);
  await page.keyboard.press('Tab');
  await page.keyboard.type(server.adminPassword);
  await page.keyboard.press('Enter');
  // In whichever language the page is in (the login labels are the same in both).
  await page
    .getByRole('heading', { name: new RegExp(`^(${ptPT.routes.home}|${enGB.routes.home})$`), level: 1 })
    .waitFor();
}

/** One test's page, in a fresh context, and the errors it has shown so far. */
export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and, if asked for, console errors but the expected 401s; a test may drop the ones it expects. */
  errors: string[];
}

export async function openTestPage(
  browser: Browser,
  options: BrowserContextOptions,
  { consoleErrors = false } = {},
): Promise<TestPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const opened: TestPage = { context, page, errors: [] };
  // CSP violations and uncaught exceptions surface here; expected 401s are plain network noise.
  page.on('pageerror', (e) => opened.errors.push(e.message));
  if (consoleErrors)
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 401')) opened.errors.push(m.text());
    });
  return opened;
}

/** Fails the test on any error its page showed, then closes the context. */
export async function closeTestPage({ context, errors }: TestPage): Promise<void> {
  expect(errors).toEqual([]);
  await context.close();
}

/** Presses `key` until the focused element reads `text` (a menu's item), at most `limit` times. */
export async function pressUntil(page: Page, key: string, text: string, limit = 15): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
    if (focused === text) return;
    await page.keyboard.press(key);
  }
  throw new Error(`"${text}" never focused`);
}

/** Keyboard only: Tab (bounded) until the focused element matches. */
export async function tabTo(page: Page, matches: (el: Element) => boolean, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (
      await page.evaluate(
        (src) => new Function('el', `return (${src})(el)`)(document.activeElement),
        matches.toString(),
      )
    )
      return;
  }
  throw new Error(`nothing focusable matched ${matches.toString()} within ${limit} Tab presses`);
}

/**
 * Opens the focused file input's chooser with Space, as a keyboard user does, and picks `file`. Headless
 * Chromium now and then drops the first chooser of a page (seen once in ~50 CI runs), so Space is pressed
 * again, at most three times in all, each waiting a few seconds — never a chooser opened twice.
 */
export async function chooseFileByKeyboard(
  page: Page,
  file: Parameters<FileChooser['setFiles']>[0],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
    await page.keyboard.press('Space');
    try {
      await (await chooser).setFiles(file);
      return;
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error && error.name === 'TimeoutError')) throw error;
    }
  }
}

/**
 * A Chromium suite's product (as `npm start` serves it, on the demo seed) and browser: started before
 * the suite's tests, stopped after them. Read `server` and `browser` inside the tests.
 */
export function chromiumSuite(): { readonly server: TestServer; readonly browser: Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('the suite has not started');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the suite has not started');
      return browser;
    },
  };
}
