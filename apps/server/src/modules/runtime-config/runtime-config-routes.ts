import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { appPaths, RuntimeConfig } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { realmClientMetadata } from '../../idp/realm.js';

/** Splits a Keycloak-style issuer (…/realms/{realm}) into base URL and realm. */
export function identityProviderOf(config: AppConfig): RuntimeConfig['identityProvider'] {
  if (config.externalIssuer) {
    const match = /^(.*)\/realms\/([^/]+)$/.exec(config.externalIssuer);
    return {
      url: match ? match[1]! : config.externalIssuer,
      realm: match ? match[2]! : '',
      clientId: config.oidcClientId,
    };
  }
  return {
    url: `${config.publicUrl}${appPaths.identityProviderBase}`,
    realm: appPaths.realm,
    clientId: config.oidcClientId,
    metadata: realmClientMetadata(config.publicUrl),
  };
}

const environmentOf = { production: 'production', development: 'local', test: 'test' } as const;

/** The runtime configuration of this server: served as /config.json and embedded in the app's HTML. */
export function runtimeConfigOf(config: AppConfig): RuntimeConfig {
  return {
    environment: environmentOf[config.env],
    identityProvider: identityProviderOf(config),
    errorReporting: {
      dsn: config.errorReportingDsn,
      tracesSampleRate: config.env === 'production' ? 0.3 : 1,
      serverErrorStatuses: config.errorReportingServerStatuses,
    },
    feedback: { ...config.feedback },
    tagManager: { id: config.tagManagerId ?? null, url: config.tagManagerUrl },
  };
}

/** GET /config.json: the runtime configuration the app reads at start; never cached. */
export const runtimeConfigRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  const body = runtimeConfigOf(config);
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      appPaths.runtimeConfig,
      { schema: { tags: ['config'], response: { 200: RuntimeConfig } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return body;
      },
    );
};
