import { expect, test } from '@playwright/test';
import { apiPaths } from '@roadpass/contracts';
import { callAsTheApp, openSignedIn } from './support';

// Issue 20 §3 (decision 0044): the browser's tokens are bound to a non-extractable key in IndexedDB;
// every token request and API call of the app carries a DPoP proof, and a token copied out of the
// browser is useless elsewhere.
test('the app binds its tokens with DPoP; a copied token is refused', async ({ page }) => {
  const tokenRequests: { dpop: string | undefined; grant: string | undefined }[] = [];
  const apiCalls: { authorization: string | undefined; dpop: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const headers = request.headers();
    if (url.pathname.endsWith('/protocol/openid-connect/token') && request.method() === 'POST')
      tokenRequests.push({
        dpop: headers.dpop,
        grant: new URLSearchParams(request.postData() ?? '').get('grant_type') ?? undefined,
      });
    if (url.pathname.startsWith('/api/customer/'))
      apiCalls.push({ authorization: headers.authorization, dpop: headers.dpop });
  });

  await openSignedIn(page, 'demo.at@example.com');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lukas Gruber');

  // The code exchange carried a proof; the API calls carry the DPoP scheme and a proof each, never
  // the same one twice.
  expect(tokenRequests.length).toBeGreaterThan(0);
  expect(tokenRequests.every((r) => r.dpop?.split('.').length === 3)).toBe(true);
  expect(apiCalls.length).toBeGreaterThan(0);
  for (const call of apiCalls) {
    expect(call.authorization).toMatch(/^DPoP ey/);
    expect(call.dpop?.split('.').length).toBe(3);
  }
  expect(new Set(apiCalls.map((c) => c.dpop)).size).toBe(apiCalls.length);

  // The key cannot be read out of the browser.
  const extractable = await page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open('roadpass-dpop');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('keys').objectStore('keys').get('portal-client');
          get.onsuccess = () => resolve((get.result as { keys: CryptoKeyPair }).keys.privateKey.extractable);
        };
      }),
  );
  expect(extractable).toBe(false);

  // The token copied out of session storage: as a bearer token, and with a proof of another key.
  const asBearer = await callAsTheApp(page, 'GET', apiPaths.loginStatus, { scheme: 'Bearer' });
  expect(asBearer.status).toBe(401);
  expect(asBearer.headers['www-authenticate']).toMatch(/^DPoP /);
  const otherKey = await callAsTheApp(page, 'GET', apiPaths.loginStatus, { proofKey: 'other' });
  expect(otherKey.status).toBe(401);
  expect(otherKey.headers['www-authenticate']).toMatch(/error="invalid_dpop_proof"/);
  // With the browser's own key it works.
  expect((await callAsTheApp(page, 'GET', apiPaths.loginStatus)).status).toBe(200);

  // A renewal (the refresh token is bound too) carries a proof as well.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lukas Gruber');
  const refresh = await page.evaluate(async () => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
    return JSON.parse(sessionStorage.getItem(key)!) as { token_type: string };
  });
  expect(refresh.token_type).toBe('DPoP');

  // Site data cleared in part (the key's IndexedDB, not the tab's session storage): the stored tokens
  // are useless without the key, so the app signs in afresh (here silently: the realm's session is
  // still there) with a new key instead of failing at start.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin: new URL(page.url()).origin,
    storageTypes: 'indexeddb',
  });
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  const grants: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/protocol/openid-connect/token') && request.method() === 'POST')
      grants.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '');
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lukas Gruber');
  expect((await callAsTheApp(page, 'GET', apiPaths.loginStatus)).status).toBe(200);
  // Straight to a new sign-in: the dead tokens were neither sent to the API nor refreshed.
  expect(grants).toEqual(['authorization_code']);
  expect(refused).toEqual([]);
});
