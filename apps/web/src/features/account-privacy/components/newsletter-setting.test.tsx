import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, type NewsletterLogResponse } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { NewsletterSetting } from './newsletter-setting';

const log = (agreed: boolean): NewsletterLogResponse => ({
  body: {
    NewsletterLogRTO: {
      id: 'agreement-1',
      newsletterAgreement: agreed,
      history: [{ date: '2026-03-04T10:15:00Z', action: 'SUBSCRIBE', channel: 'REGISTRATION' }],
    },
  },
});

function renderSetting(put: (url: string, body: unknown) => Promise<unknown>) {
  const get = vi.fn(async () => log(true) as never);
  renderWithProviders(<NewsletterSetting />, {
    http: createFakeHttpClient({ get: get as never, put: vi.fn(put) as never }),
  });
  return get;
}

describe('newsletter setting', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });
  afterEach(() => resetAppStore());

  it('loads the agreement without cache and shows its history with dates', async () => {
    const get = renderSetting(async () => log(false));
    expect(await screen.findByRole('switch', { name: 'Receive the newsletter' })).toBeChecked();
    expect(get).toHaveBeenCalledWith(apiPaths.newsletterLog, {
      params: { t: expect.stringMatching(/^\d+$/) },
    });
    expect(screen.getByRole('listitem')).toHaveTextContent(/Mar 4, 2026.*subscribed · registration/);
  });

  it('saves a change at once and says so', async () => {
    const put = vi.fn(async () => log(false));
    renderSetting(put);
    await userEvent.setup().click(await screen.findByRole('switch', { name: 'Receive the newsletter' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('You will no longer receive the newsletter.'),
    );
    expect(put).toHaveBeenCalledWith(apiPaths.newsletter('agreement-1'), { newsletterAgreement: false });
    expect(screen.getByRole('switch')).not.toBeChecked();
  });

  it('keeps the focus on the switch toggled with Space while the change is saved', async () => {
    let answer: (value: NewsletterLogResponse) => void = () => undefined;
    renderSetting(() => new Promise((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Receive the newsletter' });
    toggle.focus();
    await user.keyboard(' ');
    // Saving: it takes no press, but stays focusable (a disabled control drops the focus to the page).
    await waitFor(() => expect(toggle).toHaveAttribute('aria-disabled', 'true'));
    expect(toggle).toBeEnabled();
    expect(toggle).toHaveFocus();
    await user.keyboard(' ');
    answer(log(false));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('You will no longer receive the newsletter.'),
    );
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAccessibleDescription(english['newsletter-text']);
  });

  it('rolls the switch back and shows a toast when saving fails', async () => {
    renderSetting(async (url) => {
      throw new HttpError({ status: 503, config: { url } });
    });
    await userEvent.setup().click(await screen.findByRole('switch', { name: 'Receive the newsletter' }));
    await waitFor(() =>
      expect(useAppStore.getState().toasts.map((toast) => toast.message)).toContain(
        'Your newsletter setting could not be saved. Please try again.',
      ),
    );
    expect(screen.getByRole('switch')).toBeChecked();
  });
});
