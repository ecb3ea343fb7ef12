import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { routes } from '../../apps/web/src/config/routes.js';
import {
  addVirtualAuthenticator,
  freePort,
  newCustomer,
  openSignedIn,
  signInOnLoginPage,
  texts,
} from './support.js';

// Issue 18 §5 (docs/product/security.md#step-up): every change that needs a recent sign-in, met with a
// sign-in that really is too old. This spec starts a server of its own whose window is 10 s
// (RECENT_SIGN_IN_SECONDS; 600 s in production), so the server's own check refuses the change, the
// app sends the customer through the sign-in and back, and the change goes through. The four
// customers sign in side by side and age together, so the spec waits for the window once.
const WINDOW_SECONDS = 10;
const t = texts('de');

const port = await freePort();
const baseURL = `http://localhost:${port}`;
test.use({ baseURL });

let server: ChildProcess | undefined;
let dataDir: string | undefined;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-step-up-'));
  server = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS),
      // The test endpoints (test mode only): new customers of the spec's own.
      FAULT_INJECTION: 'true',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
  });
  for (let i = 0; ; i += 1) {
    const ready = await fetch(`${baseURL}/config.json`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (i > 300) throw new Error('the step-up server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

test.afterAll(() => {
  server?.kill();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A page of its own (a browser of its own), signed in as a new German customer. */
async function signedInCustomer(browser: Browser, email: string, withAuthenticator = false): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (withAuthenticator) await addVirtualAuthenticator(page);
  await openSignedIn(page, email);
  return page;
}

/**
 * Presses what makes the change; expects the server's refusal for an old sign-in, the sign-in page
 * asking for the password again (max_age=0), and the way back to the same page.
 */
async function stepUp(page: Page, email: string, press: () => Promise<void>, back: RegExp): Promise<void> {
  const refused = page.waitForResponse((res) => res.url().includes('/api/') && res.status() === 403);
  const freshSignIn = page.waitForRequest(
    (r) => r.url().includes('/auth/realms/customer/') && new URL(r.url()).searchParams.get('max_age') === '0',
  );
  await press();
  // The server's refusal (403 recent_sign_in_required; its body is gone once the page navigates).
  await refused;
  await freshSignIn;
  await signInOnLoginPage(page, email, undefined, 'de');
  await expect(page).toHaveURL(back);
}

test('an old sign-in: e-mail change, data download, passkey and closing the account each go through a new sign-in and back', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const [profileEmail, downloadEmail, passkeyEmail, closeEmail] = await Promise.all(
    [1, 2, 3, 4].map(() => newCustomer(request, 'DE')),
  );
  const profile = await signedInCustomer(browser, profileEmail!);
  const download = await signedInCustomer(browser, downloadEmail!);
  const passkey = await signedInCustomer(browser, passkeyEmail!, true);
  const close = await signedInCustomer(browser, closeEmail!);
  const lastSignIn = Date.now();

  // Each on the page of its change; the e-mail field typed in before the window passes.
  await profile.goto(routes.account.profile.build('DE', 'de'));
  const field = profile.getByRole('textbox', { name: new RegExp(`^${t['profile-field-email']}`) });
  const next = profileEmail!.replace('e2e-', 'e2e-new-');
  await field.fill(next);
  await download.goto(routes.account.privacy.build('DE', 'de'));
  await passkey.goto(routes.account.passkeys.build('DE', 'de'));
  await close.goto(routes.account.close.build('DE', 'de'));
  await expect(close.getByRole('button', { name: t['close-ask'] })).toBeVisible();

  // Every sign-in is now older than the window.
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, lastSignIn + (WINDOW_SECONDS + 1) * 1000 - Date.now())),
  );

  // E-mail address: back on the form with what was typed; the save goes through.
  await stepUp(
    profile,
    profileEmail!,
    () => profile.getByRole('button', { name: t['profile-submit'] }).click(),
    /\/DE\/de\/myaccount\/profile$/,
  );
  await expect(field).toHaveValue(next);
  await profile.getByRole('button', { name: t['profile-submit'] }).click();
  await expect(profile.getByRole('status').filter({ hasText: t['profile-saved']! })).toBeVisible();

  // Data download: back on the privacy page, the button pressed again builds the copy.
  const start = () => download.getByRole('button', { name: t['download-start'] }).click();
  await stepUp(download, downloadEmail!, start, /\/DE\/de\/myaccount\/privacy$/);
  await start();
  await expect(download.getByRole('status')).toContainText(t['download-ready']!.split('{{')[0]!.trim());

  // Passkey: back on the passkeys page, the customer presses again (the browser's dialog needs it).
  const add = () => passkey.getByRole('button', { name: t['passkeys-add'] }).click();
  await stepUp(passkey, passkeyEmail!, add, /\/DE\/de\/myaccount\/security\/passkeys$/);
  await add();
  await expect(passkey.locator('.passkeys__item')).toHaveCount(1);

  // Closing the account: asked and confirmed, refused for the old sign-in, then asked again.
  const askToClose = async () => {
    await close.getByRole('button', { name: t['close-ask'] }).click();
    await close
      .getByRole('dialog', { name: t['close-confirm-title'] })
      .getByRole('button', { name: t['close-confirm'] })
      .click();
  };
  await stepUp(close, closeEmail!, askToClose, /\/DE\/de\/myaccount\/close$/);
  await askToClose();
  const [before, after] = t['close-scheduled-title']!.split('{{date}}');
  await expect(
    close.getByRole('heading', { level: 2, name: new RegExp(`^${before}.+${after}$`) }),
  ).toBeVisible();
});
