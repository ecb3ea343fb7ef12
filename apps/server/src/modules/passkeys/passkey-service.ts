import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Passkey, PasskeyCreate } from '@roadpass/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { PasskeyTable } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { defaultPasskeyName } from './passkey-names.js';

/** How long a challenge may be answered: long enough to find a phone, short enough to be useless later. */
const PASSKEY_CHALLENGE_SECONDS = 300;

type PasskeyRow = Selectable<PasskeyTable>;

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  synced: row.backed_up,
});

/** The challenge a response claims to answer, or undefined when its client data cannot be read. */
function claimedChallenge(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== 'string') return undefined;
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === 'string' && challenge.length <= 128 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

const refused = (field: string, rule: string, message: string) =>
  ApiError.badRequest(message, [{ field, rule, message }]);

export interface PasskeyServiceOptions {
  /** The public URL: its origin is the one WebAuthn responses must come from, its host the RP id. */
  publicUrl: string;
}

/**
 * Passkeys (docs/product/security.md#passkeys, decision 0034): WebAuthn with SimpleWebAuthn, user
 * verification required, discoverable credentials. Challenges are kept in the database, bound to the
 * customer (registration) or to one sign-in page (passkey sign-in), and deleted when answered.
 */
export function createPasskeyService(db: Db, options: PasskeyServiceOptions) {
  const origin = new URL(options.publicUrl).origin;
  const rpID = new URL(options.publicUrl).hostname;

  async function storeChallenge(
    challenge: string,
    purpose: 'registration' | 'authentication',
    owner: { customerId?: string; interactionUid?: string },
  ) {
    const expires = new Date(Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000);
    await db.transaction().execute(async (tx) => {
      // Expired challenges are useless to everyone; a sign-in page keeps only its newest challenge.
      await tx.deleteFrom('webauthn_challenges').where('expires_at', '<', new Date()).execute();
      if (owner.interactionUid)
        await tx
          .deleteFrom('webauthn_challenges')
          .where('interaction_uid', '=', owner.interactionUid)
          .execute();
      await tx
        .insertInto('webauthn_challenges')
        .values({
          challenge,
          purpose,
          customer_id: owner.customerId ?? null,
          interaction_uid: owner.interactionUid ?? null,
          expires_at: expires,
        })
        .execute();
    });
  }

  /** Takes a pending challenge away (single use): true when it was there, unexpired, for this owner. */
  async function consumeChallenge(
    challenge: string,
    purpose: 'registration' | 'authentication',
    owner: { customerId?: string; interactionUid?: string },
  ): Promise<boolean> {
    let query = db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', new Date());
    if (owner.customerId) query = query.where('customer_id', '=', owner.customerId);
    if (owner.interactionUid) query = query.where('interaction_uid', '=', owner.interactionUid);
    const deleted = await query.returning('challenge').executeTakeFirst();
    return deleted !== undefined;
  }

  const rowsOf = (customerId: string) =>
    db
      .selectFrom('passkeys')
      .selectAll()
      .where('customer_id', '=', customerId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  return {
    async list(customerId: string): Promise<Passkey[]> {
      return (await rowsOf(customerId)).map(toPasskey);
    },

    async registrationOptions(customer: {
      id: string;
      email: string;
      displayName: string;
    }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await rowsOf(customer.id);
      const creation = await generateRegistrationOptions({
        rpName: 'Roadpass',
        rpID,
        userID: isoUint8Array.fromUTF8String(customer.id),
        userName: customer.email,
        userDisplayName: customer.displayName || customer.email,
        attestationType: 'none',
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        excludeCredentials: existing.map((row) => ({
          id: row.credential_id,
          transports: row.transports as AuthenticatorTransport[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await storeChallenge(creation.challenge, 'registration', { customerId: customer.id });
      return creation;
    },

    /** Checks the browser's answer to a registration challenge of this customer and stores the passkey. */
    async register(customerId: string, body: PasskeyCreate, userAgent: string | undefined): Promise<Passkey> {
      const credential = body.credential as unknown as RegistrationResponseJSON;
      const challenge = claimedChallenge(credential.response.clientDataJSON);
      if (!challenge)
        throw refused('credential.response.clientDataJSON', 'format', 'The client data cannot be read');
      if (!(await consumeChallenge(challenge, 'registration', { customerId })))
        throw refused('credential', 'challenge', 'The challenge is unknown, already used or expired');
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: credential,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        throw refused(
          'credential',
          'verification',
          `The passkey was not accepted: ${(error as Error).message}`,
        );
      }
      if (!verification.verified) throw refused('credential', 'verification', 'The passkey was not accepted');
      const info = verification.registrationInfo;
      const taken = await db
        .selectFrom('passkeys')
        .select('id')
        .where('credential_id', '=', info.credential.id)
        .executeTakeFirst();
      if (taken) throw refused('credential', 'unique', 'This passkey is already registered');
      const name = body.name?.trim() || defaultPasskeyName(info.aaguid, userAgent);
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('passkeys')
          .values({
            customer_id: customerId,
            credential_id: info.credential.id,
            public_key: info.credential.publicKey,
            counter: info.credential.counter,
            transports: JSON.stringify(info.credential.transports ?? credential.response.transports ?? []),
            aaguid: info.aaguid,
            device_type: info.credentialDeviceType,
            backed_up: info.credentialBackedUp,
            name,
            last_used_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordSecurityEvent(tx, customerId, 'passkey_added', { passkey: row.name });
        return toPasskey(row);
      });
    },

    /** Renames one of the customer's passkeys; undefined when the customer has no such passkey. */
    async rename(customerId: string, id: string, name: string): Promise<Passkey | undefined> {
      const row = await db
        .updateTable('passkeys')
        .set({ name: name.trim() })
        .where('id', '=', id)
        .where('customer_id', '=', customerId)
        .returningAll()
        .executeTakeFirst();
      return row ? toPasskey(row) : undefined;
    },

    /** Removes one of the customer's passkeys; false when the customer has no such passkey. */
    async remove(customerId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .deleteFrom('passkeys')
          .where('id', '=', id)
          .where('customer_id', '=', customerId)
          .returning('name')
          .executeTakeFirst();
        if (row) await recordSecurityEvent(tx, customerId, 'passkey_removed', { passkey: row.name });
        return row !== undefined;
      });
    },

    /** Options for a passkey sign-in on one sign-in page: any discoverable passkey of this site. */
    async authenticationOptions(interactionUid: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const request = await generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      });
      await storeChallenge(request.challenge, 'authentication', { interactionUid });
      return request;
    },

    /**
     * Checks a passkey sign-in of a sign-in page: the customer whose passkey signed this page's
     * challenge, or undefined (unknown passkey, used or expired challenge, bad signature: the caller
     * says the same in every case).
     */
    async authenticate(interactionUid: string, response: unknown): Promise<string | undefined> {
      if (!response || typeof response !== 'object') return undefined;
      const assertion = response as AuthenticationResponseJSON;
      if (typeof assertion.id !== 'string' || !assertion.response || typeof assertion.response !== 'object')
        return undefined;
      const challenge = claimedChallenge(assertion.response.clientDataJSON);
      if (!challenge || !(await consumeChallenge(challenge, 'authentication', { interactionUid })))
        return undefined;
      const row = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('credential_id', '=', assertion.id.slice(0, 1400))
        .executeTakeFirst();
      if (!row) return undefined;
      if (assertion.response.userHandle) {
        let handle: string | undefined;
        try {
          handle = isoUint8Array.toUTF8String(
            Uint8Array.from(Buffer.from(assertion.response.userHandle, 'base64url')),
          );
        } catch {
          return undefined;
        }
        if (handle !== row.customer_id) return undefined;
      }
      try {
        const verification = await verifyAuthenticationResponse({
          response: assertion,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: row.credential_id,
            publicKey: new Uint8Array(row.public_key),
            counter: Number(row.counter),
            transports: row.transports as AuthenticatorTransport[],
          },
        });
        if (!verification.verified) return undefined;
        await db
          .updateTable('passkeys')
          .set({
            counter: verification.authenticationInfo.newCounter,
            last_used_at: sql<Date>`now()`,
            backed_up: verification.authenticationInfo.credentialBackedUp,
          })
          .where('id', '=', row.id)
          .execute();
        return row.customer_id;
      } catch {
        return undefined;
      }
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
