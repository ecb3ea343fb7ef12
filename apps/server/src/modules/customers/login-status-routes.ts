import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiPaths, ApiErrorBody, LoginStatus } from '@roadpass/contracts';
import type { InvalidatingCache } from '../../lib/invalidating-cache.js';
import type { CustomerRepository } from './customer-repository.js';
import { signedInCustomer, toLoginStatus } from './login-status.js';

/**
 * GET login status: the legal entity and session data of the signed-in customer. Its JSON is kept in
 * the instance's cache by customer (decision 0011): every call of the app asks for it.
 */
export const loginStatusRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  cache: InvalidatingCache<string>;
}> = async (app, { customers, cache }) => {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    apiPaths.loginStatus,
    {
      schema: {
        tags: ['customer'],
        summary: 'Legal entity and session data of the signed-in customer',
        security: [{ bearer: [] }],
        response: { 200: LoginStatus, 401: ApiErrorBody, 404: ApiErrorBody },
      },
    },
    async (request, reply) => {
      // Serialised once by the route's own serializer, then sent as it is while it holds.
      const load = async () => ({
        value: reply.serialize(toLoginStatus(await signedInCustomer(customers, request))) as string,
      });
      const json = await cache.get(request.customer!.customerId.toLowerCase(), 'login-status', load);
      return reply.type('application/json; charset=utf-8').send(json as unknown as LoginStatus);
    },
  );
};
