import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiPaths, ApiErrorBody, LoginStatus } from '@roadpass/contracts';
import type { CustomerRepository } from './customer-repository.js';
import { signedInCustomer, toLoginStatus } from './login-status.js';

/** GET login status: the legal entity and session data of the signed-in customer. */
export const loginStatusRoutes: FastifyPluginAsync<{ customers: CustomerRepository }> = async (
  app,
  { customers },
) => {
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
    async (request) => {
      const customer = await signedInCustomer(customers, request);
      return toLoginStatus(customer);
    },
  );
};
