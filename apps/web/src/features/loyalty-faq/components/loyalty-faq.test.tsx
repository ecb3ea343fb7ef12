import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, type Faq } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { QueryClient } from '@tanstack/react-query';
import type { CustomerConsent } from '@roadpass/contracts';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { coreConsent } from '@/lib/loyalty/testing/loyalty-fixtures';
import { renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { LoyaltyFaq } from './loyalty-faq';
import { signInForTests } from '@/testing/session';

const faqPath = apiPaths.faq('loyalty-programme');
const faq: Faq = {
  slug: 'loyalty-programme',
  language: 'de-DE',
  entries: [
    { id: 'what', question: 'Was ist Roadpass Rewards?', answer: 'Unser Treueprogramm.' },
    { id: 'cost', question: 'Was kostet die Teilnahme?', answer: 'Nichts.' },
  ],
};

function renderFaq(get: (url: string, config?: unknown) => Promise<unknown>, consents?: CustomerConsent[]) {
  const fake = vi.fn(get);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (consents) queryClient.setQueryData(loyaltyKeys.consents(demoLoginStatus.user.uuid), consents);
  return {
    ...renderLoyalty(<LoyaltyFaq />, {
      path: '/faq',
      http: createFakeHttpClient({ get: fake as never }),
      queryClient,
    }),
    get: fake,
  };
}

describe('loyalty FAQ', () => {
  beforeEach(() => {
    signInForTests(demoLoginStatus.user);
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it("shows the programme's questions in the customer's language, answers folded away", async () => {
    await applyRealTranslations('de');
    const { get } = renderFaq(async () => faq);

    const question = await screen.findByText('Was ist Roadpass Rewards?');
    expect(screen.getByText('Was kostet die Teilnahme?')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith(faqPath, { params: { language: 'de-DE' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Fragen und Antworten' })).toBeInTheDocument();
    expect(screen.getByText('Unser Treueprogramm.')).not.toBeVisible();

    await userEvent.click(question);

    expect(screen.getByText('Unser Treueprogramm.')).toBeVisible();
  });

  it('leads a member back to the status and somebody who has not joined back to the onboarding', async () => {
    await applyRealTranslations('en');
    renderFaq(async () => faq, [coreConsent(false)]);

    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/onboarding',
    );
    cleanup();

    renderFaq(async () => faq, [coreConsent(true)]);
    expect(screen.getByRole('link', { name: 'Back to my status' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/status',
    );
  });

  it('offers a retry when the FAQ cannot be loaded', async () => {
    await applyRealTranslations('en');
    let fail = true;
    renderFaq(async (url) => {
      if (fail) throw new HttpError({ status: 503, config: { url } });
      return faq;
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('This could not be loaded');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('Was ist Roadpass Rewards?')).toBeInTheDocument();
  });
});
