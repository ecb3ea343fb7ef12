import Type from 'typebox';

/**
 * What the customer's security activity records (docs/product/security.md#security-activity): one
 * row per event, append-only, kept for the configured period. Every module that changes something a
 * customer must be able to check later records its event under one of these kinds.
 */
export const securityEventKinds = [
  'signed_in',
  'sign_in_failed',
  'password_changed',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'mobile_changed',
  'passkey_added',
  'passkey_removed',
  'session_ended',
  'not_me',
  'data_downloaded',
  'deletion_requested',
  'deletion_cancelled',
] as const;
export type SecurityEventKind = (typeof securityEventKinds)[number];
export const SecurityEventKind = Type.Union(securityEventKinds.map((kind) => Type.Literal(kind)));

/** One active session of the customer (docs/product/security.md#sessions). */
export const ActiveSession = Type.Object({
  /** The session id (the `sid` of its access tokens): what DELETE …/sessions/own/{id} takes. */
  id: Type.String(),
  /** Browser or app, e.g. "Firefox 133" or "Roadpass app for iOS 4.2.0"; empty when unknown. */
  client: Type.String(),
  /** Operating system, e.g. "Android 15"; empty when unknown. */
  system: Type.String(),
  /** 'app' inside the Roadpass app's webview, 'browser' otherwise. */
  kind: Type.Union([Type.Literal('app'), Type.Literal('browser')]),
  /** City and country, or country, when a GeoIP database is configured; else null. */
  place: Type.Union([Type.String(), Type.Null()]),
  /** The shortened network address (192.0.2.x, 2001:db8:1::/48); empty when unknown. */
  network: Type.String(),
  signedInAt: Type.String({ format: 'date-time' }),
  lastActiveAt: Type.String({ format: 'date-time' }),
  /** The session of the access token of this request. */
  current: Type.Boolean(),
});
export type ActiveSession = Type.Static<typeof ActiveSession>;

/** GET /api/customer/cuda/customer/sessions/own: newest activity first. */
export const ActiveSessionList = Type.Object({ sessions: Type.Array(ActiveSession) });
export type ActiveSessionList = Type.Static<typeof ActiveSessionList>;

/** The path parameter of DELETE …/sessions/own/{sessionId}. */
export const SessionIdParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 255 }) });
export type SessionIdParams = Type.Static<typeof SessionIdParams>;

/** What ending sessions did. */
export const SessionsEnded = Type.Object({ sessionsEnded: Type.Integer({ minimum: 0 }) });
export type SessionsEnded = Type.Static<typeof SessionsEnded>;

/** One event of the customer's security activity (docs/product/security.md#security-activity). */
export const SecurityActivityEvent = Type.Object({
  kind: Type.Unsafe<SecurityEventKind>(SecurityEventKind),
  occurredAt: Type.String({ format: 'date-time' }),
  /** Browser or app and system, when the event came from a device. */
  device: Type.Optional(Type.String()),
  /** Where from: place when known, else the shortened network address. */
  place: Type.Optional(Type.String()),
  /** Failed sign-ins: how many that day (one entry per day). */
  count: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Sessions ended: why, e.g. 'signed_out', 'signed_out_elsewhere', 'password_changed'. */
  reason: Type.Optional(Type.String()),
  /** Passkey added or removed: the passkey's name. */
  passkey: Type.Optional(Type.String()),
});
export type SecurityActivityEvent = Type.Static<typeof SecurityActivityEvent>;

/** Paging of GET …/security-activity/own (newest first). */
export const SecurityActivityQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type SecurityActivityQuery = Type.Static<typeof SecurityActivityQuery>;

export const SecurityActivityPage = Type.Object({
  events: Type.Array(SecurityActivityEvent),
  page: Type.Integer({ minimum: 0 }),
  hasMore: Type.Boolean(),
  /** How many days of activity are kept. */
  retentionDays: Type.Integer({ minimum: 1 }),
});
export type SecurityActivityPage = Type.Static<typeof SecurityActivityPage>;
