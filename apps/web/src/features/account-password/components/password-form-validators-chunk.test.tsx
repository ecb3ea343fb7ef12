import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { passwordPolicy } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { PasswordForm } from './password-form';

// The custom validators' chunk (common passwords …) arrives only when the test lets it: the first
// paint and the typing do not wait for it, a submit does.
const chunk = vi.hoisted(() => {
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { arrived, arrive: () => arrive() };
});
vi.mock('@/lib/forms/custom-validators', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

describe('password form before its validators have come', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('shows the policy while typing, claims no unchecked rule, and a submit waits for the check', async () => {
    const put = vi.fn(async () => ({}) as never);
    const http = createFakeHttpClient({ get: vi.fn(async () => passwordPolicy as never), put });
    renderWithProviders(<PasswordForm />, { http });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'password1234');

    // The length is checked without the chunk; "not common" is not claimed until it can be checked.
    expect(screen.getByText('has at least 10 characters')).toHaveTextContent('(met)');
    expect(screen.getByText('is not a commonly used password')).toHaveTextContent('(not yet met)');

    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(put).not.toHaveBeenCalled();

    chunk.arrive();
    expect(
      await screen.findByText('This password is too common. Please choose another one.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(put).not.toHaveBeenCalled();
    expect(screen.getByText('is not a commonly used password')).toHaveTextContent('(not yet met)');

    // A password that passes: the checklist says so, and it is sent.
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    expect(screen.getByText('is not a commonly used password')).toHaveTextContent('(met)');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(apiPaths.password, {
        passwordOld: 'old-secret-phrase',
        password: 'a-long-secret-phrase',
        signOutOtherDevices: true,
      }),
    );
  });
});
