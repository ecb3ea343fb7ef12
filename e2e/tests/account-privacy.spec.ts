import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiPaths, LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { consentTitle, customerApi, exclusively, fill, openSignedIn, texts } from './support.js';

// The consents on the privacy page, against the real server, at phone size (the steps do not change
// with the screen: playwright.config.ts). The test changes a consent of a customer that no other spec
// reads or changes, and turns it back at the end.
const who = { email: 'demo.dk@example.com', country: 'DK', language: 'da', slug: 'customer-research-Rs8k' };

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function expectNoAxeViolations(page: Page): Promise<void> {
  // From the top of the page: axe counts a switch that the sticky top bar half covers as too small a
  // target, and where a reload restores the scroll (near the switch clicked before) varies run to run.
  await page.evaluate(() => window.scrollTo(0, 0));
  const result = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test('a consent switch on the privacy page saves at once, is kept after a reload and turns back', async ({
  page,
}) => {
  // demo.dk's password test ends its other sessions: one at a time.
  await exclusively(who.email, async () => {
    const t = texts(who.language);
    const title = consentTitle(who.language, who.slug);
    await openSignedIn(page, who.email);
    await page.goto(routes.account.privacy.build(who.country, who.language));

    await expect(page.getByRole('heading', { level: 1, name: t['privacy-title'] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: t['privacy-consents-title'] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: t['newsletter-title'] })).toBeVisible();
    // The member is told what turning the programme's consent off would do, before touching it.
    await expect(
      page.getByRole('switch', { name: consentTitle(who.language, LOYALTY_CORE_CONSENT), exact: true }),
    ).toHaveAccessibleDescription(new RegExp(escape(t['privacy-loyalty-core-leave']!)));

    const toggle = page.getByRole('switch', { name: title, exact: true });
    const before = await toggle.isChecked();
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toBeChecked({ checked: !before });
    await expect(
      page.getByText(fill(t[before ? 'privacy-consent-off' : 'privacy-consent-on'], { title })),
    ).toBeVisible();
    // Saved: the focus is still on the switch, not on the page.
    await expect(toggle).toBeFocused();
    await expect(page.getByRole('button', { name: t['privacy-consent-undo'] })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.reload();
    await expect(page.getByRole('switch', { name: title, exact: true })).toBeChecked({ checked: !before });
    await expect(page.locator('.spinner')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Back to how it was, for the next run.
    await page.getByRole('switch', { name: title, exact: true }).click();
    await expect(
      page.getByText(fill(t[before ? 'privacy-consent-on' : 'privacy-consent-off'], { title })),
    ).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: title, exact: true })).toBeChecked({ checked: before });
  });
});

// Issue 17, finding 10: leaving the loyalty programme took one tap. It asks first, saying what is lost;
// Escape keeps the membership; going ahead leaves, with the usual Undo.
test('leaving the loyalty programme asks first, and Undo brings the membership back', async ({ page }) => {
  // A member whose membership no other spec relies on meanwhile (loyalty-join leaves with it too).
  const leaver = { email: 'demo.at@example.com', country: 'AT', language: 'de' };
  await exclusively(leaver.email, async () => {
    const t = texts(leaver.language);
    await openSignedIn(page, leaver.email);
    const api = await customerApi(page);
    const coreConsent = apiPaths.customerConsent(api.uuid, LOYALTY_CORE_CONSENT);
    const member = async () => {
      const list = await api.get<{ data: { slug: string; granted: boolean }[] }>(
        apiPaths.customerConsents(api.uuid),
      );
      return list.body.data.find((consent) => consent.slug === LOYALTY_CORE_CONSENT)?.granted;
    };
    // A member to begin with (another spec may have left the programme with this customer).
    expect((await api.patch(coreConsent, { legalEntityId: api.legalEntityId, granted: true })).status).toBe(
      200,
    );
    await page.goto(routes.account.privacy.build(leaver.country, leaver.language));
    const title = consentTitle(leaver.language, LOYALTY_CORE_CONSENT);
    const membership = page.getByRole('switch', { name: title, exact: true });
    await expect(membership).toBeChecked();
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes(LOYALTY_CORE_CONSENT))
        patches.push(request.url());
    });

    // By keyboard: Space asks; the question says what is lost, and the safe answer has the focus.
    await membership.focus();
    await page.keyboard.press('Space');
    const dialog = page.getByRole('dialog', { name: t['privacy-loyalty-leave-title'] });
    await expect(dialog).toBeVisible();
    for (const key of [
      'privacy-loyalty-leave-earn',
      'privacy-loyalty-leave-hidden',
      'privacy-loyalty-leave-points',
    ]) {
      await expect(dialog).toContainText(t[key]!);
    }
    await expect(dialog.getByRole('button', { name: t['privacy-loyalty-leave-cancel'] })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(membership).toBeChecked();
    await expect(membership).toBeFocused();
    expect(patches).toEqual([]);

    // Going ahead leaves at once, with an Undo beside the switch.
    await membership.click();
    await dialog.getByRole('button', { name: t['privacy-loyalty-leave-confirm'] }).click();
    await expect(dialog).toBeHidden();
    await expect(membership).not.toBeChecked();
    await expect(page.getByText(fill(t['privacy-consent-off'], { title }))).toBeVisible();
    expect(patches).toHaveLength(1);
    await expect.poll(member).toBe(false);

    await page.getByRole('button', { name: t['privacy-consent-undo'] }).click();
    await expect(membership).toBeChecked();
    await expect(page.getByText(fill(t['privacy-consent-on'], { title }))).toBeVisible();
    await expect.poll(member).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
