import Type from 'typebox';

/** language_COUNTRY as stored for a customer, e.g. de_DE, en_NL. */
export const UserLanguage = Type.String({ pattern: '^[a-z]{2}_[A-Z]{2}$', maxLength: 5 });

/**
 * A salutation code (HERR, FRAU, …). Which ones a customer may choose is the served rules' business
 * (content/account-rules: a listMatch rule, checked by the rule interpreter on both sides), not the
 * schema's, so a new salutation is a content change.
 */
export const SALUTATION_MAX_LENGTH = 16;
export const Salutation = Type.String({ maxLength: SALUTATION_MAX_LENGTH, examples: ['FRAU'] });

/** User (session data), docs/product/data.md#entities-and-fields. */
export const SessionUser = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  language: UserLanguage,
  legalEntityId: Type.Integer(),
  legalEntityIso: Type.String({ minLength: 2, maxLength: 2 }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  salutation: Salutation,
});
export type SessionUser = Type.Static<typeof SessionUser>;

/** GET /api/customer/cuda/customer/v2/login/own/status */
export const LoginStatus = Type.Object({
  legalEntityId: Type.Integer(),
  user: SessionUser,
});
export type LoginStatus = Type.Static<typeof LoginStatus>;

/**
 * POST /api/customer/cuda/customer/personaldata/own: a partial profile. For now the language only
 * (the "update the user's language" store action); the other profile fields come with the account
 * pages. Unknown fields are refused.
 */
export const PersonalDataPartialUpdate = Type.Object(
  { language: UserLanguage },
  { additionalProperties: false },
);
export type PersonalDataPartialUpdate = Type.Static<typeof PersonalDataPartialUpdate>;
