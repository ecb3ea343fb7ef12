import { tierSlugs } from '@roadpass/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { carouselTiming } from '../../apps/web/src/components/carousel/carousel-timing.js';
import { expectSettledOn, fill, loyaltyTexts, openLoyalty, texts } from './support.js';

// demo.de@example.com is read here only: royal gold, the 3rd of the 4 tiers.
const email = 'demo.de@example.com';

declare global {
  interface Window {
    /** When the carousel appeared and each change of the pager's current dot (performance.now()). */
    carouselTimeline?: { appearedAt: number | null; changes: { at: number; current: string | null }[] };
  }
}

/** Records in the page when the carousel appears and when its current dot changes. */
async function recordCarouselTimeline(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const timeline: NonNullable<Window['carouselTimeline']> = { appearedAt: null, changes: [] };
    window.carouselTimeline = timeline;
    let last: string | null = null;
    new MutationObserver(() => {
      const carousel = document.querySelector('[role="region"][aria-roledescription]');
      if (!carousel) return;
      timeline.appearedAt ??= performance.now();
      const current =
        carousel.querySelector('button[aria-current="true"]')?.getAttribute('aria-label') ?? null;
      if (current !== last) timeline.changes.push({ at: performance.now(), current });
      last = current;
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-current'],
    });
  });
}

/** Drags `card` horizontally with the mouse (pointer events) by dx px in small steps. */
async function swipe(page: Page, card: Locator, dx: number, whileHeld?: () => Promise<void>): Promise<void> {
  const box = (await card.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: Math.max(5, Math.round(Math.abs(dx) / 8)) });
  await whileHeld?.();
  await page.mouse.up();
}

test.describe('the tier carousel', () => {
  test('starts on the customer tier, swipes one card per 70 px, snaps back under 70 px, and works by keyboard', async ({
    page,
  }, testInfo) => {
    const language = testInfo.project.name === 'phone' ? 'de' : 'en';
    const t = texts(language);
    const tierNames = tierSlugs.map((slug) => loyaltyTexts(language).tiers[slug]!.title);
    const cardName = (index: number) =>
      fill(t['loyalty-tiers-card-label'], { tier: tierNames[index]!, index: index + 1, count: 4 });
    await recordCarouselTimeline(page);
    await openLoyalty(page, email, '/tier-overview', language === 'de' ? undefined : language);

    const carousel = page.getByRole('region', { name: t['loyalty-tiers-carousel-label'] });
    // Cards out of view are inert and hidden from assistive technology: only shown cards have a role.
    const card = (index: number) => carousel.getByRole('group', { name: cardName(index) });
    const dot = (index: number) =>
      carousel.getByRole('button', { name: fill(t['carousel-go-to'], { index: index + 1, count: 4 }) });
    const announcement = carousel.locator('[aria-live="polite"]');

    // With pagination the carousel starts on the first card and moves to the customer's tier (royal
    // gold, the 3rd card) 1000 ms after it appeared, without announcing it.
    await expect(dot(2)).toHaveAttribute('aria-current', 'true');
    await expect(card(2)).toBeVisible();
    await expect(card(2).getByText(t['loyalty-tiers-your-tier']!, { exact: true })).toBeVisible();
    const timeline = (await page.evaluate(() => window.carouselTimeline))!;
    const firstDot = fill(t['carousel-go-to'], { index: 1, count: 4 });
    const tierDot = fill(t['carousel-go-to'], { index: 3, count: 4 });
    expect(timeline.changes.map((change) => change.current)).toEqual([firstDot, tierDot]);
    const movedAfter = timeline.changes[1]!.at - timeline.appearedAt!;
    // The observer notices the carousel a little after the carousel's own timer starts (a task later,
    // more on a busy machine: a CI run measured 994 ms), so the lower bound allows 100 ms for that; a
    // carousel that moved at once would show up near 0 ms.
    expect(movedAfter).toBeGreaterThanOrEqual(carouselTiming.initialScrollDelay - 100);
    expect(movedAfter).toBeLessThan(carouselTiming.initialScrollDelay + 1_500);
    await expect(announcement).toHaveText('');
    await expectSettledOn(carousel, card(2));
    // A phone shows a peek of the next card (inert); a desktop shows it whole, next to the current one.
    const wide = testInfo.project.name === 'desktop';
    await expect(card(3)).toHaveCount(wide ? 1 : 0);

    // 50 px: the cards follow the pointer, then settle back on the same card.
    const before = (await card(2).boundingBox())!;
    await swipe(page, card(2), -50, async () => {
      const held = (await card(2).boundingBox())!;
      expect(held.x).toBeLessThan(before.x - 40);
    });
    await expectSettledOn(carousel, card(2));
    await expect(dot(2)).toHaveAttribute('aria-current', 'true');
    await expect(card(3)).toHaveCount(wide ? 1 : 0);
    await expect(announcement).toHaveText('');

    // 80 px to the left: the next card becomes current and is announced.
    await swipe(page, card(2), -80);
    await expect(dot(3)).toHaveAttribute('aria-current', 'true');
    await expect(dot(2)).not.toHaveAttribute('aria-current');
    await expect(announcement).toHaveText(cardName(3));
    await expect(card(3)).toBeVisible();
    await expectSettledOn(carousel, card(3));
    await expect(card(2)).toHaveCount(0);

    // 90 px back to the right: the previous card again.
    await swipe(page, card(3), 90);
    await expect(dot(2)).toHaveAttribute('aria-current', 'true');
    await expect(announcement).toHaveText(cardName(2));
    await expectSettledOn(carousel, card(2));

    // The keyboard: arrow keys move one card and announce it.
    await carousel.focus();
    await page.keyboard.press('ArrowRight');
    await expect(dot(3)).toHaveAttribute('aria-current', 'true');
    await expect(announcement).toHaveText(cardName(3));
    await expectSettledOn(carousel, card(3));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(dot(1)).toHaveAttribute('aria-current', 'true');
    await expect(announcement).toHaveText(cardName(1));
    await expectSettledOn(carousel, card(1));
    await expect(carousel).toBeFocused();
  });

  test('shows whole cards of their own height, with the pager in reach at once', async ({
    page,
  }, testInfo) => {
    await openLoyalty(page, email, '/tier-overview');
    const carousel = page.getByRole('region').and(page.locator('[aria-roledescription]'));
    const dots = carousel.getByRole('group').getByRole('button');
    await expect(dots).toHaveCount(4);
    await expect(dots.nth(2)).toHaveAttribute('aria-current', 'true', { timeout: 5_000 });
    await page.waitForTimeout(carouselTiming.settleDuration + 200);

    // Issue 7, defect 3: the dots came after about 2 400 px of scrolling; now in the first screen.
    for (const dot of await dots.all()) {
      await expect(dot).toBeInViewport();
      const box = (await dot.boundingBox())!;
      // WCAG 2.2 (2.5.8): a 24 × 24 px target around each 10 px dot.
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    // Each card is as tall as its content (Royal Gold was stretched to the tallest one).
    const cards = carousel.locator('.carousel__card');
    const heights = await cards.evaluateAll((elements) =>
      elements.map((e) => e.getBoundingClientRect().height),
    );
    expect(new Set(heights.map(Math.round)).size).toBeGreaterThan(1);

    // Issue 7, defect 2: on a desktop the neighbours were cut mid-word and the first card was offset.
    const viewport = (await carousel.locator('.carousel__viewport').boundingBox())!;
    const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    const shown = [];
    for (const card of await cards.all()) {
      const box = (await card.boundingBox())!;
      const overlap = Math.min(box.x + box.width, viewport.x + viewport.width) - Math.max(box.x, viewport.x);
      if (overlap <= 0) continue;
      shown.push(box);
      if (testInfo.project.name === 'desktop') {
        expect(box.x).toBeGreaterThanOrEqual(viewport.x - 1);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.x + viewport.width + 1);
      }
    }
    expect(Math.abs(shown[0]!.x - heading.x)).toBeLessThanOrEqual(1);
    if (testInfo.project.name === 'desktop') expect(shown).toHaveLength(2);
  });
});
