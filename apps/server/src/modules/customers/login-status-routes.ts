import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiPaths, ApiErrorBody, LoginStatus } from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import type { CustomerRepository } from './customer-repository.js';
import { toLoginStatus } from './login-status.js';

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
      const customer = await customers.findById(request.customer!.customerId);
      if (!customer) throw ApiError.notFound('No customer account belongs to this token');
      return toLoginStatus(customer);
    },
  );
};
