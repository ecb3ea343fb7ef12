import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@roadpass/contracts';
import { sendFeedback } from '@/lib/errors/feedback-sender';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../content/translations/en.json';
import ConsentManager from './consent-manager';

// The SDK chunk, replaced: what matters here is when the consent manager starts it and what it hands on.
const sdk = vi.hoisted(() => ({
  startErrorReporting: vi.fn(() => vi.fn()),
  createFeedbackSender: vi.fn(() => vi.fn(async () => 'event-id')),
}));
vi.mock('./error-reporting-sdk', () => sdk);

const config: RuntimeConfig = {
  environment: 'test',
  identityProvider: { url: 'http://localhost:8080/auth', realm: 'customer', clientId: 'portal-client' },
  errorReporting: {
    dsn: 'http://roadpass@localhost:8080/1',
    tracesSampleRate: 1,
    serverErrorStatuses: [500],
  },
  tagManager: { id: null, url: 'https://www.googletagmanager.com/gtm.js' },
};

/** The manager with the footer's "Privacy settings" button, as the consent gate renders them. */
function WithPrivacySettings() {
  const [settingsRequest, setSettingsRequest] = useState(0);
  const [http] = useState(createFakeHttpClient);
  return (
    <>
      <button type="button" onClick={() => setSettingsRequest((n) => n + 1)}>
        Privacy settings
      </button>
      <ConsentManager config={config} http={http} settingsRequest={settingsRequest} />
    </>
  );
}

const clearConsentCookie = () => {
  document.cookie = 'roadpass_consent=; Max-Age=0; Path=/';
};

describe('consent manager: error reporting and "Report a Bug"', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });
  beforeEach(() => {
    resetAppStore();
    clearConsentCookie();
    vi.clearAllMocks();
  });
  afterEach(clearConsentCookie);

  it('allows feedback once error reporting starts with consent, and takes it back when consent goes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<WithPrivacySettings />);
    expect(useAppStore.getState().errorReportingAllowed).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Accept all' }));
    await vi.waitFor(() => expect(useAppStore.getState().errorReportingAllowed).toBe(true));
    expect(sdk.startErrorReporting).toHaveBeenCalledOnce();
    expect(sdk.createFeedbackSender).toHaveBeenCalledOnce();
    await expect(sendFeedback({ message: 'It broke' })).resolves.toBe('event-id');

    // Privacy settings again: error reporting withdrawn (analytics kept, so no reload).
    await user.click(screen.getByRole('button', { name: 'Privacy settings' }));
    await user.click(screen.getByRole('switch', { name: 'Error reporting' }));
    await user.click(screen.getByRole('button', { name: 'Save choices' }));
    await vi.waitFor(() => expect(useAppStore.getState().errorReportingAllowed).toBe(false));
    await expect(sendFeedback({ message: 'It broke' })).rejects.toThrow(/Error reporting is off/);
  });

  it('gives the focus back after the choice: to "Privacy settings", or to the main content', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <main id="main" tabIndex={-1}>
        <WithPrivacySettings />
      </main>,
    );
    // Opened by itself on the first visit: the main content takes the focus, not the page.
    await user.click(screen.getByRole('button', { name: 'Deny all' }));
    expect(screen.getByRole('main')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Privacy settings' }));
    const analytics = screen.getByRole('switch', { name: 'Analytics' });
    expect(analytics).not.toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Error reporting' }));
    await user.click(screen.getByRole('button', { name: 'Save choices' }));
    expect(screen.getByRole('button', { name: 'Privacy settings' })).toHaveFocus();
  });

  it('offers no feedback with error reporting denied, nor without a DSN to send to', async () => {
    const user = userEvent.setup();
    const view = renderWithProviders(
      <ConsentManager config={config} http={createFakeHttpClient()} settingsRequest={0} />,
    );
    await user.click(screen.getByRole('button', { name: 'Deny all' }));
    expect(sdk.startErrorReporting).not.toHaveBeenCalled();
    expect(useAppStore.getState().errorReportingAllowed).toBe(false);
    view.unmount();
    clearConsentCookie();

    const noDsn = { ...config, errorReporting: { ...config.errorReporting, dsn: null } };
    renderWithProviders(<ConsentManager config={noDsn} http={createFakeHttpClient()} settingsRequest={0} />);
    await user.click(screen.getByRole('button', { name: 'Accept all' }));
    await vi.waitFor(() => expect(sdk.startErrorReporting).toHaveBeenCalledOnce());
    await act(async () => undefined);
    expect(sdk.createFeedbackSender).not.toHaveBeenCalled();
    expect(useAppStore.getState().errorReportingAllowed).toBe(false);
  });

  it("follows a webview host's choice from the start address, even after a redirect replaced it", async () => {
    // The address now has no query (the entry route redirected); the app started with the host's choice.
    expect(window.location.search).toBe('');
    const view = renderWithProviders(
      <ConsentManager
        config={config}
        http={createFakeHttpClient()}
        settingsRequest={0}
        startSearch="?is_webview=true&consent=error-reporting"
      />,
    );
    await vi.waitFor(() => expect(useAppStore.getState().errorReportingAllowed).toBe(true));
    expect(screen.queryByRole('region')).toBeNull();
    view.unmount();
    resetAppStore();
    vi.clearAllMocks();

    renderWithProviders(
      <ConsentManager
        config={config}
        http={createFakeHttpClient()}
        settingsRequest={0}
        startSearch="?consent=none"
      />,
    );
    await act(async () => undefined);
    expect(screen.queryByRole('region')).toBeNull();
    expect(sdk.startErrorReporting).not.toHaveBeenCalled();
  });
});
