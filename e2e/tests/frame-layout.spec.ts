import { expect, test, type Page } from '@playwright/test';
import { apiPaths, languages } from '@roadpass/contracts';
import { focusRingContrasts } from './contrast.js';
import {
  exclusively,
  injectFault,
  loyaltyUrl,
  openLoyalty,
  openSignedIn,
  texts,
  readers,
} from './support.js';

// Issue 17: the frame around every page (top bar, skip link, toasts) in every language and size.

/** The top bar's rows: how many distinct lines its brand and controls sit on, and its height. */
async function topBarRows(page: Page): Promise<{ rows: number; height: number }> {
  return page.locator('.top-bar').evaluate((bar) => {
    const controls = Array.from(bar.querySelectorAll('a, button')).map((element) =>
      element.getBoundingClientRect(),
    );
    const centres = new Set(controls.map((box) => Math.round((box.top + box.bottom) / 2)));
    return { rows: centres.size, height: bar.getBoundingClientRect().height };
  });
}

test.describe('the top bar keeps one row', () => {
  for (const language of languages) {
    // Runs once (desktop project), at the two phone widths it sets itself.
    test(`in ${language} at 390 and 320 px @desktop-size-only`, async ({ page }) => {
      const reader = readers[language]!;
      const t = texts(language);
      await exclusively(reader.email, async () => {
        await openLoyalty(page, reader.email, '/status', `${language}-${reader.country}`);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        const nav = page.getByRole('navigation', { name: t['nav-label'] });
        await expect(nav.getByRole('link', { name: t['nav-loyalty'], exact: true })).toBeVisible();
        for (const width of [390, 320]) {
          await page.setViewportSize({ width, height: 700 });
          // Sign out keeps its words as its name where only its icon shows.
          await expect(nav.getByRole('button', { name: t['sign-out'], exact: true })).toBeVisible();
          expect(await topBarRows(page), `${language} at ${width} px`).toEqual({ rows: 1, height: 56 });
          expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
        }
      });
    });
  }
});

test.describe('focus rings stand out (WCAG 1.4.11) and nothing covers the focus (2.4.11)', () => {
  test('the skip link ring against the page', async ({ page }) => {
    const t = texts('it');
    await openSignedIn(page, 'demo.it@example.com');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('body').press('Tab');
    const skip = page.getByRole('link', { name: t['skip-to-content'] });
    await expect(skip).toBeFocused();
    const contrasts = await focusRingContrasts(skip);
    for (const [side, ratio] of Object.entries(contrasts))
      expect(ratio, `${side} side`).toBeGreaterThanOrEqual(3);
  });

  /** Opens the account home and makes an error toast: saving the language fails once (nothing changes). */
  async function withToast(page: Page) {
    const de = texts('de');
    const en = texts('en');
    await openSignedIn(page, 'demo.de@example.com');
    await injectFault(page, { pathPrefix: apiPaths.personalData, method: 'POST', status: 400, times: 1 });
    await page.getByRole('combobox', { name: de['language-label'] }).selectOption('en');
    const toast = page.getByRole('status').filter({ hasText: en['language-save-failed']! });
    await expect(toast).toBeVisible();
    return { toast, en };
  }

  test("a toast's close button: its ring against the toast", async ({ page }) => {
    await exclusively('demo.de@example.com', async () => {
      const { toast, en } = await withToast(page);
      const close = toast.getByRole('button', { name: en['toast-dismiss'] });
      await close.focus();
      await expect(close).toBeFocused();
      const contrasts = await focusRingContrasts(close);
      for (const [side, ratio] of Object.entries(contrasts))
        expect(ratio, `${side} side`).toBeGreaterThanOrEqual(3);
    });
  });

  test('a toast does not cover the focused carousel button on the tier overview', async ({ page }) => {
    await exclusively('demo.de@example.com', async () => {
      const { toast, en } = await withToast(page);
      // The toast stays for a few seconds; on the tier overview a carousel button takes the focus
      // while the page is scrolled so that it is under the toast.
      await page.evaluate((address) => {
        window.history.pushState(null, '', address);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, loyaltyUrl('/tier-overview'));
      const previous = page.getByRole('button', { name: en['carousel-previous'] });
      await expect(previous).toBeVisible();
      await expect(toast).toBeVisible();
      const toastBox = (await toast.boundingBox())!;
      await previous.evaluate((button, under) => {
        window.scrollBy(0, button.getBoundingClientRect().top - under);
      }, toastBox.y + 8);
      await previous.focus();
      await expect(previous).toBeFocused();
      await expect(toast).toBeVisible();
      const focused = (await previous.boundingBox())!;
      const covered = focused.y < toastBox.y + toastBox.height && focused.y + focused.height > toastBox.y;
      expect(covered, 'the focused button is under the toast').toBe(false);
    });
  });
});
