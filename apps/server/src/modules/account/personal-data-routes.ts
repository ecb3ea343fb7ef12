import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  apiPaths,
  examplePersonalData,
  ApiErrorBody,
  MetaResponse,
  PersonalDataResponse,
  PersonalDataRTO,
  type PersonalDataField,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { routePattern } from '../../lib/route-pattern.js';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import { assertRecentSignIn } from '../../plugins/recent-sign-in.js';
import type { EmailChangeService } from '../email-change/index.js';
import type { TranslationSet } from '../content/index.js';
import type { AccountRules } from './account-rules-content.js';
import { createPersonalDataService } from './personal-data-service.js';

/** POST: any part of the profile. */
export const PersonalDataPartial = Type.Partial(PersonalDataRTO, {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ language: 'de_DE' }],
});
const PersonalDataFull = Type.Object(
  Object.fromEntries(
    Object.entries(PersonalDataRTO.properties).map(([key, schema]) => [
      key,
      { ...schema, examples: [examplePersonalData[key as PersonalDataField]] },
    ]),
  ) as unknown as typeof PersonalDataRTO.properties,
  { additionalProperties: false },
);

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };

/**
 * Personal data (docs/product/api.md#calls): GET the profile with its rules; PUT the full profile, POST a part. The
 * service checks and stores (personal-data-service); a body the schema refuses still reaches it
 * (`attachValidation`), after the sign-in check, so that refusal reads like the rules' own: their
 * names, the customer's language.
 */
export const personalDataRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  rules: AccountRules;
  emailChange: EmailChangeService;
  translations: TranslationSet;
  recentSignInSeconds: number;
  now?: () => Date;
}> = async (app, { customers, rules, emailChange, translations, recentSignInSeconds, now }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const personalData = createPersonalDataService({
    customers,
    rules,
    emailChange,
    translations,
    ...(now ? { now } : {}),
  });

  api.get(
    apiPaths.personalData,
    {
      schema: {
        tags: ['customer'],
        summary: "The signed-in customer's profile and the rules it is checked with",
        security: [{ bearer: [] }],
        response: { 200: PersonalDataResponse, ...errors },
      },
    },
    async (request) =>
      personalData.readOwn(request.customer!.customerId, signedInCustomer(customers, request)),
  );

  api.put(
    apiPaths.personalData,
    {
      schema: {
        tags: ['customer'],
        summary: "Replace the signed-in customer's profile (checked with the served rules)",
        security: [{ bearer: [] }],
        body: PersonalDataFull,
        response: { 200: PersonalDataResponse, ...errors },
      },
      attachValidation: true,
    },
    async (request) =>
      personalData.save(await signedInCustomer(customers, request), request.body, {
        partial: false,
        schemaErrors: request.validationError?.validation,
        beforeEmailChange: () => assertRecentSignIn(request.customer!, recentSignInSeconds),
      }),
  );

  api.post(
    apiPaths.personalData,
    {
      schema: {
        tags: ['customer'],
        summary: "Change part of the signed-in customer's profile (e.g. the language)",
        security: [{ bearer: [] }],
        body: PersonalDataPartial,
        response: { 200: PersonalDataResponse, ...errors },
      },
      attachValidation: true,
    },
    async (request) =>
      personalData.save(await signedInCustomer(customers, request), request.body, {
        partial: true,
        schemaErrors: request.validationError?.validation,
        beforeEmailChange: () => assertRecentSignIn(request.customer!, recentSignInSeconds),
      }),
  );

  const Country = Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$' });
  const Province = Type.String({ minLength: 1, maxLength: 8, pattern: '^[A-Za-z0-9-]+$' });
  const countryMeta = (country: string, province?: string) => {
    const list = rules.countryMeta(country.toUpperCase(), province?.toUpperCase());
    if (!list) throw ApiError.notFound(`No rules for ${[country, province].filter(Boolean).join('/')}`);
    return { meta: { metaDataList: list } };
  };

  api.get(
    routePattern(apiPaths.personalDataMeta, 'country'),
    {
      schema: {
        tags: ['customer'],
        summary:
          'The rules of a profile with an address in this country (404 for a country that is not ours)',
        security: [{ bearer: [] }],
        params: Type.Object({ country: Country }),
        response: { 200: MetaResponse, ...errors },
      },
    },
    async (request) => countryMeta(request.params.country),
  );

  api.get(
    routePattern(apiPaths.personalDataMeta, 'country', 'province'),
    {
      schema: {
        tags: ['customer'],
        summary: "The rules of a profile with an address in this country's province (404 for an unknown one)",
        security: [{ bearer: [] }],
        params: Type.Object({ country: Country, province: Province }),
        response: { 200: MetaResponse, ...errors },
      },
    },
    async (request) => countryMeta(request.params.country, request.params.province),
  );
};
