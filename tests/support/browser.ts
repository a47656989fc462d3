import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import ptPT from '../../locales/pt-PT.json';
import type { TestServer } from './server';

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
  await page.getByRole('heading', { name: ptPT.routes.home, level: 1 }).waitFor();
}
