import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError, type RequestConfig } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { EmailConfirmPage } from './email-confirm-page';

const token = 'token-of-a-confirmation-link-0001';

function renderPage(publicRequest: (config: RequestConfig) => Promise<unknown>) {
  const request = vi.fn(publicRequest);
  renderWithProviders(<EmailConfirmPage token={token} />, {
    http: createFakeHttpClient({ publicRequest: request as never }),
  });
  return request;
}

describe('e-mail confirmation page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('confirms the token once and shows the new address', async () => {
    const request = renderPage(async () => ({ email: 'new@example.com' }));
    expect(
      await screen.findByText(/new@example.com is now the e-mail address of your account/),
    ).toBeVisible();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith({
      url: apiPaths.emailConfirmation,
      method: 'POST',
      data: { token },
    });
    // The sign-in on the way keeps the page's language (the store's default here: en, DE).
    expect(screen.getByRole('link', { name: 'Go to my account' })).toHaveAttribute('href', '/?locale=en-DE');
  });

  it('says the link failed when the server refuses the token', async () => {
    renderPage(async ({ url }) => {
      throw new HttpError({ status: 404, config: { url } });
    });
    expect(
      await screen.findByText(/This confirmation link is unknown, expired or has already been used/),
    ).toBeVisible();
    // It says to change the address again in the account: the way there is on the page.
    expect(screen.getByRole('link', { name: 'Go to my account' })).toHaveAttribute('href', '/?locale=en-DE');
  });
});
