import type { QueryClient } from '@tanstack/react-query';
import type { SessionUser } from '@roadpass/contracts';
import { loyaltyRedirectTarget, routes } from '@/config/routes';
import type { HttpClient } from '@/lib/http';
import { tierDetailsQuery } from '@/lib/loyalty/api/get-tier-details';
import { ensureLoyaltyConsents, isMember } from '@/lib/loyalty/api/get-customer-consents';
import { readItem, storageKeys, writeItem } from '@/lib/storage/storage';

/**
 * docs/product/addresses-and-routes.md#screens-and-routes: a stored redirect value `loyalty/{target}` is cleared and followed. Values of another form
 * belong to someone else and stay; a loyalty value with an unknown target is cleared and ignored.
 */
export function takeStoredLoyaltyRedirect(storage: Storage = sessionStorage): string | null {
  const stored = readItem(storage, storageKeys.redirect);
  if (!stored?.startsWith('loyalty/')) return null;
  writeItem(storage, storageKeys.redirect, null);
  return loyaltyRedirectTarget(stored);
}

/**
 * Where the entry route sends the customer (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions): members (core consent granted) to their
 * status, everybody else to the onboarding. Throws when the user or the loyalty service cannot be read,
 * so that the caller retries. For members the tier details are read too (the status page shows them
 * next), so that a loyalty service that does not answer is noticed here.
 */
export async function resolveEntryTarget(args: {
  http: HttpClient;
  queryClient: QueryClient;
  user: SessionUser | null;
}): Promise<string> {
  const { http, queryClient, user } = args;
  if (!user?.uuid) throw new Error("Couldn't load user information");
  const { consents, failed, error } = await ensureLoyaltyConsents(queryClient, http, user.uuid);
  // The failed call goes along (its reference for support shows on the page).
  if (failed) throw new Error('Loyalty consents could not be loaded', { cause: error });
  if (!isMember(consents)) return routes.loyalty.onboarding.build();
  await queryClient.fetchQuery(tierDetailsQuery(http, user.uuid));
  return routes.loyalty.status.build();
}
