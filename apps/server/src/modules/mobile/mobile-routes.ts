import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  ApiErrorBody,
  apiPaths,
  ConstraintViolationError,
  MobileResponse,
  MobileUpdate,
} from '@roadpass/contracts';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import type { MobileService, MobileState } from './mobile-service.js';
import { assertRecentSignIn } from '../../plugins/recent-sign-in.js';
import { ConstraintViolation } from '../../lib/constraint-violation.js';

// Rule breaks carry the spec's constraintViolationMetaInfo; schema errors the plain API error.
const violationError = Type.Union([ConstraintViolationError, ApiErrorBody]);
const errors = { 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody, 429: violationError };

/** The mobile number calls of docs/product/api.md#calls (docs/product/account-rules.md#account-rules): change confirmed by a PIN sent by SMS. */
export const mobileRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  mobile: MobileService;
  recentSignInSeconds: number;
}> = async (app, { customers, mobile, recentSignInSeconds }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const answer = (state: MobileState): MobileResponse => ({
    body: { mobilePhone: state.mobilePhone, pending: state.pending },
    meta: { metaDataList: mobile.meta },
  });

  api.get(
    apiPaths.mobile,
    {
      schema: {
        tags: ['customer'],
        summary: 'The mobile number, a change waiting for its PIN, and the rules (meta)',
        security: [{ bearer: [] }],
        response: { 200: MobileResponse, 400: ApiErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return answer(await mobile.state(await signedInCustomer(customers, request)));
    },
  );

  api.put(
    apiPaths.mobile,
    {
      schema: {
        tags: ['customer'],
        summary: 'mobilePhone alone sends a 6-digit PIN by SMS; mobilePhone with pin confirms the change',
        security: [{ bearer: [] }],
        body: MobileUpdate,
        response: { 200: MobileResponse, 400: violationError, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      // docs/product/security.md#step-up: both steps (PIN request and confirmation) need a recent sign-in.
      assertRecentSignIn(request.customer!, recentSignInSeconds);
      const { mobilePhone, pin } = request.body;
      reply.header('cache-control', 'no-store');
      try {
        return answer(
          pin === undefined
            ? await mobile.requestPin(customer, mobilePhone)
            : await mobile.confirm(customer, mobilePhone, pin),
        );
      } catch (error) {
        if (error instanceof ConstraintViolation && error.retryAfterSeconds !== undefined)
          reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );
};
