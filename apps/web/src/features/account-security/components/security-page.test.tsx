import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, type ActiveSessionList, type SecurityActivityPage } from '@roadpass/contracts';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { ActivityPage } from './activity-page';
import { SecurityPage } from './security-page';

const sessions: ActiveSessionList = {
  sessions: [
    {
      id: 'here',
      client: 'Firefox 133',
      system: 'Windows 10',
      kind: 'browser',
      place: null,
      network: '192.0.2.x',
      signedInAt: '2026-11-20T08:00:00.000Z',
      lastActiveAt: '2026-11-26T18:00:00.000Z',
      current: true,
    },
    {
      id: 'phone',
      client: 'Roadpass app for iOS 4.2.0',
      system: 'iOS 18.1',
      kind: 'app',
      place: 'Utrecht, NL',
      network: '2001:db8:1::/48',
      signedInAt: '2026-11-21T08:00:00.000Z',
      lastActiveAt: '2026-11-25T18:00:00.000Z',
      current: false,
    },
  ],
};

describe('security page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('lists the sessions with this device marked, and signs out one of the others', async () => {
    const get = vi.fn(async () => sessions as never);
    const del = vi.fn(async () => ({ sessionsEnded: 1 }) as never);
    renderWithProviders(
      <SecurityPage
        activityHref="/DE/en/myaccount/security/activity"
        passkeysHref="/DE/en/myaccount/security/passkeys"
      />,
      {
        http: createFakeHttpClient({ get, delete: del }),
      },
    );
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Firefox 133 · Windows 10 (this device)');
    expect(items[0]).toHaveTextContent('192.0.2.x');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]).toHaveTextContent('Roadpass app for iOS 4.2.0 · iOS 18.1');
    expect(items[1]).toHaveTextContent('Utrecht, NL');
    await userEvent.setup().click(within(items[1]!).getByRole('button', { name: /^Sign out/ }));
    await waitFor(() => expect(del).toHaveBeenCalledWith(apiPaths.session('phone')));
    expect(await screen.findByText('That device is signed out.')).toBeInTheDocument();
    // docs/product/security.md#passkeys: passkeys are added from the security page.
    expect(screen.getByRole('link', { name: 'Add or manage your passkeys' })).toHaveAttribute(
      'href',
      '/DE/en/myaccount/security/passkeys',
    );
  });

  it('asks before signing out all other devices, and does nothing when cancelled', async () => {
    const del = vi.fn(async () => ({ sessionsEnded: 1 }) as never);
    renderWithProviders(<SecurityPage activityHref="/x" passkeysHref="/y" />, {
      http: createFakeHttpClient({ get: vi.fn(async () => sessions as never), delete: del }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(del).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Sign out of all other devices' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Sign out of all other devices',
      }),
    );
    await waitFor(() => expect(del).toHaveBeenCalledWith(apiPaths.sessions));
    expect(await screen.findByText('Devices signed out: 1.')).toBeInTheDocument();
  });
});

describe('security activity page', () => {
  it('shows the events in the reader’s language, failed sign-ins with their count', async () => {
    const page: SecurityActivityPage = {
      events: [
        { kind: 'sign_in_failed', occurredAt: '2026-11-26T10:00:00.000Z', count: 3 },
        { kind: 'session_ended', occurredAt: '2026-11-25T10:00:00.000Z', reason: 'password_changed' },
        {
          kind: 'signed_in',
          occurredAt: '2026-11-24T10:00:00.000Z',
          device: 'Firefox 133, Windows 10',
          place: '192.0.2.x',
        },
        { kind: 'passkey_added', occurredAt: '2026-11-23T10:00:00.000Z', passkey: 'Mein Laptop' },
      ],
      page: 0,
      hasMore: false,
      retentionDays: 90,
    };
    renderWithProviders(<ActivityPage />, {
      http: createFakeHttpClient({ get: vi.fn(async () => page as never) }),
    });
    expect(await screen.findByRole('heading', { name: 'The last 90 days' })).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Failed sign-in attempts: 3');
    expect(items[1]).toHaveTextContent('Signed out · after a password change');
    expect(items[2]).toHaveTextContent('Signed in');
    expect(items[2]).toHaveTextContent('Firefox 133, Windows 10 · 192.0.2.x');
    expect(items[3]).toHaveTextContent('Passkey added · Mein Laptop');
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();
  });
});
