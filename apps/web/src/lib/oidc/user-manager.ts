import { UserManager } from 'oidc-client-ts';
import type { RuntimeConfig } from '@roadpass/contracts';
import { authorityOf } from '@roadpass/contracts';
import { routes } from '@/config/routes';
import { dpopKeyStore } from './dpop';
import { MirroredUserStore } from './mirrored-user-store';

/**
 * The OIDC client of docs/product/api.md#calls: authorization code flow with PKCE (S256), client and realm from
 * /config.json. No iframes and no library timers: session monitoring and automatic silent renew are
 * off, renewal is scheduled by token-refresh.ts and uses the refresh_token grant.
 */
export function createUserManager(
  config: RuntimeConfig,
  origin: string = window.location.origin,
): UserManager {
  const identityProvider = {
    ...config.identityProvider,
    // A root-relative provider URL (same origin) is allowed in config.json.
    url: new URL(config.identityProvider.url, origin).href,
  };
  const { metadata } = config.identityProvider;
  return new UserManager({
    authority: authorityOf({ ...config, identityProvider }),
    // The embedded realm's endpoints come with the configuration: no discovery request before the
    // sign-in redirect (an external provider's document is read as usual).
    ...(metadata ? { metadata } : {}),
    client_id: config.identityProvider.clientId,
    redirect_uri: `${origin}${routes.authCallback.build()}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: 'openid profile email',
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false,
    userStore: new MirroredUserStore(sessionStorage),
    // docs/product/constants.md#business-constants: callback state kept 60 minutes, messages time out after 10 s.
    staleStateAgeInSeconds: 3600,
    silentRequestTimeoutInSeconds: 10,
    // Tokens bound to this browser's non-extractable key (decision 0044): a proof with every token
    // request, refresh tokens included; the key is dropped with the user at sign-out.
    dpop: { store: dpopKeyStore },
  });
}
