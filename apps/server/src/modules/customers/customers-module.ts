import type { FastifyPluginAsync } from 'fastify';
import type { CustomerRepository } from './customer-repository.js';
import { loginStatusRoutes } from './login-status-routes.js';

/** The signed-in customer's login status, answered from the per-instance read cache (decision 0011). */
export const customersModule: FastifyPluginAsync<{ customers: CustomerRepository }> = async (
  app,
  { customers },
) => {
  await app.register(loginStatusRoutes, { customers, cache: app.readCaches.customers });
};
