import Type from 'typebox';

/** Path parameter of the content collection call: lang-COUNTRY (underscore replaced by hyphen). */
export const ContentLocaleParam = Type.String({ pattern: '^[a-zA-Z]{2}([-_][a-zA-Z]{2})?$', maxLength: 5 });

export const ContentCollectionQuery = Type.Object({
  legalEntity: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$' })),
});

/** Translation content: a flat map of message key to text, for one locale. */
export const ContentCollection = Type.Object({
  collection: Type.String(),
  locale: Type.String({ description: 'The locale actually served, after normalisation and fallback' }),
  language: Type.String(),
  texts: Type.Record(Type.String(), Type.String()),
});
export type ContentCollection = Type.Static<typeof ContentCollection>;
