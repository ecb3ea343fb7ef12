import Type from 'typebox';

/** One broken rule: which field (or parameter, or header) and which rule it broke. */
export const Violation = Type.Object({
  field: Type.String({ description: 'Field, query parameter or header that broke the rule' }),
  rule: Type.String({ description: 'Name of the rule, e.g. required, maxLength, format, pattern' }),
  message: Type.String({ description: 'English explanation for developers' }),
});
export type Violation = Type.Static<typeof Violation>;

/**
 * Every rejected request under /api (and every error of the server) carries this body.
 * `code` is stable and machine-readable; `message` is for people reading logs.
 */
export const ApiErrorBody = Type.Object({
  status: Type.Integer({ minimum: 400, maximum: 599 }),
  code: Type.String({ description: 'Stable error code, e.g. validation_failed, unauthorized, csrf_invalid' }),
  message: Type.String(),
  violations: Type.Optional(Type.Array(Violation)),
});
export type ApiErrorBody = Type.Static<typeof ApiErrorBody>;
