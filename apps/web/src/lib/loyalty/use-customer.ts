import type { SessionUser } from '@roadpass/contracts';
import { useSessionUser } from '@/lib/session/session-user';

/**
 * The signed-in customer on a loyalty screen. The loyalty router renders these screens only with a
 * user (start-up signs in first), so a missing one is a programming error.
 */
export function useCustomer(): SessionUser {
  const user = useSessionUser();
  if (!user) throw new Error('The loyalty screens need a signed-in customer');
  return user;
}
