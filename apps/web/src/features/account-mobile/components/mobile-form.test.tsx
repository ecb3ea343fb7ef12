import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, type MobileResponse } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { MobileForm } from './mobile-form';

const meta = {
  metaDataList: [
    { attribute: 'mobilePhone', validator: 'required', parameter: 'true' },
    { attribute: 'mobilePhone', validator: 'phone', parameter: 'true' },
  ],
};
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const noPending: MobileResponse = { body: { mobilePhone: '+4915100000001', pending: null }, meta };
const waiting = (resendAvailableAt: string, attemptsLeft = 3): MobileResponse => ({
  body: {
    mobilePhone: '+4915100000001',
    pending: { mobilePhone: '+4915123456789', expiresAt: inMinutes(10), attemptsLeft, resendAvailableAt },
  },
  meta,
});
const wrongPin = new HttpError({
  status: 400,
  config: { url: apiPaths.mobile, method: 'PUT' },
  body: {
    status: 400,
    code: 'validation-failed',
    message: 'Invalid',
    violations: [],
    constraintViolationMetaInfo: {
      metaDataList: {
        attribute: 'pin',
        validator: 'pinWrong',
        text: 'This PIN is not right. 2 attempts left.',
      },
    },
  } as never,
});

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
}

describe('mobile number page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('checks the number before sending it', async () => {
    const put = vi.fn();
    renderForm(noPending, put);
    const user = userEvent.setup();
    expect(await screen.findByText('Your mobile number: +4915100000001')).toBeVisible();
    await user.type(screen.getByLabelText(/^New mobile number/), '0151 123');
    await user.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect(await screen.findByText(/This is not a mobile number we can use/)).toBeVisible();
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

    expect(await screen.findByText(/We sent a PIN to \+4915123456789\. It is valid until/)).toBeVisible();
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
      expect(screen.getByRole('status')).toHaveTextContent('Done: your mobile number is now +4915123456789.'),
    );
    expect(put).toHaveBeenLastCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789', pin: '123456' });
    expect(screen.getByText('Your mobile number: +4915123456789')).toBeVisible();
  });

  it('allows a new PIN once the server says so', async () => {
    const put = vi.fn().mockResolvedValueOnce(waiting(inMinutes(1)));
    renderForm(waiting(inMinutes(-1)), put);
    const user = userEvent.setup();
    const resend = await screen.findByRole('button', { name: 'Send a new PIN' });
    await waitFor(() => expect(resend).toBeEnabled());
    await user.click(resend);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('We sent a new PIN to +4915123456789.'),
    );
    expect(put).toHaveBeenCalledWith(apiPaths.mobile, { mobilePhone: '+4915123456789' });
  });
});
