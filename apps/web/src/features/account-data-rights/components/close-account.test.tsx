import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, securityErrorCodes, type AccountDeletionStatus } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { RuntimeServicesProvider, type RuntimeServices } from '@/lib/runtime-services';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import { CloseAccount } from './close-account';

// docs/product/data-rights.md#close-my-account: asking needs a recent sign-in; an older one sends the
// customer through the sign-in and back (docs/product/security.md#step-up), and in the webview, where
// the host app signs in, the page says to sign in again.
const open: AccountDeletionStatus = { blockers: [], deletion: null, graceDays: 30 };
const refusal = () =>
  new HttpError({
    status: 403,
    config: { url: apiPaths.accountDeletion, method: 'POST' },
    body: { status: 403, code: securityErrorCodes.recentSignInRequired, message: 'x' } as never,
  });

function renderClose(signInAgain: RuntimeServices['signInAgain']) {
  const http = createFakeHttpClient({
    get: vi.fn(async () => open as never),
    post: vi.fn(() => Promise.reject(refusal())),
  });
  const services: RuntimeServices = { http, config: null, signInAgain };
  return renderWithProviders(<CloseAccount />, {
    http,
    wrapper: (children) => <RuntimeServicesProvider value={services}>{children}</RuntimeServicesProvider>,
  });
}

async function askToClose() {
  await userEvent.click(await screen.findByRole('button', { name: 'close-ask' }));
  await userEvent.click(await screen.findByRole('button', { name: 'close-confirm' }));
}

describe('closing the account after an older sign-in', () => {
  afterEach(() => vi.restoreAllMocks());

  it('goes through the sign-in again', async () => {
    const signInAgain = vi.fn(async () => {});
    renderClose(signInAgain);
    await askToClose();
    await waitFor(() => expect(signInAgain).toHaveBeenCalledOnce());
    expect(screen.queryByText('data-rights-recent-sign-in')).not.toBeInTheDocument();
  });

  it('says to sign in again in the webview, where the host app signs in', async () => {
    renderClose(null);
    await askToClose();
    expect(await screen.findByText('data-rights-recent-sign-in')).toBeInTheDocument();
  });
});
