import { expect, test, type Page } from '@playwright/test';
import { openSignedIn } from './support';

/** Counts the refresh_token grants the page sends, with their statuses. */
function countRefreshes(page: Page): number[] {
  const refreshes: number[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (
      request.url().endsWith('/protocol/openid-connect/token') &&
      request.postData()?.includes('grant_type=refresh_token')
    ) {
      refreshes.push(response.status());
    }
  });
  return refreshes;
}

// Issue 7, defect 1: with the device clock about 5 minutes fast the app made 1 072 token requests in
// about 35 s, because it scheduled renewals from the token's exp (the server's clock). The test server
// issues 20-second access tokens, so a correct schedule renews about once every 20 s. The page's
// clock runs the renewal timers ahead (no 30 s of waiting); the requests and answers are real, and a
// renewal loop would show as dozens of requests within the real seconds the test then waits.
for (const [label, offsetMs] of [
  ['10 minutes fast', 10 * 60_000],
  ['10 minutes slow', -10 * 60_000],
] as const) {
  test(`with the device clock ${label}, the token is renewed on schedule, not in a loop`, async ({
    page,
  }) => {
    // The page's clock is off by the offset from the start (and keeps running).
    await page.clock.install({ time: new Date(Date.now() + offsetMs) });
    const refreshes = countRefreshes(page);
    await openSignedIn(page, 'demo.at@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lukas Gruber');

    // Two token lifetimes, one at a time: each brings one renewal, and no more follow by themselves.
    for (const renewals of [1, 2]) {
      await page.clock.runFor(20_000);
      await expect.poll(() => refreshes.length).toBe(renewals);
      await page.waitForTimeout(2_500);
      expect(refreshes.length).toBe(renewals);
    }
    expect(refreshes.every((status) => status === 200)).toBe(true);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lukas Gruber');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
}
