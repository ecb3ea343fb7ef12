import { describe, expect, it } from 'vitest';
import { decodeClaims, legalEntityIsoOf } from './jwt';

const encode = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

describe('token claims', () => {
  it('decodes a JWT payload and maps legal_entity to its country', () => {
    const token = `${encode({ alg: 'none' })}.${encode({ sub: 'u-1', exp: 100, legal_entity: 10, name: 'Dörte' })}.sig`;
    const claims = decodeClaims(token);
    expect(claims).toMatchObject({ sub: 'u-1', exp: 100, legal_entity: 10, name: 'Dörte' });
    expect(legalEntityIsoOf(claims)).toBe('DE');
  });

  it('returns null for anything that is not a JWT', () => {
    expect(decodeClaims('opaque-token')).toBeNull();
    expect(decodeClaims('a.%%%.c')).toBeNull();
    expect(decodeClaims(null)).toBeNull();
  });
});
