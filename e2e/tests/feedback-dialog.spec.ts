import { expect, test, type Locator, type Page } from '@playwright/test';
import { loyaltyUrl, texts } from './support';

/** A real 1×1 PNG, as small as a picture gets. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

// Issue 17: the "Report a Bug" dialog fits the screen at both sizes (1280 × 800 and 390 × 844, the two
// projects), its fields scrolling inside, and an error goes once its field is fixed.
test.use({
  storageState: {
    cookies: [
      {
        name: 'roadpass_consent',
        // Error reporting allowed (it carries "Report a Bug"), analytics not.
        value: 'a0e1',
        domain: 'localhost',
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [],
  },
});

/** Whether the element is wholly inside the window, without scrolling. */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = (await element.boundingBox())!;
  const size = page.viewportSize()!;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width;
}

for (const language of ['en', 'de', 'hu']) {
  test(`"Report a Bug" in ${language}: send button in sight, fields scroll inside, errors go when fixed`, async ({
    page,
  }) => {
    const t = texts(language);
    await page.goto(loyaltyUrl('/demo', language));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: t['feedback-report-bug'] }).click();
    const dialog = page.getByRole('dialog', { name: t['feedback-report-bug'] });
    await expect(dialog).toBeVisible();
    const send = dialog.getByRole('button', { name: t['feedback-submit'] });
    const cancel = dialog.getByRole('button', { name: t['feedback-cancel'] });

    expect(await inView(page, dialog), 'the dialog fits the window').toBe(true);
    expect(await inView(page, send), 'the send button shows without scrolling').toBe(true);
    expect(await inView(page, cancel), 'so does Cancel').toBe(true);

    // Nothing typed: the missing description is said and marked; the buttons stay in sight.
    await send.click();
    const message = dialog.getByRole('textbox', { name: new RegExp(t['feedback-message-label']!) });
    await expect(dialog.getByRole('alert')).toBeVisible();
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toBeFocused();
    expect(await inView(page, send)).toBe(true);

    // With its error and a screenshot chosen the form is taller than the window: back at its top, the
    // buttons are still in sight.
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'bug.png',
      mimeType: 'image/png',
      buffer: tinyPng,
    });
    await expect(dialog.getByText(/bug\.png/)).toBeVisible();
    await dialog.getByRole('textbox').first().focus();
    expect(await inView(page, dialog), 'the dialog still fits the window').toBe(true);
    expect(await inView(page, send), 'the send button shows with the first field').toBe(true);

    // The scrolling part is the fields', inside the dialog: the page behind does not move.
    const body = dialog.locator('.feedback-dialog__body');
    const scrolls = await body.evaluate((element) => element.scrollHeight > element.clientHeight);
    if (scrolls) {
      await body.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      expect(await inView(page, send)).toBe(true);
      expect(await inView(page, dialog.getByRole('heading', { name: t['feedback-report-bug'] }))).toBe(true);
    }

    await message.fill('The points do not add up');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(message).not.toHaveAttribute('aria-invalid');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()!.width,
    );
  });
}
