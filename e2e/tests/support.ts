import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-2026!';

/** Signs in on the identity provider's login page (the app sends the browser there). */
export async function signInOnLoginPage(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the app and signs in; resolves when the account home shows its heading. */
export async function openSignedIn(page: Page, email: string, path = '/'): Promise<void> {
  await page.goto(path);
  await signInOnLoginPage(page, email);
  await expect(page).toHaveURL(/\/[A-Z]{2}\/[a-z]{2}\/myaccount$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** The app's texts in one language, from the content files the server serves. */
export function texts(language: string): Record<string, string> {
  const file = new URL(`../../content/translations/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * Makes the server fail this page's requests whose path starts with `pathPrefix` (test mode only).
 * The fault is scoped to the page through the X-Fault-Scope header, so tests running side by side
 * against the same server are not affected.
 */
export async function injectFault(
  page: Page,
  fault: { pathPrefix: string; status: number; times?: number; method?: string },
): Promise<void> {
  const scope = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await page.setExtraHTTPHeaders({ 'X-Fault-Scope': scope });
  const res = await page.request.post('/__test__/faults', { data: { times: 0, ...fault, scope } });
  expect(res.status()).toBe(204);
}
