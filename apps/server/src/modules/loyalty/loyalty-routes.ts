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
  LoyaltyExpiryForecast,
  LoyaltyPartnerCode,
  LoyaltyTierDetails,
  PointsReminderSetting,
  RewardSlug,
} from '@roadpass/contracts';
import type { ExpiryReminders } from './expiry-reminders.js';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import { loyaltyErrors } from './loyalty-errors.js';
import type { LoyaltyService, MemberState } from './loyalty-service.js';
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
  customers: CustomerRepository;
  service: LoyaltyService;
  reminders: ExpiryReminders;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the loyalty routes' membership check. */
    loyaltyMemberState: MemberState | null;
  }
}

/** The loyalty calls of docs/product/api.md#calls, for the signed-in member's own account only. */
export const loyaltyRoutes: FastifyPluginAsync<LoyaltyRoutesOptions> = async (
  app,
  { customers, service, reminders },
) => {
  // The member state the request's membership check read (tier details answer from it): a field of
  // the request, as a WeakMap keyed by request cost a measurable share of a cached call.
  app.decorateRequest('loyaltyMemberState', null);

  /** {uuid} must be the signed-in customer (403); the handler's read then answers membership (404). */
  const ownCustomerId = async (request: FastifyRequest) => {
    const { uuid } = request.params as { uuid: string };
    if (uuid.toLowerCase() !== request.customer!.customerId.toLowerCase())
      throw loyaltyErrors.otherCustomer();
  };

  /** {uuid} must be the signed-in customer (403), who must be a member (404). */
  const ownMembership = async (request: FastifyRequest) => {
    await ownCustomerId(request);
    const customerId = request.customer!.customerId;
    const state = await service.memberState(customerId);
    if (!state) throw loyaltyErrors.notAMember();
    request.loyaltyMemberState = state;
  };

  /** {uuid} must be the signed-in customer (403); no membership needed (the privacy page's choice). */
  const ownAccount = async (request: FastifyRequest) => {
    const { uuid } = request.params as { uuid: string };
    if (uuid.toLowerCase() !== request.customer!.customerId.toLowerCase())
      throw loyaltyErrors.otherCustomer();
    await signedInCustomer(customers, request);
  };

  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    routePattern(apiPaths.loyaltyExpiryForecast, 'uuid'),
    {
      // The forecast's read says whether the customer is a member: one statement, not three.
      preHandler: ownCustomerId,
      schema: {
        tags: ['loyalty'],
        summary:
          "The member's points expiring in each of the next 12 months, the nearest expiry and what keeps the tier",
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        response: { 200: LoyaltyExpiryForecast, ...errorResponses },
      },
    },
    async (request) => ({
      ...(await service.expiryForecast(request.customer!.customerId)),
      reminderDays: reminders.windows.map((w) => w.toDays),
    }),
  );

  const remindersPath = routePattern(apiPaths.pointsReminders, 'uuid');
  r.get(
    remindersPath,
    {
      preHandler: ownAccount,
      schema: {
        tags: ['loyalty'],
        summary: 'Whether the customer gets points expiry reminders (on unless turned off)',
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        response: { 200: PointsReminderSetting, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { pointsReminders: await reminders.enabled(request.customer!.customerId) };
    },
  );
  r.put(
    remindersPath,
    {
      preHandler: ownAccount,
      schema: {
        tags: ['loyalty'],
        summary: 'Turns points expiry reminders on or off for the customer',
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        body: PointsReminderSetting,
        response: { 200: PointsReminderSetting, ...errorResponses },
      },
    },
    async (request) => ({
      pointsReminders: await reminders.setEnabled(request.customer!.customerId, request.body.pointsReminders),
    }),
  );

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
    async (request, reply) => {
      // The state the membership check just read (from the instance's cache while nothing changed),
      // its JSON made once (the same text the route's serializer writes for these four fields).
      const state = request.loyaltyMemberState ?? (await service.memberState(request.customer!.customerId));
      if (!state) throw loyaltyErrors.notAMember();
      return reply
        .type('application/json; charset=utf-8')
        .send(state.detailsJson as unknown as LoyaltyTierDetails);
    },
  );

  r.get(
    routePattern(apiPaths.loyaltyHistory, 'uuid'),
    {
      // The page's read says whether the customer is a member: one statement, not two.
      preHandler: ownCustomerId,
      schema: {
        tags: ['loyalty'],
        summary: "One page of the member's points history, newest first",
        security: [{ bearer: [] }],
        params: OwnAccountParams,
        querystring: LoyaltyHistoryQuery,
        response: { 200: LoyaltyHistoryPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { page_index: pageIndex, page_size: pageSize } = request.query;
      const page = await service.historyJson(request.customer!.customerId, pageIndex, pageSize);
      if (page === null) throw loyaltyErrors.notAMember();
      // The page's JSON as built (the entries by the database): a string with a JSON type is sent as
      // it is, not serialised again.
      return reply.type('application/json; charset=utf-8').send(page as unknown as LoyaltyHistoryPage);
    },
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
          // docs/product/api.md#calls: "POST (empty body)"; "{}" is accepted too.
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
