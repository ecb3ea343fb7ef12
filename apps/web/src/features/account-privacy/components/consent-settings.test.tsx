import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiPaths,
  EDITABLE_BY_CUSTOMER_SET,
  LOYALTY_CORE_CONSENT,
  LOYALTY_PROCESS_ID,
  type ConsentDefinition,
  type CustomerConsent,
  type CustomerConsentUpdate,
} from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import german from '../../../../../../content/translations/de.json';
import { ConsentSettings } from './consent-settings';

const user = demoLoginStatus.user;
const SURVEYS = 'customer-research-Rs8k';
const SMS = 'marketing-sms-Sm3q';

const definition = (slug: string, title: string, extra: Partial<ConsentDefinition> = {}) => ({
  slug,
  processes: [],
  sets: [EDITABLE_BY_CUSTOMER_SET],
  required: false,
  language: 'en',
  title,
  description: `What ${title} means.`,
  ...extra,
});

const definitions: ConsentDefinition[] = [
  definition(LOYALTY_CORE_CONSENT, 'Loyalty programme', { processes: [LOYALTY_PROCESS_ID], required: true }),
  definition(SMS, 'Offers by text message'),
  definition(SURVEYS, 'Customer surveys'),
];

const answers: CustomerConsent[] = [
  { slug: LOYALTY_CORE_CONSENT, granted: true, legalEntityId: 10 },
  { slug: SMS, granted: false },
  { slug: SURVEYS, granted: true, legalEntityId: 10 },
];

/** A promise the test settles when it wants (a PATCH that is still on its way). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Patch = (url: string, body: CustomerConsentUpdate) => Promise<CustomerConsent>;

/** The server: answers the patch with what was saved (unless the test gives its own). */
const savedAs: Patch = async (url, body) => ({
  slug: decodeURIComponent(url.split('/').pop()!),
  granted: body.granted,
  legalEntityId: body.legalEntityId,
});

function renderConsents(
  options: {
    patch?: Patch;
    list?: ConsentDefinition[];
    get?: (url: string) => Promise<unknown>;
  } = {},
) {
  const list = options.list ?? definitions;
  const get = vi.fn(
    options.get ??
      (async (url: string) => {
        if (url === apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET)) return { data: list };
        if (url === apiPaths.customerConsents(user.uuid)) return { data: answers };
        throw new Error(`unexpected GET ${url}`);
      }),
  );
  const patch = vi.fn(options.patch ?? savedAs);
  const rendered = renderWithProviders(<ConsentSettings user={user} />, {
    http: createFakeHttpClient({ get: get as never, patch: patch as never }),
  });
  return { ...rendered, get, patch };
}

const consentSwitch = (name: string) => screen.findByRole('switch', { name });

describe('consent settings', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    i18n.addResourceBundle('de', 'translation', german, true, true);
  });
  afterEach(async () => {
    resetAppStore();
    await act(() => i18n.changeLanguage('en'));
  });

  it("shows every editable consent of the customer's legal entity as a switch with the server's answer", async () => {
    const { get } = renderConsents();
    expect(screen.getByRole('heading', { level: 2, name: 'Consents' })).toBeInTheDocument();
    expect(await consentSwitch('Loyalty programme')).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Offers by text message' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Customer surveys' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Customer surveys' })).toHaveAccessibleDescription(
      'What Customer surveys means.',
    );
    expect(get).toHaveBeenCalledWith(apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET), {
      params: { language: 'en' },
    });
    expect(get).toHaveBeenCalledWith(apiPaths.customerConsents(user.uuid));
  });

  it("asks for the texts in the app's language", async () => {
    useAppStore.getState().setActiveLanguage('de');
    await act(() => i18n.changeLanguage('de'));
    const { get } = renderConsents();
    expect(await screen.findByRole('heading', { name: 'Einwilligungen' })).toBeInTheDocument();
    await consentSwitch('Customer surveys');
    expect(get).toHaveBeenCalledWith(apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET), {
      params: { language: 'de' },
    });
  });

  it('says next to the core loyalty consent that turning it off ends the membership', async () => {
    renderConsents();
    expect(await consentSwitch('Loyalty programme')).toHaveAccessibleDescription(
      `What Loyalty programme means. ${english['privacy-loyalty-core-leave']}`,
    );
    expect(screen.getByRole('switch', { name: 'Offers by text message' })).toHaveAccessibleDescription(
      'What Offers by text message means.',
    );
  });

  it('saves one toggle with one PATCH of that consent, shows it at once and says so politely', async () => {
    const saving = deferred<CustomerConsent>();
    const { patch, queryClient } = renderConsents({ patch: () => saving.promise });
    const sms = await consentSwitch('Offers by text message');
    await userEvent.setup().click(sms);

    expect(sms).toBeChecked();
    expect(sms).toHaveAttribute('aria-disabled', 'true');
    expect(patch).toHaveBeenCalledTimes(1);
    expect(patch).toHaveBeenCalledWith(apiPaths.customerConsent(user.uuid, SMS), {
      legalEntityId: 10,
      granted: true,
    });
    expect(
      queryClient
        .getQueryData<CustomerConsent[]>(loyaltyKeys.consents(user.uuid))
        ?.find((c) => c.slug === SMS),
    ).toMatchObject({ granted: true });

    await act(async () => saving.resolve({ slug: SMS, granted: true, legalEntityId: 10 }));
    const message = await screen.findByText('“Offers by text message” is now on.');
    expect(message).toHaveAttribute('aria-live', 'polite');
    expect(sms).toBeChecked();
    expect(sms).not.toHaveAttribute('aria-disabled');
  });

  it('takes no second press while the save of that switch runs', async () => {
    const saving = deferred<CustomerConsent>();
    const { patch } = renderConsents({ patch: () => saving.promise });
    const surveys = await consentSwitch('Customer surveys');
    const events = userEvent.setup();
    await events.click(surveys);
    await events.click(surveys);
    expect(patch).toHaveBeenCalledTimes(1);
    expect(surveys).not.toBeChecked();
    expect(surveys).toHaveFocus();
    await act(async () => saving.resolve({ slug: SURVEYS, granted: false, legalEntityId: 10 }));
    await screen.findByText('“Customer surveys” is now off.');
  });

  it('saves two consents side by side, one PATCH each', async () => {
    const { patch } = renderConsents();
    const events = userEvent.setup();
    await events.click(await consentSwitch('Offers by text message'));
    await events.click(screen.getByRole('switch', { name: 'Customer surveys' }));
    await waitFor(() => expect(patch).toHaveBeenCalledTimes(2));
    expect(patch).toHaveBeenNthCalledWith(1, apiPaths.customerConsent(user.uuid, SMS), {
      legalEntityId: 10,
      granted: true,
    });
    expect(patch).toHaveBeenNthCalledWith(2, apiPaths.customerConsent(user.uuid, SURVEYS), {
      legalEntityId: 10,
      granted: false,
    });
    await screen.findByText('“Customer surveys” is now off.');
    expect(screen.getByRole('switch', { name: 'Offers by text message' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Customer surveys' })).not.toBeChecked();
  });

  it('puts the switch back and says the change was not saved when the PATCH fails', async () => {
    const { patch, queryClient } = renderConsents({
      patch: async (url) => {
        throw new HttpError({ status: 503, config: { url } });
      },
    });
    const surveys = await consentSwitch('Customer surveys');
    await userEvent.setup().click(surveys);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your change to “Customer surveys” was not saved. Please try again.',
    );
    expect(surveys).toBeChecked();
    expect(surveys).not.toHaveAttribute('aria-disabled');
    expect(patch).toHaveBeenCalledTimes(1);
    expect(
      queryClient
        .getQueryData<CustomerConsent[]>(loyaltyKeys.consents(user.uuid))
        ?.find((c) => c.slug === SURVEYS),
    ).toEqual({ slug: SURVEYS, granted: true, legalEntityId: 10 });
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('undoes a saved change with a second PATCH and gives the focus back to the switch', async () => {
    const { patch } = renderConsents();
    const events = userEvent.setup();
    const sms = await consentSwitch('Offers by text message');
    await events.click(sms);
    await events.click(await screen.findByRole('button', { name: 'Undo' }));

    await screen.findByText('“Offers by text message” is now off.');
    expect(patch).toHaveBeenCalledTimes(2);
    expect(patch).toHaveBeenLastCalledWith(apiPaths.customerConsent(user.uuid, SMS), {
      legalEntityId: 10,
      granted: false,
    });
    expect(sms).not.toBeChecked();
    expect(sms).toHaveFocus();
    // An undo is not offered to be undone again; the switch itself still is.
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('offers the Undo for a few seconds only', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderConsents();
      const events = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await events.click(await consentSwitch('Offers by text message'));
      expect(await screen.findByRole('button', { name: 'Undo' })).toBeInTheDocument();
      await act(async () => vi.advanceTimersByTime(10_000));
      expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
      expect(screen.getByText('“Offers by text message” is now on.')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops what the loyalty app showed when the core consent changes (membership)', async () => {
    const { queryClient } = renderConsents();
    queryClient.setQueryData(loyaltyKeys.tierDetails(user.uuid), { points: 1 });
    queryClient.setQueryData(loyaltyKeys.partnerCode(user.uuid, 'reward'), { code: 'X' });
    const events = userEvent.setup();
    await events.click(await consentSwitch('Loyalty programme'));
    // Leaving asks first (issue 17 #10).
    const dialog = await screen.findByRole('dialog', { name: english['privacy-loyalty-leave-title'] });
    await events.click(
      within(dialog).getByRole('button', { name: english['privacy-loyalty-leave-confirm'] }),
    );
    await screen.findByText('“Loyalty programme” is now off.');
    expect(queryClient.getQueryData(loyaltyKeys.tierDetails(user.uuid))).toBeUndefined();
    expect(queryClient.getQueryData(loyaltyKeys.partnerCode(user.uuid, 'reward'))).toBeUndefined();
    expect(screen.getByRole('switch', { name: 'Loyalty programme' })).toHaveAccessibleDescription(
      `What Loyalty programme means. ${english['privacy-loyalty-core-join']}`,
    );
  });

  it('shows a load error with a retry that loads again', async () => {
    let fail = true;
    const { get } = renderConsents({
      get: async (url) => {
        if (url === apiPaths.customerConsents(user.uuid)) {
          if (fail) throw new HttpError({ status: 503, config: { url } });
          return { data: answers };
        }
        return { data: definitions };
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(english['privacy-consents-load-error']);
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await consentSwitch('Customer surveys')).toBeChecked();
    expect(get.mock.calls.filter(([url]) => url === apiPaths.customerConsents(user.uuid))).toHaveLength(2);
  });

  it('says so when the legal entity has no consents the customer may edit', async () => {
    renderConsents({ list: [] });
    expect(await screen.findByText(english['privacy-consents-empty'])).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('shows a consent the customer never answered as off', async () => {
    renderConsents({
      get: async (url) =>
        url === apiPaths.customerConsents(user.uuid) ? { data: [] } : { data: definitions },
    });
    const section = await screen.findByRole('region', { name: 'Consents' });
    await within(section).findByRole('switch', { name: 'Loyalty programme' });
    for (const toggle of within(section).getAllByRole('switch')) expect(toggle).not.toBeChecked();
  });
});
