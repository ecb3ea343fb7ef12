import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { newestLinkPath, newestMessage } from './outbox.js';

// Read only: the demo newsletter e-mails are looked at and their links looked up, never used.
test.describe('the development outbox', () => {
  test('shows the demo newsletters with their unsubscribe links, readable and accessible', async ({
    page,
  }) => {
    await page.goto(appPaths.devOutbox);
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
    const link = page.getByRole('link', { name: /\/newsletter\/unsubscribe\// }).first();
    await expect(link).toBeVisible();
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()!.width,
    );
  });

  test('answers JSON whose links lead to the address they were sent to', async ({ page }) => {
    const mail = await newestMessage(page.request, 'demo.it@example.com', 'newsletter');
    expect(mail.subject).toBe('Le novità di Roadpass');
    const path = await newestLinkPath(page.request, 'demo.it@example.com', 'newsletter');
    expect(path.startsWith(appPaths.newsletterUnsubscribe(''))).toBe(true);
    const token = decodeURIComponent(new URL(path, 'http://localhost').pathname.split('/').pop()!);
    const lookup = await page.request.get(apiPaths.unsubscribeLookup(token));
    expect(lookup.status()).toBe(200);
    expect(await lookup.json()).toEqual({ email: 'demo.it@example.com' });
  });
});
