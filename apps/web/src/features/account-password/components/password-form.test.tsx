import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { passwordPolicy } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { PasswordForm } from './password-form';

function renderForm(put = vi.fn(async () => ({}) as never)) {
  const get = vi.fn(async (url: string) => {
    expect(url).toBe(apiPaths.password);
    return passwordPolicy as never;
  });
  const http = createFakeHttpClient({ get, put });
  renderWithProviders(<PasswordForm />, { http });
  return { put };
}

const rejection = (metaDataList: unknown) =>
  new HttpError({
    status: 400,
    config: { url: apiPaths.password, method: 'PUT' },
    body: {
      status: 400,
      code: 'validation-failed',
      message: 'Invalid',
      violations: [],
      constraintViolationMetaInfo: { metaDataList },
    } as never,
  });

describe('password form', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('shows the served policy as a checklist that follows the typing', async () => {
    renderForm();
    const user = userEvent.setup();
    const newPassword = await screen.findByLabelText(/^New password/);
    expect(screen.getByText('has at least 10 characters')).toHaveTextContent('(not yet met)');

    await user.type(newPassword, 'a-long-secret-phrase');
    expect(screen.getByText('has at least 10 characters')).toHaveTextContent('(met)');
    // Checked once the custom validators' chunk has come (right after the form shows).
    await waitFor(() =>
      expect(screen.getByText('is not a commonly used password')).toHaveTextContent('(met)'),
    );

    await user.clear(newPassword);
    await user.type(newPassword, 'password123');
    expect(screen.getByText('is not a commonly used password')).toHaveTextContent('(not yet met)');
  });

  it('checks before sending and sends nothing while a rule is broken', async () => {
    const { put } = renderForm();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Use between 10 and 128 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(put).not.toHaveBeenCalled();
  });

  it('shows and hides a password with a labelled button in its field, which keeps the focus', async () => {
    renderForm();
    const user = userEvent.setup();
    const current = await screen.findByLabelText(/^Current password/);
    expect(current).toHaveAttribute('type', 'password');
    const [show] = screen.getAllByRole('button', { name: 'Show password' });
    expect(show).toHaveAttribute('aria-controls', current.id);
    expect(current.parentElement).toContainElement(show!);
    await user.click(show!);
    expect(current).toHaveAttribute('type', 'text');
    expect(show).toHaveAccessibleName('Hide password');
    expect(show).toHaveFocus();
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('type', 'password');
  });

  it('focuses the first invalid field in the order of the page after its own check', async () => {
    const { put } = renderForm();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(current).toHaveFocus());
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(put).not.toHaveBeenCalled();
  });

  it("focuses the first field the server rejected in the page's order, whatever order it lists them in", async () => {
    const put = vi.fn().mockRejectedValueOnce(
      rejection([
        { attribute: 'password', validator: 'history', text: 'You used this password before.' },
        { attribute: 'passwordOld', validator: 'matches', text: 'The current password is wrong.' },
      ]),
    );
    renderForm(put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(current).toHaveFocus());
    expect(current).toHaveAccessibleDescription('The current password is wrong.');
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
      'You used this password before.',
    );
  });

  it('moves the focus to the error summary when the save fails for no field', async () => {
    const put = vi.fn().mockRejectedValueOnce(
      new HttpError({
        status: 503,
        config: { url: apiPaths.password, method: 'PUT' },
        body: { status: 503, code: 'unavailable', message: 'Down' } as never,
      }),
    );
    renderForm(put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent(english['account-save-error']);
  });

  it("puts the server's violation texts on their fields, one item or a list", async () => {
    const put = vi
      .fn()
      .mockRejectedValueOnce(
        rejection({ attribute: 'passwordOld', validator: 'matches', text: 'The current password is wrong.' }),
      )
      .mockRejectedValueOnce(
        rejection([
          { attribute: 'password', validator: 'history', text: 'You used this password before.' },
          { attribute: 'other', validator: 'x', text: 'Something else.' },
        ]),
      );
    renderForm(put);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Current password/)).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('You used this password before.')).toBeInTheDocument();
    expect(screen.getByText('Something else.')).toBeInTheDocument();
    expect(put).toHaveBeenCalledWith(apiPaths.password, {
      passwordOld: 'old-secret-phrase',
      password: 'a-long-secret-phrase',
      signOutOtherDevices: true,
    });
  });

  it('signs out the other devices unless the customer unticks the switch (on by default)', async () => {
    const { put } = renderForm();
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: /^Sign out of all other devices/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    await user.type(screen.getByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() =>
      expect(put).toHaveBeenCalledWith(apiPaths.password, {
        passwordOld: 'old-secret-phrase',
        password: 'a-long-secret-phrase',
        signOutOtherDevices: false,
      }),
    );
  });

  it('says so in a live region when the password was changed, and empties the fields', async () => {
    const { put } = renderForm();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-secret-phrase');
    await user.type(screen.getByLabelText(/^New password/), 'a-long-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Your password has been changed.'),
    );
    expect(put).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText(/^New password/)).toHaveValue('');
  });
});
