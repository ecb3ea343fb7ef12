import { expect, test } from '@playwright/test';
import { apiPaths } from '@roadpass/contracts';

// Issue 21 §7: the API reference for the rental system's and the native apps' developers, served by
// the server itself under its CSP: no file from elsewhere, no CSP violation.
test.describe('the API reference page', () => {
  test('shows the operations of the OpenAPI document, with no CSP violation', async ({ page }) => {
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (res) => {
      if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
        (window as unknown as { cspViolations: string[] }).cspViolations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });

    const response = await page.goto(apiPaths.apiReference);
    expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-(eval|inline)/);
    await expect(page.getByRole('heading', { name: /Roadpass API/ })).toBeVisible();
    // A known operation: the login status call, with its method.
    const loginStatus = page.locator('.opblock').filter({ hasText: apiPaths.loginStatus }).first();
    await expect(loginStatus).toBeVisible();
    await expect(loginStatus.locator('.opblock-summary-method')).toHaveText('GET');
    // Opened, it shows its answers; it offers no "Try it out" (a read-only reference).
    await loginStatus.locator('.opblock-summary-control').click();
    await expect(loginStatus.getByRole('heading', { name: 'Responses' })).toBeVisible();
    await expect(loginStatus.getByRole('button', { name: 'Try it out' })).toHaveCount(0);
    // The internal events call of the rental system is there too.
    await expect(page.locator('.opblock').filter({ hasText: apiPaths.internalLoyaltyEvents })).toHaveCount(1);

    const origin = new URL(page.url()).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []),
    ).toEqual([]);
    expect(errors).toEqual([]);
  });
});
