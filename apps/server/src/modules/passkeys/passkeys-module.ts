import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { CustomerRepository } from '../customers/index.js';
import { passkeyRoutes } from './passkey-routes.js';
import { createPasskeyService } from './passkey-service.js';

/** The customer's passkeys (docs/product/security.md#passkeys). */
export const passkeysModule: FastifyPluginAsync<{
  config: AppConfig;
  customers: CustomerRepository;
}> = async (app, { config, customers }) => {
  const passkeys = createPasskeyService(app.db, { publicUrl: config.publicUrl });
  await app.register(passkeyRoutes, { config, customers, passkeys });
};
