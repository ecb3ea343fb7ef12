import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestConfig } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { contentCollection, demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { AccountHome } from './account-home';
import { signInForTests } from '@/testing/session';
import { sessionUserOf } from '@/lib/session/session-user';

const german = contentCollection('de', 'DE', {
  'account-home-title': 'Mein Konto',
  'account-contract-country': 'Vertragsland: {{country}}',
  'language-label': 'Sprache',
  'account-settings': 'Einstellungen',
});

/** What the server answers to the language POST: the whole profile (only what the switch reads here). */
const savedGerman = {
  body: { PersonalDataRTO: { language: 'de_DE' }, pendingEmail: null },
  meta: { metaDataList: [] },
};

function renderHome(
  publicRequest = vi.fn(async (_config: RequestConfig) => german as never),
  post = vi.fn(async (_url: string, _body?: unknown) => savedGerman as never),
) {
  const http = createFakeHttpClient({ publicRequest, post });
  const view = renderWithProviders(
    <AccountHome
      user={demoLoginStatus.user}
      country="DE"
      language="en"
      loyaltyHref="/customer/loyalty-ui/"
      actions={<button type="button">Sign out</button>}
    />,
    { path: '/DE/en/myaccount', http },
  );
  return { ...view, publicRequest, post };
}

describe('account home', () => {
  beforeEach(() => {
    signInForTests(demoLoginStatus.user);
  });
  afterEach(async () => {
    resetAppStore();
    await i18n.changeLanguage('en');
  });

  it("shows the customer's full name, e-mail and the country of their contract, without internal ids", () => {
    renderHome();

    expect(screen.getByRole('heading', { level: 1, name: 'Dora Demo' })).toBeInTheDocument();
    expect(screen.getByText('demo.de@example.com')).toBeInTheDocument();
    // Issue 7, defect 5: customers saw "Gesellschaft: Deutschland (10)".
    expect(screen.getByText('Contract country: Germany')).toBeInTheDocument();
    expect(screen.queryByText(/\(10\)/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('leads to the loyalty programme', () => {
    renderHome();
    expect(screen.getByRole('link', { name: /Loyalty programme/ })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/',
    );
  });

  it('lists the account sub-pages, each a link below the account home of the address', () => {
    renderHome();
    const menu = screen.getByRole('navigation', { name: /account-menu-title|Your details/ });
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/DE/en/myaccount/profile',
      '/DE/en/myaccount/password',
      '/DE/en/myaccount/mobile',
      '/DE/en/myaccount/privacy',
      '/DE/en/myaccount/payment',
      '/DE/en/myaccount/security',
      '/DE/en/myaccount/security/passkeys',
    ]);
  });

  it("offers the legal entity's languages, named in their own language", () => {
    renderHome();

    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('en');
    expect([...(select as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Deutsch',
      'English',
    ]);
  });

  it('switches the UI language, the address and the stored preference, and saves it on the server', async () => {
    signInForTests({ ...demoLoginStatus.user, language: 'en_DE' });
    const { publicRequest, post, location, queryClient } = renderHome();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');

    await waitFor(() => expect(location.history?.at(-1)).toBe('/DE/de/myaccount'));
    expect(publicRequest).toHaveBeenCalledWith({
      url: '/api/core-web/content/contentCollection/de-DE/loyalty-program',
      params: { legalEntity: 'DE' },
    });
    expect(JSON.parse(localStorage.getItem('roadpass.countryLanguage')!)).toEqual({
      country: 'DE',
      language: 'de',
    });
    expect(useAppStore.getState().activeLanguage).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toBeInTheDocument();
    expect(screen.getByText('Vertragsland: Deutschland')).toBeInTheDocument();
    await waitFor(() => expect(sessionUserOf(queryClient)?.language).toBe('de_DE'));
    expect(post).toHaveBeenCalledWith('/api/customer/cuda/customer/personaldata/own', { language: 'de_DE' });
    expect(useAppStore.getState().toasts.map((toast) => toast.type)).toEqual(['info']);
  });

  it('keeps the new language but says so when the server cannot save it', async () => {
    signInForTests({ ...demoLoginStatus.user, language: 'en_DE' });
    const { location, queryClient } = renderHome(
      undefined,
      vi.fn(() => Promise.reject(new Error('500'))),
    );

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');

    await waitFor(() => expect(useAppStore.getState().toasts.map((toast) => toast.type)).toEqual(['error']));
    expect(location.history?.at(-1)).toBe('/DE/de/myaccount');
    expect(sessionUserOf(queryClient)?.language).toBe('en_DE');
  });

  it('shows the error banner and page and stays put when the translations cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { location } = renderHome(vi.fn(() => Promise.reject(new Error('503'))));

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');

    await waitFor(() =>
      expect(useAppStore.getState().error).toEqual({ page: true, overlay: true, banner: true }),
    );
    expect(location.history).toEqual(['/DE/en/myaccount']);
    expect(localStorage.getItem('roadpass.countryLanguage')).toBeNull();
    expect(console.error).toHaveBeenCalledWith(
      'Failed to load content collection from a content management service',
      expect.any(Error),
    );
  });
});
