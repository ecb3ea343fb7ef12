import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  apiPaths,
  ApiErrorBody,
  legalEntityById,
  LoginStatus,
  PersonalDataPartialUpdate,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import type { CustomerRepository } from './customer-repository.js';
import { signedInCustomer, toLoginStatus } from './login-status.js';

/** POST personal data (partial profile): for now the customer's language. */
export const personalDataRoutes: FastifyPluginAsync<{ customers: CustomerRepository }> = async (
  app,
  { customers },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    apiPaths.personalData,
    {
      schema: {
        tags: ['customer'],
        summary: "Change part of the signed-in customer's profile (the language)",
        security: [{ bearer: [] }],
        body: PersonalDataPartialUpdate,
        response: {
          200: LoginStatus,
          400: ApiErrorBody,
          401: ApiErrorBody,
          403: ApiErrorBody,
          404: ApiErrorBody,
        },
      },
    },
    async (request) => {
      const customer = await signedInCustomer(customers, request);
      const entity = legalEntityById(customer.legal_entity_id);
      const [lang, country] = request.body.language.split('_') as [string, string];
      if (!entity || country !== entity.isoCountry || !entity.languages.includes(lang)) {
        const allowed = entity?.languages.map((l) => `${l}_${entity.isoCountry}`).join(', ') ?? '';
        throw ApiError.badRequest('This language is not offered in your country', [
          { field: 'language', rule: 'listMatch', message: `language must be one of ${allowed}` },
        ]);
      }
      const updated = await customers.update(customer.id, { language: request.body.language });
      return toLoginStatus(updated);
    },
  );
};
