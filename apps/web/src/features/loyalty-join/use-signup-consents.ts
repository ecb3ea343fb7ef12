import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LOYALTY_CORE_CONSENT, LOYALTY_PROCESS_ID, type ConsentDefinition } from '@roadpass/contracts';
import { useHttp } from '@/lib/http';
import { processConsentsQuery } from '@/lib/loyalty/api/get-process-consents';
import { ensureLoyaltyConsents, isMember } from '@/lib/loyalty/api/get-customer-consents';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { useAppStore } from '@/lib/state/app-store';

export type SignupConsents =
  | { kind: 'loading' }
  | { kind: 'member' }
  | { kind: 'failed' }
  | { kind: 'ready'; required: ConsentDefinition[]; optional: ConsentDefinition[] };

/**
 * What the signup needs (docs/product/addresses-and-routes.md#screens-and-routes): whether the customer is a member already (decided once, on arrival,
 * so that joining here does not count as "already granted") and the programme's consent texts in the
 * active language, the core consent first.
 */
export function useSignupConsents(enabled: boolean): SignupConsents {
  const http = useHttp();
  const queryClient = useQueryClient();
  const user = useCustomer();
  const activeLanguage = useAppStore((state) => state.activeLanguage);
  const [membership, setMembership] = useState<'loading' | 'member' | 'not-member' | 'failed'>('loading');
  const definitions = useQuery({
    ...processConsentsQuery(http, user.legalEntityId, LOYALTY_PROCESS_ID, activeLanguage),
    enabled,
  });

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    void ensureLoyaltyConsents(queryClient, http, user.uuid).then(({ consents, failed }) => {
      if (cancelled) return;
      setMembership(failed ? 'failed' : isMember(consents) ? 'member' : 'not-member');
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, http, queryClient, user.uuid]);

  if (membership === 'failed' || definitions.isError) return { kind: 'failed' };
  if (membership === 'member') return { kind: 'member' };
  if (membership === 'loading' || !definitions.data) return { kind: 'loading' };
  const required = definitions.data
    .filter((definition) => definition.required || definition.slug === LOYALTY_CORE_CONSENT)
    .sort((a, b) => Number(b.slug === LOYALTY_CORE_CONSENT) - Number(a.slug === LOYALTY_CORE_CONSENT));
  const optional = definitions.data.filter((definition) => !required.includes(definition));
  return { kind: 'ready', required, optional };
}
