import { expect, test } from '@playwright/test';
import { apiPaths, type LoyaltyExpiryForecast } from '@roadpass/contracts';
import { scrollsSideways } from './reflow.js';
import {
  askedWhileHeldBack,
  customerApi,
  fill,
  formatPoints,
  loyaltyAddress,
  loyaltyProgramme,
  loyaltyTexts,
  openLoyalty,
  texts,
  tierDetailsOf,
} from './support.js';

// demo.de@example.com is read here only: royal gold, 250 history entries (docs/product/demo-data.md#demo-customers).
const email = 'demo.de@example.com';

test.describe('the loyalty status page', () => {
  for (const language of ['de', 'en'] as const) {
    test(`shows the member's tier and points (${language})`, async ({ page }) => {
      // German is the customer's own language; English comes from the locale query parameter.
      await openLoyalty(page, email, '/status', language === 'de' ? undefined : language);
      const t = texts(language);
      const details = await tierDetailsOf(page);
      expect(details.tier).toBe('royal-gold');

      await expect(page).toHaveURL(loyaltyAddress('/status'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-status-title'] })).toBeVisible();
      const tierName = loyaltyTexts(language).tiers['royal-gold']!.title;
      await expect(page.getByText(t['loyalty-status-tier-label']!, { exact: true })).toBeVisible();
      await expect(page.getByText(tierName, { exact: true })).toBeVisible();

      // The points exactly as the API reports them, written the way the language writes numbers.
      // The demo customer has thousands of points, so the separator shows: 4.500 in German, 4,500 in
      // English (issue 10: English readers in Germany saw the German 4.500).
      const points = formatPoints(details.points, language, 'DE');
      expect(points).toMatch(language === 'de' ? /^\d{1,3}(\.\d{3})+$/ : /^\d{1,3}(,\d{3})+$/);
      await expect(page.getByText(t['loyalty-status-points-label']!, { exact: true })).toBeVisible();
      await expect(page.getByText(points, { exact: true })).toBeVisible();

      // How far to the next tier (its threshold is content), with a progress bar named after it.
      const nextTier = loyaltyTexts(language).tiers['sapphire-diamond']!.title;
      const threshold = loyaltyProgramme().tiers.find((tier) => tier.slug === 'sapphire-diamond')!.threshold;
      const toNext = fill(t['loyalty-status-to-next-tier'], {
        points: formatPoints(threshold - details.points, language, 'DE'),
        tier: nextTier,
      });
      await expect(page.getByText(toNext, { exact: true })).toBeVisible();
      await expect(page.getByRole('progressbar', { name: new RegExp(nextTier) })).toBeVisible();

      // The way on to the other loyalty screens.
      await expect(page.getByRole('link', { name: t['loyalty-link-tier-overview'] })).toBeVisible();
      await expect(page.getByRole('link', { name: t['loyalty-link-history'] })).toBeVisible();
    });
  }

  test('a start on the status page asks for its figures beside the customer, once, not after it', async ({
    page,
  }) => {
    // page-data.ts (1 Dec): the figures need only the token, so start-up asks for them while the
    // customer loads; before, the page asked once the customer had answered, a round trip later.
    await openLoyalty(page, email, '/status');
    const tierDetails = /\/loyalty-service\/customer\/[^/]+$/;
    const beforeCustomer = await askedWhileHeldBack(page, '**/login/own/status');
    const figures: string[] = [];
    page.on('request', (request) => {
      if (tierDetails.test(new URL(request.url()).pathname)) figures.push(request.url());
    });
    const askedBeforeCustomer = beforeCustomer(tierDetails);
    await page.reload();
    expect(await askedBeforeCustomer).toBe(true);
    await expect(page.getByRole('progressbar').first()).toBeVisible();
    expect(figures).toHaveLength(1);
  });

  test('a cold start on the status page asks for its chunks beside the entry, not after it has run', async ({
    page,
  }) => {
    // The server preloads them on the loyalty addresses (build/preload-with-entry.ts:
    // preloadByAddress): with the entry held back, the browser has asked for them already.
    await openLoyalty(page, email, '/status');
    const askedBeforeEntry = await askedWhileHeldBack(page, '**/assets/index-*.js');
    const pageData = askedBeforeEntry(/\/assets\/page-data-[^/]+\.js$/);
    const statusRoute = askedBeforeEntry(/\/assets\/loyalty-status-route-[^/]+\.js$/);
    // A cold start: nothing in the browser's cache.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.reload();
    expect(await pageData).toBe(true);
    expect(await statusRoute).toBe(true);
    await expect(page.getByRole('progressbar').first()).toBeVisible();
  });

  test("shows when the member's points expire: the sentences and the 12-month chart", async ({ page }) => {
    await openLoyalty(page, email, '/status', 'en');
    const t = texts('en');
    const api = await customerApi(page);
    const answer = await api.get<LoyaltyExpiryForecast>(apiPaths.loyaltyExpiryForecast(api.uuid));
    expect(answer.status).toBe(200);
    const forecast = answer.body;
    // The demo ledger spreads its points over the last 11 months: a visible forecast.
    expect(forecast.nextExpiry).not.toBeNull();
    const dayMonth = (iso: string) =>
      new Intl.DateTimeFormat('en-DE', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
        new Date(iso),
      );

    const forecastCard = page.getByRole('region', { name: t['loyalty-expiry-title'] });
    await expect(forecastCard).toBeVisible();
    await expect(
      forecastCard.getByText(
        fill(t[forecast.nextExpiry!.points === 1 ? 'loyalty-expiry-next_one' : 'loyalty-expiry-next_other'], {
          points: formatPoints(forecast.nextExpiry!.points, 'en'),
          date: dayMonth(forecast.nextExpiry!.date),
        }),
        { exact: true },
      ),
    ).toBeVisible();
    const keep = forecast.tierKeep!;
    const royalGold = loyaltyTexts('en').tiers['royal-gold']!.title;
    await expect(
      forecastCard.getByText(
        keep.pointsNeeded > 0
          ? fill(t[keep.pointsNeeded === 1 ? 'loyalty-expiry-keep_one' : 'loyalty-expiry-keep_other'], {
              points: formatPoints(keep.pointsNeeded, 'en'),
              date: dayMonth(keep.date),
              tier: royalGold,
            })
          : fill(t['loyalty-expiry-kept'], { tier: royalGold, date: dayMonth(keep.date) }),
        { exact: true },
      ),
    ).toBeVisible();

    // The chart: one bar per month with points, drawn at a readable size, and the same figures as a table.
    const chart = forecastCard.getByTestId('expiry-chart-svg');
    await expect(chart).toBeVisible();
    await expect(chart.locator('rect')).toHaveCount(forecast.months.filter((m) => m.points > 0).length);
    const box = (await chart.boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(100);
    const table = forecastCard.getByRole('table', { name: t['loyalty-expiry-chart-caption'] });
    await expect(table.getByRole('row')).toHaveCount(13);
    const first = forecast.months[0]!;
    await expect(table.getByRole('row').nth(1).getByRole('cell')).toHaveText(
      formatPoints(first.points, 'en'),
    );
    expect(await scrollsSideways(page)).toBe(false);
  });
});
