import { appPaths, LOYALTY_EVENTS_SCOPE } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { getOrCreateSecret, randomSecret } from '../../lib/app-secrets.js';

/** Name of the app_secrets row holding the generated secret (outside production only). */
export const SERVICE_CLIENT_SECRET_NAME = 'loyalty-service-client-secret';

/**
 * The secret of the rental system's service client at the embedded provider: LOYALTY_CLIENT_SECRET
 * when set; outside production otherwise one generated on first use and kept in the database (every
 * instance and the operator command read the same one); in production without it, none: no service
 * client is registered. With an external issuer the realm manages its clients, so there is none here.
 */
export async function serviceClientSecret(db: Db, config: AppConfig): Promise<string | undefined> {
  if (config.externalIssuer) return undefined;
  if (config.loyaltyClientSecret) return config.loyaltyClientSecret;
  if (config.env === 'production') return undefined;
  return getOrCreateSecret(db, SERVICE_CLIENT_SECRET_NAME, () => randomSecret(32));
}

/** Where a service client gets its token, and what it asks for. */
export function serviceClientSettings(config: AppConfig) {
  const issuer =
    config.externalIssuer ?? `${config.publicUrl}${appPaths.identityProviderBase}/realms/${appPaths.realm}`;
  return {
    clientId: config.loyaltyClientId,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    audience: config.loyaltyAudience,
    scope: LOYALTY_EVENTS_SCOPE,
  };
}
