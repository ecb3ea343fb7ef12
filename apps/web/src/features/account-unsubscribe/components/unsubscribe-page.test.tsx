import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError, type RequestConfig } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { UnsubscribePage } from './unsubscribe-page';

const token = 'token-of-an-e-mail-link-0001';
const notFound = (url: string) => new HttpError({ status: 404, config: { url } });

function renderPage(publicRequest: (config: RequestConfig) => Promise<unknown>) {
  const request = vi.fn(publicRequest);
  renderWithProviders(<UnsubscribePage token={token} />, {
    http: createFakeHttpClient({ publicRequest: request as never }),
  });
  return request;
}

describe('newsletter unsubscribe page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it("shows the token's e-mail address and unsubscribes with one button", async () => {
    const request = renderPage(async ({ method }) => ({
      email: method === 'DELETE' ? 'dora@example.com' : 'dora@example.com',
    }));
    expect(await screen.findByText('Stop sending the newsletter to dora@example.com?')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Unsubscribe from the newsletter' })).toBeVisible();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Unsubscribe' }));
    const done = await screen.findByText('Done: dora@example.com will no longer receive the newsletter.');
    // The button is gone: the confirmation takes the focus (not the page).
    await waitFor(() => expect(done).toHaveFocus());
    expect(request).toHaveBeenCalledWith({ url: apiPaths.unsubscribe(token), method: 'DELETE' });
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('says clearly when the link is unknown or used, offers no button, and the way to the account', async () => {
    renderPage(async ({ url }) => {
      throw notFound(url);
    });
    expect(
      await screen.findByText(/This unsubscribe link is unknown or has already been used/),
    ).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
    // Its text says the newsletter settings are in the account.
    expect(screen.getByRole('link', { name: 'Go to my account' })).toHaveAttribute('href', '/?locale=en-DE');
  });

  it('says the link is used when the unsubscribe itself finds it gone', async () => {
    renderPage(async ({ url, method }) => {
      if (method === 'DELETE') throw notFound(url);
      return { email: 'dora@example.com' };
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    const gone = await screen.findByText(/This unsubscribe link is unknown or has already been used/);
    expect(gone).toBeVisible();
    await waitFor(() => expect(gone).toHaveFocus());
  });
});
