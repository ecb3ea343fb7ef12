import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiPaths,
  LOYALTY_CORE_CONSENT,
  LOYALTY_PROCESS_ID,
  type ConsentDefinition,
} from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore, useLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { coreConsent } from '@/lib/loyalty/testing/loyalty-fixtures';
import { getByPath, renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { Signup } from './signup';
import { signInForTests } from '@/testing/session';

const { uuid, legalEntityId } = demoLoginStatus.user;
const consentsPath = apiPaths.customerConsents(uuid);
const definitionsPath = apiPaths.processConsents(legalEntityId, LOYALTY_PROCESS_ID);

const definition = (overrides: Partial<ConsentDefinition>): ConsentDefinition => ({
  slug: LOYALTY_CORE_CONSENT,
  processes: [LOYALTY_PROCESS_ID],
  sets: [],
  required: true,
  language: 'en',
  title: 'I want to join Roadpass Rewards',
  description: 'We use your rentals to award points.',
  ...overrides,
});
const definitions = [
  definition({}),
  definition({
    slug: 'loyalty-news-x1',
    required: false,
    title: 'Send me news about my rewards',
    description: '',
  }),
];
const httpError = (status: number, violations?: { field: string; rule: string; message: string }[]) =>
  new HttpError({
    status,
    config: { url: '/x', method: 'PATCH' },
    body: {
      status,
      code: status === 400 ? 'validation_failed' : 'internal_error',
      message: 'failed',
      ...(violations ? { violations } : {}),
    },
  });

function renderSignup(
  answers: Record<string, unknown> = {
    [consentsPath]: { data: [coreConsent(false)] },
    [definitionsPath]: { data: definitions },
  },
  patch = vi.fn(async (_url: string, body?: unknown) => ({ slug: 'x', ...(body as object) }) as never),
) {
  const get = vi.fn(getByPath(answers));
  const http = createFakeHttpClient({ get, patch });
  return { ...renderLoyalty(<Signup />, { path: '/signup', http }), get, patch };
}

describe('loyalty signup', () => {
  beforeEach(async () => {
    await applyRealTranslations('en');
    signInForTests(demoLoginStatus.user);
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it('sends a visitor coming from the status back to the status', async () => {
    useLoyaltyStore.getState().recordRoute('loyalty-status');
    const { location, get } = renderSignup();

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/status'));
    expect(get).not.toHaveBeenCalled();
  });

  it('sends a customer who has granted the core consent to the status', async () => {
    const { location } = renderSignup({
      [consentsPath]: { data: [coreConsent(true)] },
      [definitionsPath]: { data: definitions },
    });

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/status'));
  });

  it('shows the error banner and page when the consents cannot be loaded', async () => {
    renderSignup({ [consentsPath]: httpError(503), [definitionsPath]: { data: definitions } });

    await vi.waitFor(() =>
      expect(useAppStore.getState().error).toEqual({ page: true, overlay: true, banner: true }),
    );
  });

  it("shows the programme's consent texts in the active language", async () => {
    const { get } = renderSignup();

    expect(
      await screen.findByRole('checkbox', { name: /I want to join Roadpass Rewards/ }),
    ).not.toBeChecked();
    expect(screen.getByText('We use your rentals to award points.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Send me news about my rewards' })).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith(definitionsPath, { params: { language: 'en' } });
  });

  it('asks for the core consent before joining, on the field itself', async () => {
    const { patch } = renderSignup();
    const core = await screen.findByRole('checkbox', { name: /I want to join Roadpass Rewards/ });

    await userEvent.click(screen.getByRole('button', { name: 'Join' }));

    expect(core).toHaveAttribute('aria-invalid', 'true');
    expect(core).toHaveAccessibleDescription(
      'We use your rentals to award points. Please accept the programme terms to join.',
    );
    expect(core).toHaveFocus();
    expect(patch).not.toHaveBeenCalled();
  });

  it('grants the core consent (and chosen optional ones) and celebrates', async () => {
    const { patch, location } = renderSignup();
    await userEvent.click(await screen.findByRole('checkbox', { name: /I want to join Roadpass Rewards/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send me news about my rewards' }));

    await userEvent.click(screen.getByRole('button', { name: 'Join' }));

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/celebration'));
    expect(patch).toHaveBeenCalledWith(apiPaths.customerConsent(uuid, LOYALTY_CORE_CONSENT), {
      legalEntityId: 10,
      granted: true,
    });
    expect(patch).toHaveBeenCalledWith(apiPaths.customerConsent(uuid, 'loyalty-news-x1'), {
      legalEntityId: 10,
      granted: true,
    });
  });

  it("shows a 400's violations on the field and stays", async () => {
    const patch = vi.fn(() =>
      Promise.reject(
        httpError(400, [{ field: 'granted', rule: 'required', message: 'granted is required' }]),
      ),
    );
    const { location } = renderSignup(undefined, patch as never);
    const core = await screen.findByRole('checkbox', { name: /I want to join Roadpass Rewards/ });
    await userEvent.click(core);

    await userEvent.click(screen.getByRole('button', { name: 'Join' }));

    await vi.waitFor(() => expect(core).toHaveAttribute('aria-invalid', 'true'));
    expect(core).toHaveAccessibleDescription('We use your rentals to award points. This field is required.');
    expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/signup');
    expect(useAppStore.getState().toasts).toEqual([]);
  });

  it('tells the customer when joining fails otherwise', async () => {
    const patch = vi.fn(() => Promise.reject(httpError(503)));
    const { location } = renderSignup(undefined, patch as never);
    await userEvent.click(await screen.findByRole('checkbox', { name: /I want to join Roadpass Rewards/ }));

    await userEvent.click(screen.getByRole('button', { name: 'Join' }));

    await vi.waitFor(() =>
      expect(useAppStore.getState().toasts).toEqual([
        expect.objectContaining({ type: 'error', message: 'Joining did not work. Please try again.' }),
      ]),
    );
    expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
    expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/signup');
  });
});
