import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { LOYALTY_CORE_CONSENT, type CustomerConsent, type SessionUser } from '@roadpass/contracts';
import { useHttp } from '@/lib/http';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { saveConsent } from '@/lib/loyalty/api/update-customer-consent';
import { privacyKeys } from './query-keys';

/** One switch pressed: the consent and the answer it now gives; `undo` when it takes a change back. */
export interface ConsentToggle {
  slug: string;
  granted: boolean;
  undo?: boolean;
}

export interface ConsentToggleHandlers {
  onSaved(saved: CustomerConsent, toggle: ConsentToggle): void;
  onFailed(toggle: ConsentToggle, error: Error): void;
}

/** The cached list with one consent replaced (or added when the list did not have it yet). */
function withConsent(list: CustomerConsent[] | undefined, consent: CustomerConsent): CustomerConsent[] {
  const consents = list ?? [];
  return consents.some((c) => c.slug === consent.slug)
    ? consents.map((c) => (c.slug === consent.slug ? consent : c))
    : [...consents, consent];
}

/**
 * Saves one consent at once (docs/product/api.md#calls: one PATCH per consent, with the customer's legal entity), shown
 * optimistically: the cached answer changes before the call and goes back if the call fails. Only the
 * toggled consent is restored, so other switches saving at the same time keep their state.
 */
export function useToggleConsent(user: SessionUser, handlers: ConsentToggleHandlers) {
  const http = useHttp();
  const queryClient = useQueryClient();
  const consentsKey = loyaltyKeys.consents(user.uuid);
  return useMutation({
    mutationKey: privacyKeys.consentUpdate(user.uuid),
    mutationFn: ({ slug, granted }: ConsentToggle) =>
      saveConsent(queryClient, http, user.uuid, slug, { legalEntityId: user.legalEntityId, granted }),
    onMutate: async ({ slug, granted }) => {
      await queryClient.cancelQueries({ queryKey: consentsKey });
      const before = queryClient
        .getQueryData<CustomerConsent[]>(consentsKey)
        ?.find((consent) => consent.slug === slug);
      queryClient.setQueryData<CustomerConsent[]>(consentsKey, (list) =>
        withConsent(list, { ...(before ?? { slug }), granted }),
      );
      return { before: before ?? { slug, granted: !granted } };
    },
    onError: (error, toggle, result) => {
      if (result)
        queryClient.setQueryData<CustomerConsent[]>(consentsKey, (list) => withConsent(list, result.before));
      handlers.onFailed(toggle, error);
    },
    onSuccess: (saved, toggle) => handlers.onSaved(saved, toggle),
    onSettled: (_saved, _error, { slug }) => {
      if (slug !== LOYALTY_CORE_CONSENT) return;
      // Membership is the core consent (decision 0006): what the loyalty app showed is out of date.
      for (const key of [
        loyaltyKeys.tierDetails(user.uuid),
        loyaltyKeys.history(user.uuid),
        loyaltyKeys.expiryForecast(user.uuid),
        [...loyaltyKeys.all, 'partner-code', user.uuid],
      ]) {
        queryClient.removeQueries({ queryKey: key });
      }
    },
  });
}

/** The consents whose save is under way (their switches take no second press meanwhile). */
export function useSavingConsents(uuid: string): string[] {
  return useMutationState({
    filters: { mutationKey: privacyKeys.consentUpdate(uuid), status: 'pending' },
    select: (mutation) => (mutation.state.variables as ConsentToggle).slug,
  });
}
