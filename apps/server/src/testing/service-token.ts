import type { FastifyInstance } from 'fastify';
import { LOYALTY_EVENTS_SCOPE } from '@roadpass/contracts';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { serviceClientSecret } from '../modules/loyalty/index.js';
import { pathOf, providerEndpoints, type InjectResponse } from './sign-in.js';

export interface ClientCredentialsOptions {
  clientId?: string;
  secret?: string;
  /** Scope to ask for; default loyalty:events. */
  scope?: string;
  resource?: string;
}

/** The client credentials grant at the embedded provider's token endpoint (HTTP Basic client auth). */
export async function requestServiceToken(
  app: FastifyInstance,
  db: Db,
  config: AppConfig,
  options: ClientCredentialsOptions = {},
): Promise<InjectResponse> {
  const clientId = options.clientId ?? config.loyaltyClientId;
  const secret = options.secret ?? (await serviceClientSecret(db, config)) ?? '';
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString(
    'base64',
  );
  return app.inject({
    method: 'POST',
    url: pathOf(providerEndpoints(app).token),
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: options.scope ?? LOYALTY_EVENTS_SCOPE,
      ...(options.resource ? { resource: options.resource } : {}),
    }).toString(),
  });
}

/** A service client access token for the internal loyalty endpoint. */
export async function serviceToken(app: FastifyInstance, db: Db, config: AppConfig): Promise<string> {
  const response = await requestServiceToken(app, db, config);
  if (response.statusCode !== 200) {
    throw new Error(`client credentials answered ${response.statusCode}: ${response.body}`);
  }
  return String(response.json<{ access_token: string }>().access_token);
}
