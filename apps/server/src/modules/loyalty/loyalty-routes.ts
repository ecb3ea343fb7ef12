import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  apiPaths,
  ApiErrorBody,
  CustomerUuidParam,
  legalEntityById,
  LoyaltyHistoryPage,
  LoyaltyHistoryQuery,
  LoyaltyPartnerCode,
  LoyaltyTierDetails,
  RewardSlug,
} from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { isLoyaltyMember } from '../consents/consent-repository.js';
import type { CustomerRepository } from '../customers/customer-repository.js';
import { signedInCustomer } from '../customers/login-status.js';
import { loyaltyErrors } from './loyalty-errors.js';
import type { LoyaltyService } from './loyalty-service.js';
import type { PartnerCodeRow } from './loyalty-repository.js';
import { OPTIONAL_BODY } from '../../lib/openapi-document.js';
import { routePattern } from '../../lib/route-pattern.js';

const OwnAccountParams = Type.Object({ uuid: CustomerUuidParam });
const PartnerCodeParams = Type.Object({ uuid: CustomerUuidParam, slug: RewardSlug });
/** POST partner code takes no data: no body, or an empty JSON object. */
const EmptyBody = Type.Object({}, { additionalProperties: false });

const errorResponses = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };

const toPartnerCode = (row: PartnerCodeRow): LoyaltyPartnerCode => ({
  slug: row.slug,
  code: row.code,
  createdAt: row.createdAt.toISOString(),
});

export interface LoyaltyRoutesOptions {
  db: Db;
  customers: CustomerRepository;
  service: LoyaltyService;
}

/** The loyalty calls of spec §7, for the signed-in member's own account only. */
export const loyaltyRoutes: FastifyPluginAsync<LoyaltyRoutesOptions> = async (
  app,
  { db, customers, service },
) => {
  /** {uuid} must be the signed-in customer (403), who must be a member (404). */
  const ownMembership = async (request: FastifyRequest) => {
    const { uuid } = request.params as { uuid: string };
    const customerId = request.customer!.customerId;
    if (uuid.toLowerCase() !== customerId.toLowerCase()) throw loyaltyErrors.otherCustomer();
    if (!(await isLoyaltyMember(db, customerId))) throw loyaltyErrors.notAMember();
  };

  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    routePattern(apiPaths.loyaltyTierDetails, 'uuid'),
    {
      preHandler: ownMembership,
      schema: {
        tags: ['loyalty'],
        summary: "The member's points, tier and tier expiry",
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        response: { 200: LoyaltyTierDetails, ...errorResponses },
      },
    },
    async (request) => service.tierDetails(request.customer!.customerId),
  );

  r.get(
    routePattern(apiPaths.loyaltyHistory, 'uuid'),
    {
      preHandler: ownMembership,
      schema: {
        tags: ['loyalty'],
        summary: "One page of the member's points history, newest first",
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        querystring: LoyaltyHistoryQuery,
        response: { 200: LoyaltyHistoryPage, ...errorResponses },
      },
    },
    async (request) =>
      service.history(request.customer!.customerId, request.query.page_index, request.query.page_size),
  );

  const partnerCodePath = routePattern(apiPaths.loyaltyPartnerCode, 'uuid', 'slug');

  /** The customer's country, for the rewards offered there. */
  const countryOf = async (request: FastifyRequest) => {
    const customer = await signedInCustomer(customers, request);
    return legalEntityById(customer.legal_entity_id)?.isoCountry ?? 'DE';
  };

  r.get(
    partnerCodePath,
    {
      preHandler: ownMembership,
      schema: {
        tags: ['loyalty'],
        summary: "The member's code for a partner reward (404 until one was generated)",
        security: [{ bearer: [] }],
        params: PartnerCodeParams,
        response: { 200: LoyaltyPartnerCode, ...errorResponses },
      },
    },
    async (request) => {
      const { slug } = request.params;
      const customerId = request.customer!.customerId;
      const found = await service.findPartnerCode(customerId, slug);
      if (found) return toPartnerCode(found);
      const country = await countryOf(request);
      const check = await service.checkPartnerReward(customerId, country, slug);
      if (!check.ok && check.reason === 'unknown-reward') throw loyaltyErrors.unknownReward(slug, country);
      if (!check.ok && check.reason === 'not-partner-reward') throw loyaltyErrors.notAPartnerReward(slug);
      throw loyaltyErrors.partnerCodeNotFound(slug);
    },
  );

  // The app's HTTP client posts without a body; other clients send "{}" or an empty JSON body. All
  // three mean "no data" here, so this route alone reads an empty JSON body as none.
  await app.register(async (child) => {
    const parseJson = child.getDefaultJsonParser('error', 'error');
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      if (text === '') done(null, undefined);
      else parseJson(request, text, done);
    });

    child.withTypeProvider<TypeBoxTypeProvider>().post(
      partnerCodePath,
      {
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        preHandler: ownMembership,
        schema: {
          tags: ['loyalty'],
          summary: 'Generates the member’s code for a partner reward once; later calls return the same code',
          security: [{ bearer: [] }],
          params: PartnerCodeParams,
          body: EmptyBody,
          // Spec §7: "POST (empty body)"; "{}" is accepted too.
          [OPTIONAL_BODY]: true,
          response: { 200: LoyaltyPartnerCode, 201: LoyaltyPartnerCode, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        const customerId = request.customer!.customerId;
        // A code once given stays the customer's, even if their tier has gone down since.
        const found = await service.findPartnerCode(customerId, slug);
        if (found) return reply.code(200).send(toPartnerCode(found));
        const country = await countryOf(request);
        const check = await service.checkPartnerReward(customerId, country, slug);
        if (!check.ok) {
          if (check.reason === 'unknown-reward') throw loyaltyErrors.unknownReward(slug, country);
          if (check.reason === 'not-partner-reward') throw loyaltyErrors.notAPartnerReward(slug);
          throw loyaltyErrors.rewardLocked(slug, check.tierNeeded, check.tier);
        }
        const { partnerCode, created } = await service.obtainPartnerCode(customerId, slug);
        return reply.code(created ? 201 : 200).send(toPartnerCode(partnerCode));
      },
    );
  });
};
