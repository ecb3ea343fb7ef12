import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { exclusively, fill, openSignedIn, texts } from './support.js';

// The profile page (/{COUNTRY}/{lang}/myaccount/profile) against the real server, with the demo
// customers' served rules. Other specs sign in with the same customers: nothing here changes a value
// another spec reads, and the one value saved (demo.it's place of birth) is put back.

const wcag = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A label at the start of a control's name (a required field's name goes on with "(required)"). */
const named = (label: string | undefined) => new RegExp(`^${escaped(label!)}`);

/**
 * Signs in, opens the profile from the account menu and returns the texts of the language the app
 * shows (the customer's saved language, whatever another spec switched it to meanwhile).
 */
async function openProfile(page: Page, email: string): Promise<Record<string, string>> {
  await openSignedIn(page, email);
  const language = /\/[A-Z]{2}\/([a-z]{2})\/myaccount$/.exec(new URL(page.url()).pathname)![1]!;
  const t = texts(language);
  await page.getByRole('link', { name: new RegExp(t['account-menu-profile-title']!) }).click();
  await expect(page).toHaveURL(/\/myaccount\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
  await expect(page.getByRole('button', { name: t['profile-submit'] })).toBeVisible();
  return t;
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test('an Italian customer: the fiscal code is checked, and a valid change is saved', async ({ page }) => {
  // Both projects edit demo.it: one at a time.
  await exclusively('demo.it@example.com', async () => {
    const t = await openProfile(page, 'demo.it@example.com');
    const fiscalCode = page.getByRole('textbox', { name: named(t['profile-field-fiscalCode']) });
    const birthPlace = page.getByRole('textbox', { name: named(t['profile-field-birthPlace']) });
    const save = page.getByRole('button', { name: t['profile-submit'] });
    await expect(fiscalCode).toHaveValue('RSSGLI90C55F205T');
    await expect(page.getByRole('textbox', { name: named(t['profile-field-passportId']) })).toHaveCount(0);

    // A wrong check character: the served message on the field, nothing sent.
    await fiscalCode.fill('RSSGLI90C55F205X');
    await save.click();
    await expect(fiscalCode).toHaveAttribute('aria-invalid', 'true');
    await expect(fiscalCode).toBeFocused();
    await expect(page.locator('#profile-fiscalCode-error')).toHaveText(t['rules-fiscalCode']!);
    await expectNoAxeViolations(page);
    const noSideways = await page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    );
    expect(noSideways, 'the page does not scroll sideways').toBe(true);

    // Right again, and a new place of birth: saved, and still there after a reload.
    await fiscalCode.fill('RSSGLI90C55F205T');
    await expect(fiscalCode).not.toHaveAttribute('aria-invalid');
    const original = await birthPlace.inputValue();
    const changed = original === 'Torino' ? 'Roma' : 'Torino';
    await birthPlace.fill(changed);
    await save.click();
    await expect(page.getByRole('status')).toHaveText(t['profile-saved']!);
    // The button kept the focus through the save (a disabled one drops it to the page).
    await expect(save).toBeFocused();
    await page.reload();
    await expect(birthPlace).toHaveValue(changed);
    await expect(fiscalCode).toHaveValue('RSSGLI90C55F205T');

    await birthPlace.fill(original);
    await save.click();
    await expect(page.getByRole('status')).toHaveText(t['profile-saved']!);
  });
});

test("a Spanish customer: another province's rules apply to the post code", async ({ page }) => {
  const t = await openProfile(page, 'demo.es@example.com');
  const province = page.getByRole('combobox', { name: named(t['profile-field-addressProvinceIsoCode']) });
  const zip = page.getByRole('textbox', { name: named(t['profile-field-addressZipCode']) });
  await expect(province).toHaveValue('28');
  await expect(zip).toHaveValue('28001');

  await province.selectOption({ label: 'Barcelona' });
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  await expect(zip).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#profile-addressZipCode-error')).toHaveText(
    fill(t['rules-zipPrefix'], { parameter: '08' }),
  );
  // A post code of the wrong length: the fixed length, said as such ("exactly 5").
  await zip.fill('0800');
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  await expect(page.locator('#profile-addressZipCode-error')).toHaveText(
    fill(t['rules-rangelength-exact_other'], { count: 5 }),
  );
  // Nothing was saved: the stored province is still Madrid.
  await page.reload();
  await expect(province).toHaveValue('28');
});

test('a Spanish customer typing the DNI 12345678A reads, in Spanish, that its letter is wrong', async ({
  page,
}) => {
  // The account languages spec switches demo.es to English for a while: this needs Spanish.
  await exclusively('demo.es@example.com', async () => {
    const t = await openProfile(page, 'demo.es@example.com');
    await expect(page).toHaveURL(/\/ES\/es\/myaccount\/profile$/);
    const id = page.getByRole('textbox', { name: named(t['profile-field-passportId']) });
    await expect(id).toHaveValue('12345678Z');

    await id.fill('12345678A');
    await page.getByRole('button', { name: t['profile-submit'] }).click();
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(id).toBeFocused();
    await expect(page.locator('#profile-passportId-error')).toHaveText(texts('es')['rules-dniNie']!);
    await expect(id).toHaveAccessibleDescription(texts('es')['rules-dniNie']!);

    // Nothing was saved.
    await page.reload();
    await expect(id).toHaveValue('12345678Z');
  });
});

test('a Hungarian customer: the address shows as text, the other fields can be edited', async ({ page }) => {
  const t = await openProfile(page, 'demo.hu@example.com');
  const address = page.getByRole('group', { name: t['profile-section-address'] });
  await expect(address.getByText('Október 6. utca 1')).toBeVisible();
  await expect(address.getByText('1051')).toBeVisible();
  await expect(address.getByText(t['profile-readonly-note']!)).toBeVisible();
  await expect(address.getByRole('textbox')).toHaveCount(0);
  await expect(address.getByRole('combobox')).toHaveCount(0);

  const person = page.getByRole('group', { name: t['profile-section-person'] });
  await expect(person.getByRole('textbox', { name: named(t['profile-field-firstName']) })).toBeEditable();
  await expect(person.getByRole('textbox', { name: named(t['profile-field-lastName']) })).toBeEditable();
  await expect(page.getByRole('textbox', { name: named(t['profile-field-phone']) })).toBeEditable();
  await expectNoAxeViolations(page);
});
