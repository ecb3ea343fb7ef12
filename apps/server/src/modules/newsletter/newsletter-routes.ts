import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  ApiErrorBody,
  apiPaths,
  NewsletterLogResponse,
  NewsletterUpdate,
  UnsubscribeLookup,
} from '@roadpass/contracts';
import { routePattern } from '../../lib/route-pattern.js';
import { checkTokenCallRateLimit } from '../../plugins/rate-limits.js';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import type { NewsletterService } from './newsletter-service.js';

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };
const AgreementId = Type.String({ minLength: 1, maxLength: 64 });
const Token = Type.String({ minLength: 1, maxLength: 128 });

/**
 * The newsletter calls of docs/product/api.md#calls (the customer's agreement and its history) and the two calls of an
 * unsubscribe link, which need no login (decision 0028).
 */
export const newsletterRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  newsletter: NewsletterService;
}> = async (app, { customers, newsletter }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    apiPaths.newsletterLog,
    {
      schema: {
        tags: ['customer'],
        summary: 'The newsletter agreement, its id and its history (a cache-busting parameter is ignored)',
        security: [{ bearer: [] }],
        // The app adds a time-based parameter against caches; any query parameter is accepted and ignored.
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: NewsletterLogResponse, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      reply.header('cache-control', 'no-store');
      return { body: { NewsletterLogRTO: await newsletter.log(customer.id) } };
    },
  );

  api.put(
    routePattern(apiPaths.newsletter, 'id'),
    {
      schema: {
        tags: ['customer'],
        summary: 'Subscribe to or unsubscribe from the newsletter (id from the log)',
        security: [{ bearer: [] }],
        params: Type.Object({ id: AgreementId }),
        body: NewsletterUpdate,
        response: { 200: NewsletterLogResponse, ...errors },
      },
    },
    async (request) => {
      const customer = await signedInCustomer(customers, request);
      const log = await newsletter.setAgreement(
        customer.id,
        request.params.id,
        request.body.newsletterAgreement,
        'WEB',
      );
      return { body: { NewsletterLogRTO: log } };
    },
  );

  api.delete(
    routePattern(apiPaths.newsletterAll, 'id'),
    {
      schema: {
        tags: ['customer'],
        summary: 'Unsubscribe from every newsletter (id from the log)',
        security: [{ bearer: [] }],
        params: Type.Object({ id: AgreementId }),
        response: { 200: NewsletterLogResponse, ...errors },
      },
    },
    async (request) => {
      const customer = await signedInCustomer(customers, request);
      const log = await newsletter.setAgreement(customer.id, request.params.id, false, 'WEB');
      return { body: { NewsletterLogRTO: log } };
    },
  );

  const tokenErrors = { 400: ApiErrorBody, 404: ApiErrorBody, 429: ApiErrorBody };

  api.get(
    routePattern(apiPaths.unsubscribeLookup, 'token'),
    {
      config: { public: true },
      preHandler: checkTokenCallRateLimit,
      schema: {
        tags: ['consents'],
        summary: 'The e-mail address an unsubscribe link was sent to (no login)',
        params: Type.Object({ token: Token }),
        response: { 200: UnsubscribeLookup, ...tokenErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { email: await newsletter.lookup(request.params.token) };
    },
  );

  api.delete(
    routePattern(apiPaths.unsubscribe, 'token'),
    {
      config: { public: true },
      preHandler: checkTokenCallRateLimit,
      schema: {
        tags: ['consents'],
        summary: 'Unsubscribe from the newsletter by the token of an e-mail link (no login)',
        params: Type.Object({ token: Token }),
        // 200 with the address that is now unsubscribed, for the page's confirmation.
        response: { 200: UnsubscribeLookup, ...tokenErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { email: await newsletter.unsubscribe(request.params.token) };
    },
  );
};
