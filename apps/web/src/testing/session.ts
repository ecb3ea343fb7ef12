import type { QueryClient } from '@tanstack/react-query';
import type { SessionUser } from '@roadpass/contracts';
import { sessionUserOf, setLoginStatus } from '@/lib/session/session-user';

/**
 * The customer a test runs as. Start-up puts the signed-in customer in the login-status query; a
 * component test says who is signed in here, and every query client `renderWithProviders` hands out
 * starts with that customer in its cache, as after start-up. Cleared after each test.
 */
let signedIn: SessionUser | null = null;

export function signInForTests(user: SessionUser | null): void {
  signedIn = user;
}

export function applyTestSession(queryClient: QueryClient): void {
  if (signedIn && !sessionUserOf(queryClient))
    setLoginStatus(queryClient, { legalEntityId: signedIn.legalEntityId, user: signedIn });
}

export function resetTestSession(): void {
  signedIn = null;
}
