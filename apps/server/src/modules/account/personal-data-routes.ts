import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  addressFields,
  apiPaths,
  examplePersonalData,
  ApiErrorBody,
  changedReadonlyFields,
  checkValues,
  compileRules,
  customValidators,
  legalEntityById,
  MetaResponse,
  PersonalDataResponse,
  PersonalDataRTO,
  type PersonalDataField,
  type RuleViolation,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { routePattern } from '../../lib/route-pattern.js';
import type { CustomerUpdate } from '../../db/schema.js';
import { type Customer, type CustomerRepository, signedInCustomer } from '../customers/index.js';
import type { EmailChangeService } from '../email-change/index.js';
import type { TranslationSet } from '../content/index.js';
import type { AccountRules } from './account-rules-content.js';
import { ruleText } from './account-texts.js';

/** Profile field → customers column (spec §3 PersonalDataRTO). */
const columns = {
  addressAdditionalStreet: 'address_additional_street',
  addressCity: 'address_city',
  addressCountryIsoCode: 'address_country_iso_code',
  addressProvinceIsoCode: 'address_province_iso_code',
  addressStreet: 'address_street',
  addressZipCode: 'address_zip_code',
  birthDate: 'birth_date',
  birthPlace: 'birth_place',
  email: 'email',
  firstName: 'first_name',
  fiscalCode: 'fiscal_code',
  fullTimeStudent: 'full_time_student',
  language: 'language',
  lastName: 'last_name',
  middleName: 'middle_name',
  mobilePhone: 'mobile_phone',
  passportId: 'passport_id',
  phone: 'phone',
  salutation: 'salutation',
  student: 'student',
} as const satisfies Record<PersonalDataField, keyof Customer>;

const fields = Object.keys(columns) as PersonalDataField[];

const isoDay = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
};

export function toPersonalData(customer: Customer): PersonalDataRTO {
  const rto = {} as Record<string, unknown>;
  for (const field of fields) rto[field] = customer[columns[field]] ?? null;
  rto.birthDate = isoDay(customer.birth_date);
  // A char(2) column may come back padded.
  if (typeof rto.addressCountryIsoCode === 'string')
    rto.addressCountryIsoCode = rto.addressCountryIsoCode.trim();
  return rto as PersonalDataRTO;
}

/** Empty text is stored as null (absent), other text trimmed. */
const stored = (value: unknown) => (typeof value === 'string' ? value.trim() || null : value);

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
 * Personal data (spec §7): GET the profile with its rules; PUT the full profile, POST a part. The
 * body is checked with the rules served for it (the customer's legal entity, the address country
 * and province), through the contracts' interpreter, exactly as the app checks it; read-only fields
 * (HU address, mobile number) refuse a change; invisible fields keep their stored value; a new
 * e-mail waits for the confirmation link (issue 8). Nothing is stored on a 400.
 */
export const personalDataRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  rules: AccountRules;
  emailChange: EmailChangeService;
  translations: TranslationSet;
  now?: () => Date;
}> = async (app, { customers, rules, emailChange, translations, now = () => new Date() }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const entityCountry = (customer: Customer) => legalEntityById(customer.legal_entity_id)?.isoCountry ?? 'DE';
  const metaFor = (customer: Customer, values: PersonalDataRTO) =>
    rules.customerMeta(entityCountry(customer), values.addressCountryIsoCode, values.addressProvinceIsoCode);

  const respond = async (customer: Customer) => {
    const rto = toPersonalData(customer);
    return {
      body: { PersonalDataRTO: rto, pendingEmail: await emailChange.pending(customer.id) },
      meta: { metaDataList: metaFor(customer, rto) },
    };
  };

  async function save(customer: Customer, changes: Partial<PersonalDataRTO>, partial: boolean) {
    const before = toPersonalData(customer);
    const after = { ...before, ...changes } as PersonalDataRTO;
    const compiled = compileRules(metaFor(customer, after));
    const touchesAddress = addressFields.some((f) => f in changes);
    const checked = (v: RuleViolation) =>
      !partial ||
      v.field in changes ||
      (touchesAddress && (addressFields as readonly string[]).includes(v.field));
    const violations = [
      ...changedReadonlyFields(compiled, before, changes),
      ...checkValues(compiled, after, { today: now(), customValidators }).filter(checked),
    ];
    if (violations.length) {
      throw ApiError.badRequest(
        'Some fields do not meet the rules',
        violations.map((v) => ({
          field: v.field,
          rule: v.rule,
          message: ruleText(translations, customer.language, v),
        })),
      );
    }
    const update: CustomerUpdate = {};
    for (const field of fields) {
      if (!(field in changes) || field === 'email' || compiled[field]?.invisible) continue;
      (update as Record<string, unknown>)[columns[field]] = stored(changes[field]);
    }
    if (changes.email !== undefined) {
      // A new address waits for its link (asked again only when it differs from the pending one). The
      // current address: a POST that sends it cancels a pending change; a full PUT leaves it waiting.
      const email = changes.email.trim().toLowerCase();
      if (email !== customer.email.toLowerCase()) {
        if ((await emailChange.pending(customer.id))?.toLowerCase() !== email)
          await emailChange.request(customer, changes.email);
      } else if (partial) await emailChange.cancel(customer.id);
    }
    const updated = Object.keys(update).length ? await customers.update(customer.id, update) : customer;
    return respond(updated);
  }

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
    async (request) => respond(await signedInCustomer(customers, request)),
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
    },
    async (request) => save(await signedInCustomer(customers, request), request.body, false),
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
    },
    async (request) => save(await signedInCustomer(customers, request), request.body, true),
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
