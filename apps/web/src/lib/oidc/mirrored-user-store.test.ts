import { describe, expect, it } from 'vitest';
import { MirroredUserStore } from './mirrored-user-store';

describe('MirroredUserStore', () => {
  it('stores the OIDC user and mirrors access and refresh token to the two session keys', async () => {
    const store = new MirroredUserStore(sessionStorage);
    const user = JSON.stringify({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: 1 });

    await store.set('user:http://idp/realms/customer:portal-client', user);

    expect(await store.get('user:http://idp/realms/customer:portal-client')).toBe(user);
    expect(sessionStorage.getItem('roadpass.token')).toBe('at-1');
    expect(sessionStorage.getItem('roadpass.refreshToken')).toBe('rt-1');
  });

  it('follows a rotated refresh token and drops a missing one', async () => {
    const store = new MirroredUserStore(sessionStorage);
    await store.set('user:x', JSON.stringify({ access_token: 'at-1', refresh_token: 'rt-1' }));
    await store.set('user:x', JSON.stringify({ access_token: 'at-2', refresh_token: 'rt-2' }));
    expect(sessionStorage.getItem('roadpass.refreshToken')).toBe('rt-2');

    await store.set('user:x', JSON.stringify({ access_token: 'at-3' }));
    expect(sessionStorage.getItem('roadpass.token')).toBe('at-3');
    expect(sessionStorage.getItem('roadpass.refreshToken')).toBeNull();
  });

  it('clears both keys when the user is removed', async () => {
    const store = new MirroredUserStore(sessionStorage);
    await store.set('user:x', JSON.stringify({ access_token: 'at', refresh_token: 'rt' }));

    await store.remove('user:x');

    expect(sessionStorage.getItem('roadpass.token')).toBeNull();
    expect(sessionStorage.getItem('roadpass.refreshToken')).toBeNull();
  });

  it('leaves the two keys alone for other records (sign-in state)', async () => {
    const store = new MirroredUserStore(sessionStorage);
    await store.set('user:x', JSON.stringify({ access_token: 'at', refresh_token: 'rt' }));
    await store.set('some-state-id', JSON.stringify({ access_token: 'not-a-user' }));
    await store.remove('some-state-id');

    expect(sessionStorage.getItem('roadpass.token')).toBe('at');
  });
});
