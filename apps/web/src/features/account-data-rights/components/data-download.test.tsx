import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { securityErrorCodes, type DataExportStatus } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { RuntimeServicesProvider, type RuntimeServices } from '@/lib/runtime-services';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { DataDownload } from './data-download';

const none: DataExportStatus = { export: null, nextAllowedAt: null };
const oldSignIn = new HttpError({
  status: 403,
  config: { url: '/api/x', method: 'POST' },
  body: { status: 403, code: securityErrorCodes.recentSignInRequired, message: 'x' } as never,
});

/** "Download my data" whose start is refused for an old sign-in (docs/product/security.md#step-up). */
function renderRefused(signInAgain: RuntimeServices['signInAgain']) {
  const http = createFakeHttpClient({
    get: vi.fn(async () => none as never),
    post: vi.fn(async () => {
      throw oldSignIn;
    }),
  });
  const services: RuntimeServices = { http, config: null, signInAgain };
  renderWithProviders(<DataDownload />, {
    http,
    wrapper: (children: ReactNode) => (
      <RuntimeServicesProvider value={services}>{children}</RuntimeServicesProvider>
    ),
  });
}

describe('Download my data and step-up', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('sends the customer through the sign-in when the sign-in is too old', async () => {
    const signInAgain = vi.fn(async () => {});
    renderRefused(signInAgain);
    await userEvent.setup().click(await screen.findByRole('button', { name: english['download-start'] }));
    await waitFor(() => expect(signInAgain).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('in a webview (the host owns the sign-in) says to sign in again', async () => {
    renderRefused(null);
    await userEvent.setup().click(await screen.findByRole('button', { name: english['download-start'] }));
    expect(await screen.findByRole('alert')).toHaveTextContent(english['data-rights-recent-sign-in']);
  });
});
