import { describe, expect, it } from 'vitest';
import { createProof } from './dpop';

const decode = (part: string) =>
  JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
const bytes = (part: string) =>
  Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

// Decision 0044: the API calls' DPoP proofs, written by hand on WebCrypto.
describe('createProof', () => {
  it('signs an RFC 9449 proof with the public key in its header, for the call and the token', async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    const proof = await createProof(keys, 'GET', 'https://app.example/api/x?page=2#top', 'token-1', 'n-1');
    const [header, payload, signature] = proof.split('.') as [string, string, string];
    expect(decode(header)).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(decode(header).jwk).not.toHaveProperty('d');
    const claims = decode(payload);
    expect(claims).toMatchObject({ htm: 'GET', htu: 'https://app.example/api/x', nonce: 'n-1' });
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('token-1')));
    expect(bytes(claims.ath as string)).toEqual(digest);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(5);
    const valid = await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.publicKey,
      bytes(signature),
      new TextEncoder().encode(`${header}.${payload}`),
    );
    expect(valid).toBe(true);
    const again = await createProof(keys, 'GET', 'https://app.example/api/x', 'token-1');
    expect(decode(again.split('.')[1]!).jti).not.toBe(claims.jti);
  });
});
