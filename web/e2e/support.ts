import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
const shots = path.resolve(import.meta.dirname, 'screenshots');

/** Saves a screenshot once Ant Design's animations have settled (web/e2e/screenshots, not committed). */
export async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shots, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  // Browser-side failures belong in the test log, where CI shows them.
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[console] ${message.text()}`);
  });
  await page.goto('/login');
  await page.getByTestId('login-identifier').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** A page in English: the stored language choice, as the top-bar switch leaves it. */
export async function useEnglish(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
}
