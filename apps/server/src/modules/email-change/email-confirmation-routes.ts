import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiErrorBody, apiPaths, EmailConfirmation, EmailConfirmationResult } from '@roadpass/contracts';
import { checkTokenCallRateLimit } from '../../plugins/rate-limits.js';
import type { EmailChangeService } from './email-change-service.js';

/**
 * POST the token of the link sent to a new address: confirms the change. No login and no
 * anti-forgery token (decision 0028): the unguessable, single-use token is
 * the proof, and the person may open the link on a device where they are not signed in.
 */
export const emailConfirmationRoutes: FastifyPluginAsync<{ emailChange: EmailChangeService }> = async (
  app,
  { emailChange },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    apiPaths.emailConfirmation,
    {
      config: { public: true },
      preHandler: checkTokenCallRateLimit,
      schema: {
        tags: ['customer'],
        summary: 'Confirm a new e-mail address with the token of the link sent to it (no login)',
        body: EmailConfirmation,
        response: {
          200: EmailConfirmationResult,
          400: ApiErrorBody,
          404: ApiErrorBody,
          409: ApiErrorBody,
          429: ApiErrorBody,
        },
      },
    },
    async (request, reply) => {
      const customer = await emailChange.confirm(request.body.token);
      reply.header('cache-control', 'no-store');
      return { email: customer.email };
    },
  );
};
