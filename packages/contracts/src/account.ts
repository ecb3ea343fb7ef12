import Type from 'typebox';
import { ApiErrorBody } from './api-error.js';
import { Salutation, UserLanguage } from './customer.js';

/*
 * The customer-account payloads of docs/product/data.md#entities-and-fields, docs/product/api.md#calls (issue 8). Server and app both use these; the rule
 * interpreter that reads a MetaDataList lives in account-rules.ts (plain values, no TypeBox).
 */

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One validation rule as served (docs/product/account-rules.md#validation-rules): attribute, validator, parameter. */
export const MetaDataEntry = Type.Object({
  attribute: Type.String({ description: 'Field the rule applies to, e.g. addressZipCode' }),
  validator: Type.String({
    description:
      'required, pattern, phone, email, listMatch, rangelength, invisible, readonly, or a validator of our own kept under its name',
  }),
  parameter: Type.String({ description: 'true/false, a regular expression, min:max, a list a|b|c …' }),
});
export type MetaDataEntry = Type.Static<typeof MetaDataEntry>;

export const MetaDataList = Type.Array(MetaDataEntry);
export type MetaDataList = Type.Static<typeof MetaDataList>;

export const Meta = Type.Object({ metaDataList: MetaDataList });
export type Meta = Type.Static<typeof Meta>;

/** User profile, docs/product/data.md#entities-and-fields. Absent values are null. */
export const PersonalDataRTO = Type.Object({
  addressAdditionalStreet: Nullable(Type.String({ maxLength: 255 })),
  addressCity: Nullable(Type.String({ maxLength: 255 })),
  addressCountryIsoCode: Nullable(Type.String({ maxLength: 2 })),
  addressProvinceIsoCode: Nullable(Type.String({ maxLength: 8 })),
  addressStreet: Nullable(Type.String({ maxLength: 255 })),
  addressZipCode: Nullable(Type.String({ maxLength: 16 })),
  birthDate: Nullable(Type.String({ description: 'YYYY-MM-DD', maxLength: 10 })),
  birthPlace: Nullable(Type.String({ maxLength: 255 })),
  email: Type.String({ maxLength: 254 }),
  firstName: Type.String({ maxLength: 255 }),
  fiscalCode: Nullable(Type.String({ maxLength: 32 })),
  fullTimeStudent: Type.Boolean(),
  language: UserLanguage,
  lastName: Type.String({ maxLength: 255 }),
  middleName: Nullable(Type.String({ maxLength: 255 })),
  mobilePhone: Nullable(Type.String({ maxLength: 32 })),
  passportId: Nullable(Type.String({ maxLength: 64 })),
  phone: Nullable(Type.String({ maxLength: 32 })),
  salutation: Salutation,
  student: Type.Boolean(),
});
export type PersonalDataRTO = Type.Static<typeof PersonalDataRTO>;
export type PersonalDataField = keyof PersonalDataRTO;

/** demo.de's profile: it passes the DE rules (the OpenAPI document shows it; tests start from it). */
export const examplePersonalData: PersonalDataRTO = {
  addressAdditionalStreet: null,
  addressCity: 'Berlin',
  addressCountryIsoCode: 'DE',
  addressProvinceIsoCode: null,
  addressStreet: 'Unter den Linden 1',
  addressZipCode: '10115',
  birthDate: '1990-06-01',
  birthPlace: null,
  email: 'demo.de@example.com',
  firstName: 'Dora',
  fiscalCode: null,
  fullTimeStudent: false,
  language: 'de_DE',
  lastName: 'Demo',
  middleName: null,
  mobilePhone: null,
  passportId: null,
  phone: '+4915123456789',
  salutation: 'FRAU',
  student: false,
};

/** GET/PUT/POST /api/customer/cuda/customer/personaldata/own */
export const PersonalDataResponse = Type.Object({
  body: Type.Object({
    PersonalDataRTO,
    /** A new e-mail address waiting for the customer to confirm the link sent to it; else null. */
    pendingEmail: Nullable(Type.String()),
  }),
  meta: Meta,
});
export type PersonalDataResponse = Type.Static<typeof PersonalDataResponse>;

/** GET …/personaldata/own/meta/{country}[/{province}]: that country's (province's) rules. */
export const MetaResponse = Type.Object({ meta: Meta });
export type MetaResponse = Type.Static<typeof MetaResponse>;

/** GET /api/customer/cuda/customer/password/own: never a password, only the policy as meta. */
export const PasswordResponse = Type.Object({
  body: Type.Object({ PasswordRTO: Type.Object({ password: Type.Null(), passwordOld: Type.Null() }) }),
  meta: Meta,
});
export type PasswordResponse = Type.Static<typeof PasswordResponse>;

/** PUT /api/customer/cuda/customer/password/own */
export const PasswordUpdate = Type.Object(
  {
    password: Type.String({ maxLength: 1024, examples: ['Neues-Passwort-2026'] }),
    passwordOld: Type.String({ maxLength: 1024, examples: ['Demo-2026!'] }),
    /** Also end every other session of the customer (docs/product/security.md#sessions); default true. */
    signOutOtherDevices: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PasswordUpdate = Type.Static<typeof PasswordUpdate>;

/** A mobile number change waiting for its PIN (docs/product/account-rules.md#account-rules). */
export const PendingMobilePhone = Type.Object({
  mobilePhone: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  attemptsLeft: Type.Integer({ minimum: 0 }),
  /** When another PIN may be requested. */
  resendAvailableAt: Type.String({ format: 'date-time' }),
});
export type PendingMobilePhone = Type.Static<typeof PendingMobilePhone>;

/** GET and PUT /api/customer/cuda/customer/v2/mobile/own */
export const MobileResponse = Type.Object({
  body: Type.Object({ mobilePhone: Nullable(Type.String()), pending: Nullable(PendingMobilePhone) }),
  meta: Meta,
});
export type MobileResponse = Type.Static<typeof MobileResponse>;

/** PUT /api/customer/cuda/customer/v2/mobile/own: the number alone sends a PIN; with the PIN, confirms. */
export const MobileUpdate = Type.Object(
  {
    mobilePhone: Type.String({ maxLength: 32, examples: ['+4915123456789'] }),
    pin: Type.Optional(Type.String({ maxLength: 16, examples: ['123456'] })),
  },
  { additionalProperties: false },
);
export type MobileUpdate = Type.Static<typeof MobileUpdate>;

/** One violation of a password or mobile save (docs/product/account-rules.md#validation-rules, docs/product/errors.md#error-catalogue): `text` is what the app shows. */
export const ConstraintViolationMeta = Type.Object({
  attribute: Type.String(),
  validator: Type.String(),
  parameter: Type.Optional(Type.String()),
  text: Type.String({ description: "The message in the customer's language" }),
});
export type ConstraintViolationMeta = Type.Static<typeof ConstraintViolationMeta>;

/** 400 of the password and mobile calls: the API error plus the spec's violation list. */
export const ConstraintViolationError = Type.Intersect([
  ApiErrorBody,
  Type.Object({
    constraintViolationMetaInfo: Type.Object({
      metaDataList: Type.Union([ConstraintViolationMeta, Type.Array(ConstraintViolationMeta)]),
    }),
  }),
]);
export type ConstraintViolationError = Type.Static<typeof ConstraintViolationError>;

export const NewsletterChannel = Type.Union([
  Type.Literal('WEB'),
  Type.Literal('APP'),
  Type.Literal('EMAIL'),
  Type.Literal('REGISTRATION'),
]);
export type NewsletterChannel = Type.Static<typeof NewsletterChannel>;

export const NewsletterLogEntry = Type.Object({
  date: Type.String({ format: 'date-time' }),
  action: Type.Union([Type.Literal('SUBSCRIBE'), Type.Literal('UNSUBSCRIBE')]),
  channel: NewsletterChannel,
});
export type NewsletterLogEntry = Type.Static<typeof NewsletterLogEntry>;

export const NewsletterLogRTO = Type.Object({
  /** The id the PUT and DELETE calls take. */
  id: Type.String(),
  newsletterAgreement: Type.Boolean(),
  /** Newest first. */
  history: Type.Array(NewsletterLogEntry),
});
export type NewsletterLogRTO = Type.Static<typeof NewsletterLogRTO>;

/** GET /api/customer/cuda/customer/newsletter/own/log */
export const NewsletterLogResponse = Type.Object({ body: Type.Object({ NewsletterLogRTO }) });
export type NewsletterLogResponse = Type.Static<typeof NewsletterLogResponse>;

/** PUT /api/customer/cuda/customer/newsletter/own/{id} */
export const NewsletterUpdate = Type.Object(
  { newsletterAgreement: Type.Boolean() },
  { additionalProperties: false },
);
export type NewsletterUpdate = Type.Static<typeof NewsletterUpdate>;

/** GET (no login) /api/customer/consents/v1/v1/customers/{unsubscribeToken} */
export const UnsubscribeLookup = Type.Object({ email: Type.String() });
export type UnsubscribeLookup = Type.Static<typeof UnsubscribeLookup>;

export const PaymentProfile = Type.Union([
  Type.Object({
    id: Type.String(),
    type: Type.Literal('CARD'),
    brand: Type.Union([
      Type.Literal('VISA'),
      Type.Literal('MASTERCARD'),
      Type.Literal('AMEX'),
      Type.Literal('OTHER'),
    ]),
    last4: Type.String({ pattern: '^[0-9]{4}$' }),
    expiryMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expiryYear: Type.Integer({ minimum: 2000, maximum: 2100 }),
    holder: Type.String(),
    isDefault: Type.Boolean(),
  }),
  Type.Object({
    id: Type.String(),
    type: Type.Literal('SEPA'),
    /** Country code and last four characters only, e.g. DE** **** **** **** **12 34. */
    maskedIban: Type.String(),
    holder: Type.String(),
    isDefault: Type.Boolean(),
  }),
]);
export type PaymentProfile = Type.Static<typeof PaymentProfile>;

/** GET /api/customer/cuda/customer/v2/responsive/paymentprofiles/all */
export const PaymentProfilesResponse = Type.Object({
  body: Type.Object({ paymentProfiles: Type.Array(PaymentProfile) }),
});
export type PaymentProfilesResponse = Type.Static<typeof PaymentProfilesResponse>;

/** POST (no login) …/email-confirmation: the token from the link sent to the new address. */
export const EmailConfirmation = Type.Object(
  { token: Type.String({ minLength: 16, maxLength: 128 }) },
  { additionalProperties: false },
);
export type EmailConfirmation = Type.Static<typeof EmailConfirmation>;

/** 200 of the e-mail confirmation: the address the account has now (its new sign-in name). */
export const EmailConfirmationResult = Type.Object({ email: Type.String() });
export type EmailConfirmationResult = Type.Static<typeof EmailConfirmationResult>;

/** POST /api/customer/cuda/customer/logout: how many identity-provider sessions were ended. */
export const LogoutResult = Type.Object({ sessionsEnded: Type.Integer({ minimum: 0 }) });
export type LogoutResult = Type.Static<typeof LogoutResult>;
