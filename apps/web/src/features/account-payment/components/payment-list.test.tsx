import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, appPaths, type PaymentProfile } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { PaymentList } from './payment-list';

const today = new Date('2026-11-22T12:00:00Z');

function renderList(get: (url: string) => Promise<unknown>) {
  renderWithProviders(<PaymentList today={today} />, {
    http: createFakeHttpClient({ get: vi.fn(get) as never }),
  });
}

const profiles: PaymentProfile[] = [
  {
    id: 'a',
    type: 'CARD',
    brand: 'VISA',
    last4: '4242',
    expiryMonth: 3,
    expiryYear: 2025,
    holder: 'Dora Demo',
    isDefault: false,
  },
  { id: 'b', type: 'SEPA', maskedIban: 'DE** **** **** **** **12 34', holder: 'Dora Demo', isDefault: true },
  {
    id: 'c',
    type: 'CARD',
    brand: 'MASTERCARD',
    last4: '5454',
    expiryMonth: 9,
    expiryYear: 2029,
    holder: 'D. Demo',
    isDefault: false,
  },
];

describe('payment methods page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('shows each profile as a card, the default first with its badge', async () => {
    renderList(async (url) => {
      expect(url).toBe(apiPaths.paymentProfiles);
      return { body: { paymentProfiles: profiles } };
    });
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('SEPA direct debit');
    // In groups of four that end with the last four (issue 17 #17).
    expect(items[0]).toHaveTextContent('DE **** **** **** **** 1234');
    expect(within(items[0]!).getByText('Default')).toBeVisible();
    expect(items[1]).toHaveTextContent('Visa ending in 4242');
    expect(items[1]).toHaveTextContent('Expired 03/2025');
    expect(items[2]).toHaveTextContent('Mastercard ending in 5454');
    expect(items[2]).toHaveTextContent('Valid until 09/2029');
    expect(items[2]).toHaveTextContent('D. Demo');
    expect(within(items[1]!).queryByText('Default')).toBeNull();
    // In a browser: where payment methods are changed, no link out of the frame (issue 17).
    expect(screen.getByText(english['payment-profiles-text'])).toBeVisible();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('in the webview hands over to the native payment screen in the customer’s language', async () => {
    useAppStore.setState({ isWebView: true, homeLocation: 'DE' });
    renderList(async () => ({ body: { paymentProfiles: profiles } }));
    const link = await screen.findByRole('link', { name: 'Manage payment methods' });
    const target = new URL(link.getAttribute('href')!, 'http://localhost');
    expect(target.pathname).toBe(appPaths.paymentProfilesRedirect);
    expect(Object.fromEntries(target.searchParams)).toEqual({ is_webview: 'true', locale: 'en_DE' });
    resetAppStore();
  });

  it('says so when there is no payment method yet', async () => {
    renderList(async () => ({ body: { paymentProfiles: [] } }));
    expect(await screen.findByText('You have not added a payment method yet.')).toBeVisible();
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('says so when the profiles cannot be loaded', async () => {
    renderList(async (url) => {
      throw new HttpError({ status: 503, config: { url } });
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(english['load-error-server']);
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});
