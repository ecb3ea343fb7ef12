import Type from 'typebox';

export const ConsentSlug = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' });

/** Path parameter {legalEntityId} of the consent calls. */
export const LegalEntityIdParam = Type.Integer({ minimum: 1, maximum: 9999 });

/** A consent the customer can be asked for (content per legal entity), with texts in one language. */
export const ConsentDefinition = Type.Object({
  slug: ConsentSlug,
  /** Process ids this consent belongs to, e.g. loyalty-programme-89sN. */
  processes: Type.Array(Type.String()),
  /** The consent sets it is part of, e.g. editable-by-customer. */
  sets: Type.Array(Type.String()),
  /** True when the process cannot be joined without it (the core consent of a process). */
  required: Type.Boolean(),
  language: Type.String(),
  title: Type.String(),
  description: Type.String(),
});
export type ConsentDefinition = Type.Static<typeof ConsentDefinition>;

/** GET …/legal-entities/{legalEntityId}/consents/{set} and …/processes/{process}/consents. */
export const ConsentDefinitionList = Type.Object({ data: Type.Array(ConsentDefinition) });
export type ConsentDefinitionList = Type.Static<typeof ConsentDefinitionList>;

export const ConsentDefinitionQuery = Type.Object({
  /** Language of the texts (two letters or lang-COUNTRY); default: the legal entity's first language. */
  language: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2}([-_][a-zA-Z]{2})?$' })),
});

/** Consent (docs/product/data.md#entities-and-fields): slug, granted (false when the customer has no record), legalEntityId when saved. */
export const CustomerConsent = Type.Object({
  slug: ConsentSlug,
  granted: Type.Boolean(),
  legalEntityId: Type.Optional(Type.Integer()),
  /** When the customer last changed it; absent when there is no record. */
  updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
});
export type CustomerConsent = Type.Static<typeof CustomerConsent>;

/** GET /api/customer/consents/v1/customers/{uuid}/consents: every consent of the customer's legal entity. */
export const CustomerConsentList = Type.Object({ data: Type.Array(CustomerConsent) });
export type CustomerConsentList = Type.Static<typeof CustomerConsentList>;

/** PATCH /api/customer/consents/v1/customers/{uuid}/consents/{slug}: one call per consent. */
export const CustomerConsentUpdate = Type.Object(
  {
    legalEntityId: LegalEntityIdParam,
    granted: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CustomerConsentUpdate = Type.Static<typeof CustomerConsentUpdate>;
