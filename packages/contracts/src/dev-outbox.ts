import Type from 'typebox';

/** What an e-mail or SMS is for; the outbox and its page group by it (the server's sender and the tests). */
export const messageKinds = [
  'email-confirmation',
  'email-changed',
  'email-in-use',
  'mobile-pin',
  'newsletter',
  'password-reset',
  'new-device',
  'points-expiry',
  'export-ready',
  'deletion-scheduled',
  'deletion-done',
] as const;
export type MessageKind = (typeof messageKinds)[number];

/** One message as GET /dev/outbox?format=json shows it (outside production only). */
export const DevOutboxMessage = Type.Object({
  id: Type.String(),
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
  /** One of messageKinds. */
  kind: Type.String(),
  to: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  /** Every http(s) link in the text, in order. */
  links: Type.Array(Type.String()),
  /** The PIN of a mobile-pin SMS, else null. */
  pin: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type DevOutboxMessage = Type.Static<typeof DevOutboxMessage>;

/** Newest first. */
export const DevOutboxResponse = Type.Object({ messages: Type.Array(DevOutboxMessage) });
export type DevOutboxResponse = Type.Static<typeof DevOutboxResponse>;
