import { QueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { isSignedIn, sessionUserOf, setLoginStatus, updateSessionUser, useSessionUser } from './session-user';

function Greeting() {
  const user = useSessionUser();
  return <p>{user ? `${user.firstName} ${user.lastName} (${user.language})` : 'nobody'}</p>;
}

describe('the session user', () => {
  it('is read from the login-status query, never fetched by a screen', async () => {
    const queryClient = new QueryClient();
    const { http } = renderWithProviders(<Greeting />, { queryClient });
    expect(screen.getByText('nobody')).toBeInTheDocument();
    expect(http.get).not.toHaveBeenCalled();

    act(() => setLoginStatus(queryClient, demoLoginStatus));
    expect(await screen.findByText('Dora Demo (de_DE)')).toBeInTheDocument();
  });

  it('shows a save on every screen at once, and the cache holds the one copy', async () => {
    const queryClient = new QueryClient();
    setLoginStatus(queryClient, demoLoginStatus);
    renderWithProviders(<Greeting />, { queryClient });

    act(() => updateSessionUser(queryClient, { firstName: 'Dorothea', language: 'en_DE' }));

    expect(await screen.findByText('Dorothea Demo (en_DE)')).toBeInTheDocument();
    expect(sessionUserOf(queryClient)).toMatchObject({
      firstName: 'Dorothea',
      uuid: demoLoginStatus.user.uuid,
    });
  });

  it('is forgotten when the load fails (null clears it)', () => {
    const queryClient = new QueryClient();
    setLoginStatus(queryClient, demoLoginStatus);
    setLoginStatus(queryClient, null);
    expect(sessionUserOf(queryClient)).toBeNull();
  });

  it('is signed in exactly when the uuid is non-empty', () => {
    expect(isSignedIn(demoLoginStatus.user)).toBe(true);
    expect(isSignedIn({ ...demoLoginStatus.user, uuid: '' })).toBe(false);
    expect(isSignedIn(null)).toBe(false);
  });
});
