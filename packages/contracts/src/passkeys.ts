import Type from 'typebox';

import { PASSKEY_NAME_MAX_LENGTH } from './passkey-constants.js';

/** One of the customer's passkeys as the API answers it: never the key itself. */
export const Passkey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String({ maxLength: PASSKEY_NAME_MAX_LENGTH }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The passkey is synced between the customer's devices (a multi-device credential). */
  synced: Type.Boolean(),
});
export type Passkey = Type.Static<typeof Passkey>;

/** GET …/passkeys/own: the customer's passkeys, oldest first. */
export const PasskeyList = Type.Object({ passkeys: Type.Array(Passkey) });
export type PasskeyList = Type.Static<typeof PasskeyList>;

/**
 * POST …/passkeys/own/registration-options: what the browser hands to navigator.credentials.create
 * (WebAuthn's PublicKeyCredentialCreationOptionsJSON, as SimpleWebAuthn writes it). The challenge in
 * it is single-use and short-lived, kept on the server.
 */
export const PasskeyRegistrationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object(
      { id: Type.Optional(Type.String()), name: Type.String() },
      { additionalProperties: true },
    ),
    user: Type.Object(
      { id: Type.String(), name: Type.String(), displayName: Type.String() },
      { additionalProperties: true },
    ),
    pubKeyCredParams: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type PasskeyRegistrationOptions = Type.Static<typeof PasskeyRegistrationOptions>;

const base64url = (example: string) =>
  Type.String({ minLength: 1, maxLength: 16_384, pattern: '^[A-Za-z0-9_-]+={0,2}$', examples: [example] });

/**
 * POST …/passkeys/own: the browser's answer to the registration options (WebAuthn's
 * RegistrationResponseJSON) and, when the customer typed one, a name.
 */
export const PasskeyCreate = Type.Object(
  {
    credential: Type.Object(
      {
        id: base64url('AAAA'),
        rawId: base64url('AAAA'),
        type: Type.Literal('public-key'),
        response: Type.Object(
          {
            clientDataJSON: base64url('e30'),
            attestationObject: base64url('oA'),
            transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
          },
          { additionalProperties: true },
        ),
        clientExtensionResults: Type.Object({}, { additionalProperties: true }),
        authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
      },
      { additionalProperties: true },
    ),
    name: Type.Optional(Type.String({ maxLength: PASSKEY_NAME_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type PasskeyCreate = Type.Static<typeof PasskeyCreate>;

/** PATCH …/passkeys/own/{passkeyId}: a new name (not blank). */
export const PasskeyRename = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: PASSKEY_NAME_MAX_LENGTH,
      pattern: '\\S',
      examples: ['Work laptop'],
    }),
  },
  { additionalProperties: false },
);
export type PasskeyRename = Type.Static<typeof PasskeyRename>;

export const PasskeyParams = Type.Object({ passkeyId: Type.String({ format: 'uuid' }) });
