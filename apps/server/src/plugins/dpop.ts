import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { getOrCreateSecret, randomSecret } from '../lib/app-secrets.js';

/**
 * DPoP (RFC 9449) at the customer API (decision 0044, docs/product/security.md#sender-constrained-tokens):
 * the proof a client sends with a DPoP-bound access token is checked here: signature with the key in
 * its header, `typ`, `htm`, `htu`, `ath`, freshness (`iat` or a server nonce), the key's thumbprint
 * against the token's `cnf.jkt`, and that the proof was never used before, on any instance.
 */

/** The signature algorithms a proof may use (the realm accepts the same, oidc-provider's default). */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'Ed25519'] as const;
/** Seconds a proof's `iat` may be away from this server's clock when it carries no nonce. */
export const DPOP_IAT_WINDOW_SECONDS = 300;
/** Name of the secret (app_secrets) the nonces of every instance are derived from. */
export const DPOP_NONCE_SECRET = 'dpop-nonce-key';

/** The 32-byte secret of the server nonces, shared by the instances (the realm's nonces too). */
export async function dpopNonceSecret(db: Db): Promise<Buffer> {
  return Buffer.from(await getOrCreateSecret(db, DPOP_NONCE_SECRET, () => randomSecret(32)), 'base64url');
}

const NONCE_STEP_SECONDS = 60;

/**
 * Server nonces without state: an HMAC-like derivation (HKDF) of the current minute, so every
 * instance with the secret issues and accepts the same ones. A nonce is accepted from two minutes
 * before to two minutes after the one handed out (RFC 9449 §8, §9).
 */
export class DpopNonces {
  private readonly secret: Buffer;
  private step = -1;
  private values: string[] = [];
  constructor(
    secret: Buffer,
    private readonly info: string,
    private readonly nowSeconds: () => number = () => Date.now() / 1000,
  ) {
    if (secret.byteLength !== 32) throw new TypeError('The DPoP nonce secret must be 32 bytes');
    this.secret = secret;
  }

  private window(): string[] {
    const step = Math.floor(this.nowSeconds() / NONCE_STEP_SECONDS);
    if (step !== this.step) {
      this.step = step;
      this.values = [-2, -1, 0, 1, 2].map((offset) => {
        const salt = Buffer.alloc(8);
        salt.writeBigInt64BE(BigInt(step + offset));
        return Buffer.from(hkdfSync('sha256', this.secret, salt, this.info, 32)).toString('base64url');
      });
    }
    return this.values;
  }

  next(): string {
    return this.window()[3]!;
  }

  check(nonce: string): boolean {
    const given = Buffer.from(nonce);
    let matched = false;
    for (const value of this.window()) {
      const expected = Buffer.from(value);
      if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
    }
    return matched;
  }
}

/** Remembers proof ids until they expire: `unique` is true the first time an id is given, on any instance. */
export interface DpopReplayStore {
  unique(id: string, expiresAtSeconds: number): Promise<boolean>;
}

const PURGE_INTERVAL_MS = 60_000;

/** At most this many proof ids go into one statement. */
const MAX_IDS_PER_INSERT = 500;

/**
 * The proofs in PostgreSQL (`dpop_proofs`): the primary key refuses a second use. The ids of the
 * requests that arrive in one turn of the event loop go in one multi-row insert, not one statement
 * each (docs/performance.md#dpop: one insert per request halved the DPoP rate).
 */
export function databaseReplayStore(db: Db, log?: FastifyBaseLogger): DpopReplayStore {
  let lastPurge = 0;
  type Waiting = {
    id: string;
    expiresAt: Date;
    resolve(unique: boolean): void;
    reject(error: unknown): void;
  };
  let queue: Waiting[] = [];
  let scheduled = false;

  async function insert(batch: Waiting[]): Promise<void> {
    const now = new Date();
    // The same id twice in one batch: only its first request may pass (one row can change once).
    const first = new Map<string, Waiting>();
    for (const waiting of batch) if (!first.has(waiting.id)) first.set(waiting.id, waiting);
    try {
      const rows = await db
        .insertInto('dpop_proofs')
        .values([...first.values()].map(({ id, expiresAt }) => ({ id, expires_at: expiresAt })))
        // An id whose row has expired (not purged yet) may be taken again: nobody could replay it.
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ expires_at: (eb) => eb.ref('excluded.expires_at') })
            .where('dpop_proofs.expires_at', '<', now),
        )
        .returning('id')
        .execute();
      const taken = new Set(rows.map((row) => row.id));
      for (const waiting of batch)
        waiting.resolve(first.get(waiting.id) === waiting && taken.has(waiting.id));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
    if (Date.now() - lastPurge > PURGE_INTERVAL_MS) {
      lastPurge = Date.now();
      db.deleteFrom('dpop_proofs')
        .where('expires_at', '<', now)
        .execute()
        .catch((err: unknown) => log?.warn({ err }, 'could not delete expired DPoP proof ids'));
    }
  }

  function flush(): void {
    scheduled = false;
    const waiting = queue;
    queue = [];
    for (let start = 0; start < waiting.length; start += MAX_IDS_PER_INSERT)
      void insert(waiting.slice(start, start + MAX_IDS_PER_INSERT));
  }

  return {
    unique(id, expiresAtSeconds) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ id, expiresAt: new Date(expiresAtSeconds * 1000), resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}

/** The proofs in Redis (`SET … NX EX`); while Redis does not answer, in the database. */
export function redisReplayStore(redis: Redis, prefix: string, fallback: DpopReplayStore): DpopReplayStore {
  return {
    async unique(id, expiresAtSeconds) {
      const ttl = Math.max(1, Math.ceil(expiresAtSeconds - Date.now() / 1000));
      let answer: string | null;
      try {
        answer = await redis.set(`${prefix}dpop:${id}`, '1', 'EX', ttl, 'NX');
      } catch {
        return fallback.unique(id, expiresAtSeconds);
      }
      return answer === 'OK';
    },
  };
}

export type DpopError = 'invalid_dpop_proof' | 'use_dpop_nonce';

export type DpopProofResult =
  { ok: true; jkt: string } | { ok: false; error: DpopError; description: string; nonce?: string };

export interface DpopRequest {
  /** The DPoP header(s) as the request had them. */
  proof: string | string[] | undefined;
  method: string;
  /** The request's path and query, as Fastify's `request.url`. */
  url: string;
  accessToken: string;
  /** The token's `cnf.jkt`. */
  jkt: string;
}

export interface DpopVerifier {
  verify(request: DpopRequest): Promise<DpopProofResult>;
  /** A nonce for a `DPoP-Nonce` header. */
  nonce(): string;
  /** Algorithms for the challenge's `algs`. */
  algorithms: readonly string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    dpop: DpopVerifier;
  }
}

const base64urlSha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The keys of the proofs seen lately, imported, with their thumbprints, by the proof's header segment
 * (a client sends the same one with every proof): importing a JWK cost more than checking the
 * signature (docs/performance.md#dpop).
 */
const MAX_KNOWN_KEYS = 10_000;

interface ProofKey {
  key: Awaited<ReturnType<typeof importJWK>>;
  algorithm: string;
  thumbprint: string;
}

export interface DpopVerifierOptions {
  publicUrl: string;
  nonces: DpopNonces;
  requireNonce: boolean;
  replay: DpopReplayStore;
  nowSeconds?: () => number;
}

export function createDpopVerifier(options: DpopVerifierOptions): DpopVerifier {
  const { nonces, replay, requireNonce } = options;
  const now = options.nowSeconds ?? (() => Date.now() / 1000);
  const publicUrl = new URL(options.publicUrl);
  const keys = new Map<string, ProofKey>();

  const refuse = (description: string): DpopProofResult => ({
    ok: false,
    error: 'invalid_dpop_proof',
    description,
  });
  const askNonce = (description: string): DpopProofResult => ({
    ok: false,
    error: 'use_dpop_nonce',
    description,
    nonce: nonces.next(),
  });

  /** The address a proof's htu must name: the public URL's origin with the request's path. */
  function expectedHtu(url: string): string {
    const path = url.split(/[?#]/, 1)[0] ?? '/';
    return new URL(path, publicUrl).href;
  }

  function htuMatches(htu: unknown, expected: string): boolean {
    if (typeof htu !== 'string') return false;
    const parsed = URL.parse(htu);
    if (!parsed) return false;
    parsed.search = '';
    parsed.hash = '';
    return parsed.href === expected;
  }

  /** The header's public key, imported, and its thumbprint; undefined when the header has no usable one. */
  async function keyOf(proof: string, header: { alg?: string; jwk?: JWK }): Promise<ProofKey | undefined> {
    const segment = proof.slice(0, proof.indexOf('.'));
    const known = keys.get(segment);
    if (known) return known;
    const { alg, jwk } = header;
    if (!alg || !(DPOP_ALGORITHMS as readonly string[]).includes(alg)) return undefined;
    // A private key in the header is refused (RFC 9449 §4.3: the public key, never the private one).
    if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk) || 'd' in jwk) return undefined;
    let key: ProofKey['key'];
    try {
      key = await importJWK(jwk, alg);
    } catch {
      return undefined;
    }
    const entry = { key, algorithm: alg, thumbprint: await calculateJwkThumbprint(jwk, 'sha256') };
    if (keys.size >= MAX_KNOWN_KEYS) keys.delete(keys.keys().next().value!);
    keys.set(segment, entry);
    return entry;
  }

  async function verify(request: DpopRequest): Promise<DpopProofResult> {
    const { proof } = request;
    if (proof === undefined || proof === '')
      return refuse('A DPoP proof is required with a DPoP-bound token');
    if (Array.isArray(proof) || proof.includes(',')) return refuse('Exactly one DPoP proof is allowed');
    const invalid = 'The DPoP proof is not a valid signed JWT with its public key';
    let payload: Record<string, unknown>;
    let proofKey: ProofKey | undefined;
    try {
      const header = decodeProtectedHeader(proof);
      if (header.typ !== 'dpop+jwt') return refuse('The DPoP proof must have typ dpop+jwt');
      proofKey = await keyOf(proof, header);
      if (!proofKey) return refuse(invalid);
      const verified = await jwtVerify(proof, proofKey.key, {
        typ: 'dpop+jwt',
        algorithms: [proofKey.algorithm],
      });
      payload = verified.payload as Record<string, unknown>;
    } catch {
      return refuse(invalid);
    }
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256)
      return refuse('The DPoP proof must have a jti');
    if (typeof payload.iat !== 'number') return refuse('The DPoP proof must have an iat');
    if (payload.htm !== request.method) return refuse('The DPoP proof htm does not match the request method');
    if (!htuMatches(payload.htu, expectedHtu(request.url)))
      return refuse('The DPoP proof htu does not match the request address');
    if (payload.ath !== base64urlSha256(request.accessToken))
      return refuse('The DPoP proof ath does not match the access token');

    const current = now();
    if (payload.nonce !== undefined) {
      if (typeof payload.nonce !== 'string' || !nonces.check(payload.nonce))
        return askNonce('The DPoP proof nonce is not a current one');
    } else if (requireNonce) {
      return askNonce('The DPoP proof must carry the server nonce');
    } else if (Math.abs(current - payload.iat) > DPOP_IAT_WINDOW_SECONDS) {
      // A client whose clock is off recovers with a nonce (RFC 9449 §11.1).
      return askNonce('The DPoP proof iat is not recent enough; use the server nonce');
    }

    const { thumbprint } = proofKey;
    if (thumbprint !== request.jkt) return refuse('The DPoP proof key is not the key the token is bound to');

    // Kept as long as the proof could pass the checks above: its iat window, or a nonce's life.
    const until = Math.max(current, payload.iat) + DPOP_IAT_WINDOW_SECONDS;
    if (!(await replay.unique(base64urlSha256(`${thumbprint}.${payload.jti}`), Math.ceil(until))))
      return refuse('The DPoP proof has been used before');
    return { ok: true, jkt: thumbprint };
  }

  return { verify, nonce: () => nonces.next(), algorithms: DPOP_ALGORITHMS };
}

/** The API's DPoP verifier (`app.dpop`): nonces from the shared secret, replay store in Redis or the database. */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const db = app.db;
    const nonces = new DpopNonces(await dpopNonceSecret(db), 'DPoP API');
    let replay = databaseReplayStore(db, app.log);
    // The instance's one Redis connection (plugins/redis.ts), shared with the rate limits and the batch lane.
    if (app.redis) replay = redisReplayStore(app.redis, config.redisKeyPrefix, replay);
    app.decorate(
      'dpop',
      createDpopVerifier({
        publicUrl: config.publicUrl,
        nonces,
        requireNonce: config.dpopRequireNonce,
        replay,
      }),
    );
  },
  { name: 'dpop', dependencies: ['database', 'redis'] },
);
