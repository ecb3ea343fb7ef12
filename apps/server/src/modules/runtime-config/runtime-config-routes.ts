import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { appPaths, RuntimeConfig } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';

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
  };
}

const environmentOf = { production: 'production', development: 'local', test: 'test' } as const;

/** GET /config.json: the runtime configuration the app reads at start; never cached. */
export const runtimeConfigRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  const body: RuntimeConfig = {
    environment: environmentOf[config.env],
    identityProvider: identityProviderOf(config),
    errorReporting: {
      dsn: process.env.ERROR_REPORTING_DSN || null,
      tracesSampleRate: config.env === 'production' ? 0.3 : 1,
    },
    tagManager: { id: process.env.TAG_MANAGER_ID || null },
  };
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
