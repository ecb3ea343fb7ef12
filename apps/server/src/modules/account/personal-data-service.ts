import type { FastifySchemaValidationError } from 'fastify';
import {
  addressFields,
  changedReadonlyFields,
  checkValues,
  compileRules,
  customValidators,
  legalEntityById,
  upperCaseFields,
  type PersonalDataField,
  type PersonalDataResponse,
  type PersonalDataRTO,
  type RuleViolation,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import type { CustomerUpdate } from '../../db/schema.js';
import type { Customer, CustomerRepository } from '../customers/index.js';
import type { EmailChangeService } from '../email-change/index.js';
import type { TranslationSet } from '../content/index.js';
import type { AccountRules } from './account-rules-content.js';
import { ruleText } from './account-texts.js';

/** Profile field → customers column (docs/product/data.md#entities-and-fields PersonalDataRTO). */
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
const isField = (name: string): name is PersonalDataField => Object.hasOwn(columns, name);

/** The message of every refusal; the violations say which field broke which rule. */
export const RULES_MESSAGE = 'Some fields do not meet the rules';

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

/**
 * Codes in capitals, as the app sends them (contracts' upperCaseFields): a caller of the API that
 * types `rssgli90c55f205t` gets the fiscal code checked and stored as RSSGLI90C55F205T.
 */
function normalised<T extends Readonly<Record<string, unknown>>>(changes: T): T {
  const copy: Record<string, unknown> = { ...changes };
  for (const field of upperCaseFields) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = value.toUpperCase();
  }
  return copy as T;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value the rules can read (text, a flag, or absent); anything else only the schema can speak for. */
const isPlainValue = (value: unknown) =>
  value === null || typeof value === 'string' || typeof value === 'boolean';

/**
 * The rules broken by a body the schema refused, in the rule interpreter's terms: a field the rules
 * know is judged by them (a 300-letter name breaks `rangelength 1:100`, an unknown salutation
 * `listMatch`); what only the schema sees becomes `unknownField`, `required` (a field a full profile
 * lacks), `rangelength` (the schema's limits), `type`, or `minProperties` (an empty POST).
 */
function schemaViolations(
  errors: readonly FastifySchemaValidationError[],
  body: unknown,
  ruleViolations: readonly RuleViolation[],
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const add = (field: string, rule: string, parameter = 'true') => {
    if (!violations.some((v) => v.field === field && v.rule === rule))
      violations.push({ field, rule, parameter });
  };
  const limits = new Map<string, { min?: number; max?: number }>();
  const keywords = new Map<string, Set<string>>();
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const [field = ''] = error.instancePath.split('/').filter(Boolean);
    if (field === '') {
      if (error.keyword === 'additionalProperties') add(String(params.additionalProperty), 'unknownField');
      else if (error.keyword === 'required') add(String(params.missingProperty), 'required');
      else if (error.keyword === 'minProperties') add('body', 'minProperties', String(params.limit));
      else add('body', 'type', 'object');
      continue;
    }
    const limit = Number(params.limit);
    if (error.keyword === 'maxLength') limits.set(field, { ...limits.get(field), max: limit });
    else if (error.keyword === 'minLength') limits.set(field, { ...limits.get(field), min: limit });
    keywords.set(field, (keywords.get(field) ?? new Set()).add(error.keyword));
  }
  for (const field of keywords.keys()) {
    if (ruleViolations.some((v) => v.field === field)) continue;
    const value = isRecord(body) ? body[field] : undefined;
    const range = limits.get(field);
    if (typeof value === 'string' && range)
      add(field, 'rangelength', `${range.min ?? 0}:${range.max ?? 255}`);
    else if (typeof value === 'string' && keywords.get(field)?.has('pattern')) add(field, 'pattern');
    else add(field, 'type');
  }
  const known = (v: RuleViolation) => violations.some((w) => w.field === v.field && w.rule === v.rule);
  return [...violations, ...ruleViolations.filter((v) => !known(v))];
}

export interface PersonalDataService {
  /** The profile with the rules it is checked with and a new e-mail address waiting for its link. */
  read(customer: Customer): Promise<PersonalDataResponse>;
  /**
   * The signed-in customer's profile (`read`): the customer's row (`customer`, being read) and the
   * pending address are asked for in the same turn, each read with other calls' (decision 0053).
   */
  readOwn(customerId: string, customer: Promise<Customer>): Promise<PersonalDataResponse>;
  /**
   * Checks and stores a full profile (PUT) or a part of one (`partial`, POST). `schemaErrors`: the
   * request schema refused the body; the answer is then the same 400 as for the rules, in the same
   * terms and the customer's language.
   */
  save(
    customer: Customer,
    body: unknown,
    how: {
      partial: boolean;
      schemaErrors?: readonly FastifySchemaValidationError[];
      /** Step-up before a new e-mail address (docs/product/security.md#step-up); throws to refuse. */
      beforeEmailChange?: () => void;
    },
  ): Promise<PersonalDataResponse>;
}

/**
 * Personal data (docs/product/api.md#calls): the body is checked with the rules served for it (the customer's legal
 * entity, the address country and province), through the contracts' interpreter, exactly as the app
 * checks it; read-only fields (HU address, mobile number) refuse a change; invisible fields keep their
 * stored value; a new e-mail waits for the confirmation link (issue 8). Nothing is stored on a 400,
 * whose violations carry the rule's name and its text in the customer's language.
 */
export function createPersonalDataService({
  customers,
  rules,
  emailChange,
  translations,
  now = () => new Date(),
}: {
  customers: CustomerRepository;
  rules: AccountRules;
  emailChange: EmailChangeService;
  translations: TranslationSet;
  now?: () => Date;
}): PersonalDataService {
  const entityCountry = (customer: Customer) => legalEntityById(customer.legal_entity_id)?.isoCountry ?? 'DE';
  const metaFor = (customer: Customer, values: PersonalDataRTO) =>
    rules.customerMeta(entityCountry(customer), values.addressCountryIsoCode, values.addressProvinceIsoCode);

  const response = (customer: Customer, pendingEmail: string | null): PersonalDataResponse => {
    const rto = toPersonalData(customer);
    return {
      body: { PersonalDataRTO: rto, pendingEmail },
      meta: { metaDataList: metaFor(customer, rto) },
    };
  };
  const read = async (customer: Customer) => response(customer, await emailChange.pending(customer.id));

  /** The rules `changes` break, with the rules they are checked with. */
  const check = (customer: Customer, changes: Partial<PersonalDataRTO>, partial: boolean) => {
    const before = toPersonalData(customer);
    const after = { ...before, ...changes } as PersonalDataRTO;
    const compiled = compileRules(metaFor(customer, after));
    // A part is checked for what it sends; a changed address is checked whole.
    const touchesAddress = addressFields.some((f) => f in changes);
    const checked = (v: RuleViolation) =>
      !partial ||
      v.field in changes ||
      (touchesAddress && (addressFields as readonly string[]).includes(v.field));
    const violations = [
      ...changedReadonlyFields(compiled, before, changes),
      ...checkValues(compiled, after, { today: now(), customValidators }).filter(checked),
    ];
    return { compiled, violations };
  };

  const refusal = (customer: Customer, violations: readonly RuleViolation[]) =>
    ApiError.badRequest(
      RULES_MESSAGE,
      violations.map((v) => ({
        field: v.field,
        rule: v.rule,
        message: ruleText(translations, customer.language, v),
      })),
    );

  const save: PersonalDataService['save'] = async (
    customer,
    body,
    { partial, schemaErrors, beforeEmailChange },
  ) => {
    if (schemaErrors?.length) {
      // What the rules can read is judged by them, so a refusal names every broken rule at once.
      const readable = isRecord(body)
        ? Object.fromEntries(Object.entries(body).filter(([f, v]) => isField(f) && isPlainValue(v)))
        : {};
      const { violations } = check(customer, normalised(readable), partial);
      throw refusal(customer, schemaViolations(schemaErrors, body, violations));
    }
    const changes = normalised(body as Partial<PersonalDataRTO>);
    const { compiled, violations } = check(customer, changes, partial);
    if (violations.length) throw refusal(customer, violations);
    const newEmail = changes.email?.trim().toLowerCase();
    // Asking for a new address needs a recent sign-in; nothing is stored before this check.
    if (
      newEmail !== undefined &&
      newEmail !== customer.email.toLowerCase() &&
      (await emailChange.pending(customer.id))?.toLowerCase() !== newEmail
    )
      beforeEmailChange?.();
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
    return read(updated);
  };

  const readOwn = async (customerId: string, customer: Promise<Customer>) => {
    const [row, pendingEmail] = await Promise.all([customer, emailChange.pending(customerId)]);
    return response(row, pendingEmail);
  };

  return { read, readOwn, save };
}
