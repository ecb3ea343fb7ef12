import Type from 'typebox';

/** The tunnel's answer to a stored envelope (as Sentry's relay answers: the event id, when there is one). */
export const ErrorReportReceipt = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
});
export type ErrorReportReceipt = Type.Static<typeof ErrorReportReceipt>;
