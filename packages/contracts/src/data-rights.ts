import Type, { type Static } from 'typebox';

/**
 * Data rights (docs/product/data-rights.md): download my data and close my account. Payloads of the
 * customer calls, of the rental system's internal calls, and the JSON schema of every file of the
 * export ZIP (written into the ZIP under `schemas/`).
 */

export const DataExport = Type.Object({
  id: Type.String(),
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('ready'),
    Type.Literal('failed'),
    Type.Literal('expired'),
  ]),
  /** 0–100: share of the areas written so far. */
  progressPercent: Type.Integer({ minimum: 0, maximum: 100 }),
  requestedAt: Type.String({ format: 'date-time' }),
  readyAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The download works until then (7 days after it was ready). */
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
});
export type DataExport = Static<typeof DataExport>;

export const DataExportStatus = Type.Object({
  /** The newest export of the customer, or null. */
  export: Type.Union([DataExport, Type.Null()]),
  /** When the next export may be asked for (one a day); null when one may start now. */
  nextAllowedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type DataExportStatus = Static<typeof DataExportStatus>;

const BlockerKind = Type.Union([
  Type.Literal('open_rental'),
  Type.Literal('unpaid_invoice'),
  Type.Literal('pending_fine'),
]);

export const DeletionBlocker = Type.Object({
  legalEntityId: Type.Integer({ minimum: 1 }),
  kind: BlockerKind,
  /** The rental system's reference (booking or invoice number) the customer can quote. */
  reference: Type.String({ minLength: 1, maxLength: 80 }),
});
export type DeletionBlocker = Static<typeof DeletionBlocker>;

export const AccountDeletionStatus = Type.Object({
  blockers: Type.Array(DeletionBlocker),
  /** The scheduled deletion, or null. */
  deletion: Type.Union([
    Type.Object({
      requestedAt: Type.String({ format: 'date-time' }),
      scheduledFor: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
  graceDays: Type.Integer(),
});
export type AccountDeletionStatus = Static<typeof AccountDeletionStatus>;

/** Internal: what the rental system reports for one customer and legal entity (replaces the previous report). */
export const DeletionBlockersReport = Type.Object(
  {
    legalEntityId: Type.Integer({ minimum: 1 }),
    blockers: Type.Array(
      Type.Object(
        {
          kind: BlockerKind,
          reference: Type.String({ minLength: 1, maxLength: 80 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type DeletionBlockersReport = Static<typeof DeletionBlockersReport>;

export const DeletionBlockersParams = Type.Object({ customerId: Type.String({ format: 'uuid' }) });

export const ErasureFeedQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});

/** Internal: erased customers since a cursor, oldest first. The rental system erases them too. */
export const ErasureFeed = Type.Object({
  erasures: Type.Array(
    Type.Object({
      cursor: Type.Integer(),
      customerId: Type.String(),
      legalEntityId: Type.Integer(),
      erasedAt: Type.String({ format: 'date-time' }),
    }),
  ),
  /** Pass as `after` next time; the same as `after` when nothing is new. */
  nextCursor: Type.Integer(),
});
export type ErasureFeed = Static<typeof ErasureFeed>;

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const When = Type.String({ format: 'date-time' });

/** The files of the export ZIP and their schemas (docs/product/data-rights.md#download-my-data). */
export const exportFileSchemas = {
  profile: Type.Object({
    id: Type.String(),
    email: Type.String(),
    legalEntityId: Type.Integer(),
    language: Type.String(),
    salutation: Type.String(),
    firstName: Type.String(),
    middleName: Nullable(Type.String()),
    lastName: Type.String(),
    birthDate: Nullable(Type.String()),
    birthPlace: Nullable(Type.String()),
    fiscalCode: Nullable(Type.String()),
    passportId: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    mobilePhone: Nullable(Type.String()),
    address: Type.Record(Type.String(), Nullable(Type.String())),
    createdAt: When,
    updatedAt: When,
    /** Contact changes in progress (a new e-mail or mobile number waiting for confirmation). */
    pendingContactChanges: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  }),
  consents: Type.Array(
    Type.Object({
      slug: Type.String(),
      legalEntityId: Type.Integer(),
      granted: Type.Boolean(),
      updatedAt: When,
    }),
  ),
  newsletter: Type.Object({
    subscribed: Nullable(Type.Boolean()),
    log: Type.Array(Type.Object({ action: Type.String(), channel: Type.String(), occurredAt: When })),
  }),
  loyalty: Type.Object({
    membership: Nullable(
      Type.Object({ balance: Type.Integer(), tier: Type.String(), tierExpirationDate: Nullable(When) }),
    ),
    partnerCodes: Type.Array(Type.Object({ slug: Type.String(), code: Type.String(), createdAt: When })),
  }),
  'loyalty-ledger': Type.Array(
    Type.Object({
      seq: Type.Integer(),
      type: Type.String(),
      points: Type.Integer(),
      occurredAt: When,
      expiresAt: Nullable(When),
      description: Type.String(),
      tierAfter: Type.String(),
    }),
  ),
  sessions: Type.Array(
    Type.Object({ id: Type.String(), signedInAt: Nullable(When), expiresAt: Nullable(When) }),
  ),
  'security-activity': Type.Array(
    Type.Object({
      kind: Type.String(),
      occurredAt: When,
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  'payment-profiles': Type.Array(Type.Record(Type.String(), Type.Unknown())),
  messages: Type.Array(
    Type.Object({
      channel: Type.String(),
      kind: Type.String(),
      recipient: Type.String(),
      subject: Nullable(Type.String()),
      body: Type.String(),
      sentAt: When,
    }),
  ),
} as const;
export type ExportArea = keyof typeof exportFileSchemas;
export const exportAreas = Object.keys(exportFileSchemas) as ExportArea[];
