import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { SignOutButton } from './sign-out-button';

describe('SignOutButton', () => {
  it('signs out and stays busy while the browser leaves', async () => {
    const onSignOut = vi.fn(() => new Promise<void>(() => {}));
    renderWithProviders(<SignOutButton onSignOut={onSignOut} />);

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    expect(onSignOut).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Sign out' })).toHaveAttribute('aria-busy', 'true');
  });

  it('becomes usable again when sign-out fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<SignOutButton onSignOut={() => Promise.reject(new Error('offline'))} />);

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign out' })).toHaveAttribute('aria-busy', 'false'),
    );
  });
});
