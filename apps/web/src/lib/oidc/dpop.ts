/**
 * DPoP (RFC 9449, decision 0044, docs/product/security.md#sender-constrained-tokens): the browser's
 * tokens are bound to an ES256 key pair made with WebCrypto, its private key not extractable, kept in
 * IndexedDB (a structured clone of the CryptoKey: script can use it, nobody can read it out). The same
 * store serves oidc-client-ts (its `dpop.store`: proofs of the token requests) and the API calls'
 * proofs below. Written by hand on WebCrypto: a JOSE library would cost the first load kilobytes.
 */

/** What oidc-client-ts keeps per client: the key pair and the realm's last nonce (its DPoPState). */
export interface DpopState {
  keys: CryptoKeyPair;
  nonce?: string | undefined;
}

const DATABASE = 'roadpass-dpop';
const STORE = 'keys';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

let opened: Promise<IDBDatabase> | undefined;
function database(): Promise<IDBDatabase> {
  opened ??= (() => {
    const open = indexedDB.open(DATABASE, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    return request(open);
  })();
  return opened;
}

async function run<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await database();
  return request(body(db.transaction(STORE, mode).objectStore(STORE)));
}

/** The key store of oidc-client-ts's DPoPStore interface, in IndexedDB; keys remembered in memory. */
export class IndexedDbKeyStore {
  private readonly cache = new Map<string, DpopState>();

  async set(key: string, value: DpopState): Promise<void> {
    const state = { keys: value.keys, nonce: value.nonce };
    this.cache.set(key, state);
    await run('readwrite', (store) => store.put(state, key));
  }

  async get(key: string): Promise<DpopState> {
    const known = this.cache.get(key);
    if (known) return known;
    const state = await run<DpopState | undefined>('readonly', (store) => store.get(key));
    if (state) this.cache.set(key, state);
    return state as DpopState;
  }

  async remove(key: string): Promise<DpopState> {
    const state = await this.get(key);
    this.cache.delete(key);
    await run('readwrite', (store) => store.delete(key));
    return state;
  }

  async getAllKeys(): Promise<string[]> {
    return (await run('readonly', (store) => store.getAllKeys())).map(String);
  }
}

export const dpopKeyStore = new IndexedDbKeyStore();

const encoder = new TextEncoder();
function base64url(bytes: ArrayBuffer | Uint8Array): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const encodeJson = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

/** A proof for one call (RFC 9449 §4.2): `htu` without query and fragment, `ath` for the token. */
export async function createProof(
  keys: CryptoKeyPair,
  htm: string,
  url: string,
  accessToken?: string,
  nonce?: string,
): Promise<string> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keys.publicKey);
  const htu = url.split(/[?#]/, 1)[0];
  const payload: Record<string, unknown> = {
    jti: crypto.randomUUID(),
    htm,
    htu,
    iat: Math.floor(Date.now() / 1000),
  };
  if (accessToken)
    payload.ath = base64url(await crypto.subtle.digest('SHA-256', encoder.encode(accessToken)));
  if (nonce) payload.nonce = nonce;
  const input = `${encodeJson({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })}.${encodeJson(payload)}`;
  // WebCrypto's ECDSA signature is already JOSE's r‖s.
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    keys.privateKey,
    encoder.encode(input),
  );
  return `${input}.${base64url(signature)}`;
}

/** Signs the API calls' proofs with the client's stored key; undefined when there is no key. */
export async function apiProofSigner(
  clientId: string,
): Promise<((htm: string, url: string, token: string, nonce?: string) => Promise<string>) | undefined> {
  const state = await dpopKeyStore.get(clientId).catch(() => undefined);
  if (!state?.keys) return undefined;
  return (htm, url, token, nonce) => createProof(state.keys, htm, url, token, nonce);
}
