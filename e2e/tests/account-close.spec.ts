import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiPaths, CSRF_HEADER } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestMessage } from './outbox.js';
import { callAsTheApp, exclusively, fill, openSignedIn, signInOnLoginPage, texts } from './support.js';

// "Close my account" (docs/product/data-rights.md#close-my-account) against the real server: what the
// rental system reports stops it; without blockers the deletion is scheduled, the other sessions end,
// an e-mail confirms the date, signing in again (any page) leads to "Your account will be deleted on
// …", and "Keep my account" cancels it. The steps do not change with the screen: phone size only. The
// customer's other specs take the same lock, so none of them runs while the account is closing.
const who = { email: 'demo.dk@example.com', country: 'DK', language: 'da', legalEntityId: 37 };
const t = texts(who.language);

/** The rental system's service token (client credentials; playwright.config sets the secret). */
async function serviceToken(request: APIRequestContext): Promise<string> {
  const basic = Buffer.from(`rental-system:${process.env.E2E_SERVICE_SECRET}`).toString('base64');
  const answer = await request.post('/auth/realms/customer/protocol/openid-connect/token', {
    headers: { authorization: `Basic ${basic}` },
    form: { grant_type: 'client_credentials', scope: 'loyalty:events' },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function reportBlockers(
  request: APIRequestContext,
  customerId: string,
  blockers: { kind: string; reference: string }[],
): Promise<void> {
  const answer = await request.put(apiPaths.internalDeletionBlockers(customerId), {
    headers: { authorization: `Bearer ${await serviceToken(request)}` },
    data: { legalEntityId: who.legalEntityId, blockers },
  });
  expect(answer.status()).toBe(200);
}

/**
 * A call with the page's session as the app makes it (its DPoP-bound token and a proof, decision 0044),
 * with the anti-forgery token for changes.
 */
async function call(page: Page, method: 'GET' | 'POST' | 'DELETE', path: string) {
  const headers: Record<string, string> = {};
  if (method !== 'GET') {
    const status = await callAsTheApp(page, 'GET', apiPaths.loginStatus);
    headers[CSRF_HEADER] = status.headers[CSRF_HEADER.toLowerCase()]!;
  }
  const answer = await callAsTheApp(page, method, path, { headers });
  return { status: () => answer.status, json: async () => answer.body };
}

async function customerId(page: Page): Promise<string> {
  const answer = await call(page, 'GET', apiPaths.loginStatus);
  return ((await answer.json()) as { user: { uuid: string } }).user.uuid;
}

test('a blocker reported by the rental system stops closing the account and says where to settle it', async ({
  page,
}) => {
  await exclusively(who.email, async () => {
    await openSignedIn(page, who.email);
    const id = await customerId(page);
    await reportBlockers(page.request, id, [{ kind: 'unpaid_invoice', reference: 'INV-E2E-1' }]);
    try {
      await page.goto(routes.account.close.build(who.country, who.language));
      // The card's heading is styled as every card's (28 Nov: the page loaded none of its styles).
      await expect(page.getByRole('heading', { level: 2, name: t['close-what-title'] })).toHaveCSS(
        'font-size',
        '18px',
      );
      const alert = page.getByRole('alert');
      await expect(alert.getByRole('heading', { name: t['close-blocked-title'] })).toHaveCSS(
        'font-size',
        '16px',
      );
      await expect(alert).toContainText(
        // The country by its name in the customer's language (Danish: "Danmark"), not its code.
        fill(t['close-blocker-unpaid_invoice'], { country: 'Danmark', reference: 'INV-E2E-1' }),
      );
      await expect(alert).toContainText(t['close-blocked-where']!);
      await expect(page.getByRole('button', { name: t['close-ask'] })).toHaveCount(0);
      // Asked for anyway, the server refuses it.
      const refused = await call(page, 'POST', apiPaths.accountDeletion);
      expect(refused.status()).toBe(409);
      expect(((await refused.json()) as { code: string }).code).toBe('deletion_blocked');
    } finally {
      await reportBlockers(page.request, id, []);
    }
  });
});

test('closing the account: date shown, other sessions end, e-mail; signing in again leads to "Keep my account"', async ({
  page,
  browser,
}) => {
  await exclusively(who.email, async () => {
    const elsewhere = await browser.newContext();
    const again = await browser.newContext();
    try {
      const otherPage = await elsewhere.newPage();
      await openSignedIn(otherPage, who.email);
      await openSignedIn(page, who.email);
      const asked = new Date().toISOString();

      await page.goto(routes.account.close.build(who.country, who.language));
      await page.getByRole('button', { name: t['close-ask'] }).click();
      const dialog = page.getByRole('dialog', { name: t['close-confirm-title'] });
      await dialog.getByRole('button', { name: t['close-confirm'] }).click();
      const scheduled = page.getByRole('heading', { level: 2, name: /.+/ }).filter({
        hasText: t['close-scheduled-title']!.split('{{')[0]!.trim(),
      });
      await expect(scheduled).toBeVisible();
      const status = (await (await call(page, 'GET', apiPaths.accountDeletion)).json()) as {
        deletion: { scheduledFor: string };
      };
      const date = new Intl.DateTimeFormat('da', { dateStyle: 'long' }).format(
        new Date(status.deletion.scheduledFor),
      );
      await expect(scheduled).toHaveText(fill(t['close-scheduled-title'], { date }));
      // 30 days ahead (DELETION_GRACE_DAYS).
      const days = (Date.parse(status.deletion.scheduledFor) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);

      // The other session has ended: its token is refused.
      const ended = await call(otherPage, 'GET', apiPaths.loginStatus);
      expect(ended.status()).toBe(401);
      // The e-mail confirms the date.
      const mail = await newestMessage(page.request, who.email, 'deletion-scheduled', asked);
      expect(mail.text).toContain(date);

      // Signing in again, straight into the loyalty app: the deletion notice comes first.
      const next = await again.newPage();
      await next.goto(routes.loyalty.status.href());
      await signInOnLoginPage(next, who.email);
      await expect(next.getByRole('heading', { level: 1, name: t['close-title'] })).toBeVisible();
      await expect(
        next.getByRole('heading', { level: 2, name: fill(t['close-scheduled-title'], { date }) }),
      ).toBeVisible();
      await next.getByRole('button', { name: t['close-keep'] }).click();
      // Kept: the page asked for shows, and nothing is scheduled any more.
      await expect(next.getByRole('heading', { level: 1, name: t['close-title'] })).toHaveCount(0);
      await expect(next).toHaveURL(/\/loyalty-ui\/status/);
      const kept = (await (await call(next, 'GET', apiPaths.accountDeletion)).json()) as {
        deletion: unknown;
      };
      expect(kept.deletion).toBeNull();
    } finally {
      // Whatever happened, the demo customer is not left closing.
      const cleanup = await again.newPage();
      await cleanup.goto('/');
      await cleanup.waitForURL(/\/myaccount$|\/auth\/realms\//);
      if (cleanup.url().includes('/auth/realms/')) await signInOnLoginPage(cleanup, who.email);
      await expect(cleanup.getByRole('heading', { level: 1 })).toBeVisible();
      await call(cleanup, 'DELETE', apiPaths.accountDeletion);
      await elsewhere.close();
      await again.close();
    }
  });
});
