import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  ApiErrorBody,
  ConsentDefinitionList,
  ConsentDefinitionQuery,
  ConsentSlug,
  CustomerConsent,
  CustomerConsentList,
  CustomerConsentUpdate,
  CustomerUuidParam,
  legalEntityById,
  LegalEntityIdParam,
  type Language,
  type LegalEntity,
  apiPaths,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { type LoyaltyContent, requestedLanguage } from '../content/index.js';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import { consentRecordsReader, saveConsent, type ConsentRecord } from './consent-repository.js';
import { routePattern, withTextParams } from '../../lib/route-pattern.js';

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };
const Name = Type.String({ minLength: 1, maxLength: 64 });

function legalEntityOf(id: number): LegalEntity {
  const entity = legalEntityById(id);
  if (!entity) throw ApiError.notFound(`No legal entity ${id}`);
  return entity;
}

/** Consent records are personal data: only the signed-in customer's own uuid is accepted. */
function ensureOwnUuid(request: FastifyRequest, uuid: string): void {
  if (uuid.toLowerCase() !== request.customer!.customerId.toLowerCase())
    throw ApiError.forbidden('You may only read and change your own consents');
}

function toCustomerConsent(slug: string, record: ConsentRecord | undefined): CustomerConsent {
  if (!record) return { slug, granted: false };
  return {
    slug,
    granted: record.granted,
    legalEntityId: record.legalEntityId,
    updatedAt: record.updatedAt.toISOString(),
  };
}

/**
 * The consent calls of docs/product/api.md#calls. Definitions are content per legal entity (not personal data, so any
 * signed-in customer may read any entity's); records belong to their customer alone.
 */
export const consentRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  content: LoyaltyContent;
}> = async (app, { customers, content }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const recordsOf = consentRecordsReader(app.db);
  const definitionsOf = (entity: LegalEntity, language: string | undefined) =>
    content.consentDefinitions(
      entity.legalEntityId,
      requestedLanguage(language, entity.languages[0] as Language),
    );

  api.get(
    routePattern(withTextParams(apiPaths.consentSet), 'legalEntityId', 'set'),
    {
      schema: {
        tags: ['consents'],
        summary: 'The consents of a consent set (e.g. editable-by-customer) in a legal entity',
        security: [{ bearer: [] }],
        params: Type.Object({ legalEntityId: LegalEntityIdParam, set: Name }),
        querystring: ConsentDefinitionQuery,
        response: { 200: ConsentDefinitionList, ...errors },
      },
    },
    async (request) => {
      const { legalEntityId, set } = request.params;
      const entity = legalEntityOf(legalEntityId);
      if (!content.consentSets.includes(set)) throw ApiError.notFound(`No consent set "${set}"`);
      const data = definitionsOf(entity, request.query.language).filter((d) => d.sets.includes(set));
      return { data };
    },
  );

  api.get(
    routePattern(withTextParams(apiPaths.processConsents), 'legalEntityId', 'process'),
    {
      schema: {
        tags: ['consents'],
        summary: 'The consents of a process (e.g. loyalty-programme-89sN) in a legal entity',
        security: [{ bearer: [] }],
        params: Type.Object({ legalEntityId: LegalEntityIdParam, process: Name }),
        querystring: ConsentDefinitionQuery,
        response: { 200: ConsentDefinitionList, ...errors },
      },
    },
    async (request) => {
      const { legalEntityId, process } = request.params;
      const entity = legalEntityOf(legalEntityId);
      if (!content.consentProcesses.includes(process))
        throw ApiError.notFound(`No consent process "${process}"`);
      const data = definitionsOf(entity, request.query.language).filter((d) => d.processes.includes(process));
      return { data };
    },
  );

  api.get(
    routePattern(apiPaths.customerConsents, 'uuid'),
    {
      schema: {
        tags: ['consents'],
        summary:
          "Every consent of the customer's legal entity with the customer's answer (false without one)",
        security: [{ bearer: [] }],
        params: Type.Object({ uuid: CustomerUuidParam }),
        response: { 200: CustomerConsentList, ...errors },
      },
    },
    async (request) => {
      ensureOwnUuid(request, request.params.uuid);
      // The customer and their records in the same turn, each read with other calls' (decision 0053).
      const [customer, records] = await Promise.all([
        signedInCustomer(customers, request),
        recordsOf(request.customer!.customerId).then((list) => new Map(list.map((r) => [r.slug, r]))),
      ]);
      const definitions = content.consentDefinitions(customer.legal_entity_id, 'en');
      return { data: definitions.map((d) => toCustomerConsent(d.slug, records.get(d.slug))) };
    },
  );

  api.patch(
    routePattern(apiPaths.customerConsent, 'uuid', 'slug'),
    {
      schema: {
        tags: ['consents'],
        summary: 'Grant or revoke one consent of the signed-in customer',
        security: [{ bearer: [] }],
        params: Type.Object({ uuid: CustomerUuidParam, slug: ConsentSlug }),
        body: CustomerConsentUpdate,
        response: { 200: CustomerConsent, ...errors },
      },
    },
    async (request) => {
      const { uuid, slug } = request.params;
      ensureOwnUuid(request, uuid);
      const customer = await signedInCustomer(customers, request);
      const defined = content.consentDefinitions(customer.legal_entity_id, 'en').some((d) => d.slug === slug);
      if (!defined) throw ApiError.notFound(`No consent "${slug}" in your legal entity`);
      if (request.body.legalEntityId !== customer.legal_entity_id) {
        throw ApiError.badRequest('The consent must be given for your own legal entity', [
          {
            field: 'legalEntityId',
            rule: 'match',
            message: `legalEntityId must be ${customer.legal_entity_id}, the legal entity of your account`,
          },
        ]);
      }
      const record = await saveConsent(app.db, {
        customerId: customer.id,
        slug,
        legalEntityId: customer.legal_entity_id,
        granted: request.body.granted,
      });
      return toCustomerConsent(slug, record);
    },
  );
};
