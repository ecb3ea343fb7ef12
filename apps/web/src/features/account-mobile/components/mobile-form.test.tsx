import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiPaths,
  checkValues,
  compileRules,
  customValidators,
  languages,
  phoneNumberInput,
  type MobileResponse,
} from '@roadpass/contracts';
import { loadCustomValidators } from '@/lib/forms/load-custom-validators';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { loadPhoneFormat } from '@/lib/phone/use-phone-format';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import content from '../../../../../../content/account-rules/v1.json';
import { MobileForm } from './mobile-form';

// The rules the server serves with the mobile call: its content's, as they are.
const meta = { metaDataList: content.mobile };
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const noPending: MobileResponse = { body: { mobilePhone: '+4915100000001', pending: null }, meta };
const waiting = (resendAvailableAt: string, attemptsLeft = 3): MobileResponse => ({
  body: {
    mobilePhone: '+4915100000001',
    pending: { mobilePhone: '+4915123456789', expiresAt: inMinutes(10), attemptsLeft, resendAvailableAt },
  },
  meta,
});
const refusal = (status: 400 | 429, attribute: string, validator: string, text: string) =>
  new HttpError({
    status,
    config: { url: apiPaths.mobile, method: 'PUT' },
    body: {
      status,
      code: status === 400 ? 'validation_failed' : 'too_many_requests',
      message: 'Refused',
      violations: [{ field: attribute, rule: validator, message: text }],
      constraintViolationMetaInfo: { metaDataList: { attribute, validator, text } },
    } as never,
  });
const wrongPin = refusal(400, 'pin', 'pinWrong', 'This PIN is not right. 2 attempts left.');

function renderForm(initial: MobileResponse, put: (url: string, body: unknown) => Promise<unknown>) {
  let current = initial;
  const get = vi.fn(async () => current as never);
  const http = createFakeHttpClient({
    get,
    put: vi.fn(async (url: string, body: unknown) => {
      const answer = (await put(url, body)) as MobileResponse;
      current = answer;
      return answer as never;
    }) as never,
  });
  renderWithProviders(<MobileForm />, { http });
  return { setCurrent: (next: MobileResponse) => (current = next) };
}

describe('mobile number page', () => {
  beforeAll(async () => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    // The chunks the page loads after it shows, here before the first test (a busy machine takes
    // longer to load them than a finder waits).
    await Promise.all([loadPhoneFormat(), loadCustomValidators()]);
  });

  it('checks the number before sending it', async () => {
    const put = vi.fn();
    renderForm(noPending, put);
    const user = userEvent.setup();
    expect(await screen.findByText('Your mobile number: +49 1510 0000001')).toBeVisible();
    await user.type(screen.getByLabelText(/^New mobile number/), '0151 123');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect(await screen.findByText(/This is not a mobile number we can use/)).toBeVisible();
    expect(put).not.toHaveBeenCalled();
  });

  it('takes the number with spaces, as its own hint writes it, and sends it in E.164', async () => {
    const put = vi.fn().mockResolvedValueOnce(waiting(inMinutes(1)));
    renderForm(noPending, put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New mobile number/), '+49 (1512) 345-6789');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect(await screen.findByText(/We sent a PIN to \+49 1512 3456789\. It is valid until/)).toBeVisible();
    expect(put).toHaveBeenCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789' });
    expect(screen.getByLabelText(/^PIN from the SMS/)).toHaveFocus();
  });

  it('says the number is already the customer’s own, and sends nothing', async () => {
    const put = vi.fn();
    renderForm(noPending, put);
    const user = userEvent.setup();
    const field = await screen.findByLabelText(/^New mobile number/);
    await user.type(field, '+49 1510 0000001');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect(await screen.findByText(english['mobile-rule-same'])).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(put).not.toHaveBeenCalled();
  });

  it('shows the server’s answer for the number already on the account on the field', async () => {
    const text = 'This is already your mobile number: we have sent no PIN.';
    const put = vi.fn().mockRejectedValueOnce(refusal(400, 'mobilePhone', 'differsFrom', text));
    // The page was loaded before the number changed in another tab: the app cannot know.
    renderForm({ ...noPending, body: { ...noPending.body, mobilePhone: null } }, put);
    const user = userEvent.setup();
    const field = await screen.findByLabelText(/^New mobile number/);
    await user.type(field, '+49 1512 3456789');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining(text)));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
  });

  it('checks the PIN with the served rule (six digits), not a rule of its own', async () => {
    const put = vi.fn();
    renderForm(waiting(inMinutes(1)), put);
    const user = userEvent.setup();
    const pin = await screen.findByLabelText(/^PIN from the SMS/);
    await user.type(pin, '1234');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(english['mobile-pin-invalid'])).toBeVisible();
    expect(pin).toHaveAttribute('aria-invalid', 'true');
    expect(put).not.toHaveBeenCalled();
  });

  it('sends a PIN, shows the server text for a wrong one, then confirms with the right one', async () => {
    const put = vi
      .fn()
      .mockResolvedValueOnce(waiting(inMinutes(1)))
      .mockRejectedValueOnce(wrongPin)
      .mockResolvedValueOnce({ body: { mobilePhone: '+4915123456789', pending: null }, meta });
    renderForm(noPending, put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New mobile number/), '+4915123456789');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));

    expect(await screen.findByText(/We sent a PIN to \+49 1512 3456789\. It is valid until/)).toBeVisible();
    expect(screen.getByText(/Attempts left: 3\./)).toBeVisible();
    const pin = screen.getByLabelText(/^PIN from the SMS/);
    expect(pin).toHaveAttribute('inputmode', 'numeric');
    expect(pin).toHaveAttribute('autocomplete', 'one-time-code');
    // Another PIN may be asked for only after a minute.
    expect(screen.getByRole('button', { name: 'Send a new PIN' })).toBeDisabled();
    expect(put).toHaveBeenLastCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789' });

    await user.type(pin, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('This PIN is not right. 2 attempts left.')).toBeVisible();
    expect(screen.getByLabelText(/^PIN from the SMS/)).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText(/^PIN from the SMS/));
    await user.type(screen.getByLabelText(/^PIN from the SMS/), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Done: your mobile number is now +49 1512 3456789.',
      ),
    );
    expect(screen.getByRole('status')).toHaveFocus();
    expect(put).toHaveBeenLastCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789', pin: '123456' });
    expect(screen.getByText('Your mobile number: +49 1512 3456789')).toBeVisible();
  });

  it('allows a new PIN once the server says so', async () => {
    const put = vi.fn().mockResolvedValueOnce(waiting(inMinutes(1)));
    renderForm(waiting(inMinutes(-1)), put);
    const user = userEvent.setup();
    const resend = await screen.findByRole('button', { name: 'Send a new PIN' });
    await waitFor(() => expect(resend).toBeEnabled());
    await user.click(resend);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('We sent a new PIN to +49 1512 3456789.'),
    );
    expect(put).toHaveBeenCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789' });
  });

  it('says when another PIN may be asked for, above the form', async () => {
    const text = 'Please wait 42 seconds before requesting another PIN.';
    const put = vi.fn().mockRejectedValueOnce(refusal(429, 'mobilePhone', 'resendWait', text));
    renderForm(noPending, put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New mobile number/), '+49 1512 3456789');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('a voided PIN: the field cannot be typed in, and the page says what to do', async () => {
    const put = vi.fn().mockResolvedValueOnce(waiting(inMinutes(1), 5));
    renderForm(waiting(inMinutes(-1), 0), put);
    const user = userEvent.setup();
    const pin = await screen.findByLabelText(/^PIN from the SMS/);
    expect(pin).toBeDisabled();
    expect(
      screen.getByText(english['mobile-pin-void'].replace('{{number}}', '+49 1512 3456789')),
    ).toBeVisible();
    expect(screen.queryByText(/Attempts left/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    const form = pin.closest('form')!;
    expect(
      within(form)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Send a new PIN', 'Use another number']);

    const resend = within(form).getByRole('button', { name: 'Send a new PIN' });
    await waitFor(() => expect(resend).toBeEnabled());
    await user.click(resend);
    await waitFor(() => expect(screen.getByLabelText(/^PIN from the SMS/)).toBeEnabled());
    expect(screen.getByLabelText(/^PIN from the SMS/)).toHaveFocus();
    expect(screen.getByText(/Attempts left: 5\./)).toBeVisible();
  });
});

describe('the mobile rules', () => {
  it('take the example each language’s page gives', async () => {
    const rules = compileRules(content.mobile);
    for (const language of languages) {
      const translations = (await import(`../../../../../../content/translations/${language}.json`)) as {
        default: Record<string, string>;
      };
      const example = /\+[\d ]+\d/.exec(translations.default['mobile-new-hint']!)?.[0];
      expect(example, language).toBeDefined();
      expect(
        checkValues(rules, { mobilePhone: phoneNumberInput(example!) }, { customValidators }).filter(
          (violation) => violation.field === 'mobilePhone',
        ),
        `${language}: ${example}`,
      ).toEqual([]);
    }
  });
});
