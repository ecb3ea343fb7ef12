import Type from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  apiPaths,
  ApiErrorBody,
  Passkey,
  PasskeyCreate,
  PasskeyList,
  PasskeyParams,
  PasskeyRegistrationOptions,
  PasskeyRename,
} from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { ApiError } from '../../lib/api-error.js';
import { OPTIONAL_BODY } from '../../lib/openapi-document.js';
import { assertRecentSignIn } from '../../plugins/recent-sign-in.js';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import type { PasskeyService } from './passkey-service.js';
import { routePattern } from '../../lib/route-pattern.js';

const EmptyBody = Type.Object({}, { additionalProperties: false });
const errorResponses = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };
const passkeyPath = routePattern(apiPaths.passkey, 'passkeyId');
const notFound = () => ApiError.notFound('The customer has no passkey with this id');

/**
 * The customer's passkeys (docs/product/security.md#passkeys, docs/product/api.md#passkeys): list,
 * add (options, then the browser's answer), rename, remove. Adding and removing need a recent
 * sign-in (docs/product/security.md#step-up). Another customer's passkey is "not found".
 */
export const passkeyRoutes: FastifyPluginAsync<{
  config: AppConfig;
  customers: CustomerRepository;
  passkeys: PasskeyService;
}> = async (app, { config, customers, passkeys }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    apiPaths.passkeys,
    {
      schema: {
        tags: ['customer'],
        summary: "The customer's passkeys: name, when added, when last used",
        security: [{ bearer: [] }],
        response: { 200: PasskeyList, ...errorResponses },
      },
    },
    async (request) => ({ passkeys: await passkeys.list(request.customer!.customerId) }),
  );

  api.post(
    apiPaths.passkeyRegistrationOptions,
    {
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags: ['customer'],
        summary: 'Starts adding a passkey: WebAuthn creation options with a single-use challenge (5 minutes)',
        security: [{ bearer: [] }],
        body: EmptyBody,
        [OPTIONAL_BODY]: true,
        response: { 200: PasskeyRegistrationOptions, ...errorResponses },
      },
    },
    async (request) => {
      assertRecentSignIn(request.customer!, config.recentSignInSeconds);
      const customer = await signedInCustomer(customers, request);
      const displayName = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
      return passkeys.registrationOptions({ id: customer.id, email: customer.email, displayName });
    },
  );

  api.post(
    apiPaths.passkeys,
    {
      schema: {
        tags: ['customer'],
        summary: "Adds a passkey: the browser's answer to the registration options, and an optional name",
        security: [{ bearer: [] }],
        body: PasskeyCreate,
        response: { 201: Passkey, ...errorResponses },
      },
    },
    async (request, reply) => {
      assertRecentSignIn(request.customer!, config.recentSignInSeconds);
      const passkey = await passkeys.register(
        request.customer!.customerId,
        request.body,
        request.headers['user-agent'],
      );
      return reply.code(201).send(passkey);
    },
  );

  api.patch(
    passkeyPath,
    {
      schema: {
        tags: ['customer'],
        summary: 'Renames one of the customer’s passkeys',
        security: [{ bearer: [] }],
        params: PasskeyParams,
        body: PasskeyRename,
        response: { 200: Passkey, ...errorResponses },
      },
    },
    async (request) => {
      const renamed = await passkeys.rename(
        request.customer!.customerId,
        request.params.passkeyId,
        request.body.name,
      );
      if (!renamed) throw notFound();
      return renamed;
    },
  );

  api.delete(
    passkeyPath,
    {
      schema: {
        tags: ['customer'],
        summary: 'Removes one of the customer’s passkeys (needs a recent sign-in)',
        security: [{ bearer: [] }],
        params: PasskeyParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      assertRecentSignIn(request.customer!, config.recentSignInSeconds);
      if (!(await passkeys.remove(request.customer!.customerId, request.params.passkeyId))) throw notFound();
      return reply.code(204).send(null);
    },
  );
};
