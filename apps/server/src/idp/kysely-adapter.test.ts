import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createKyselyAdapterFactory } from './kysely-adapter.js';

let database: TestDatabase;
let clock = Date.parse('2026-11-22T10:00:00Z');
const now = () => clock;

beforeAll(async () => {
  database = await createMigratedTestDatabase();
});
afterAll(() => database?.drop());

describe('the oidc-provider adapter over oidc_model_instances', () => {
  it('stores, finds, consumes and destroys model instances by kind and id', async () => {
    const adapters = createKyselyAdapterFactory(database.db, { now });
    const codes = adapters('AuthorizationCode');
    const tokens = adapters('AccessToken');
    await codes.upsert(
      'same-id',
      { jti: 'same-id', kind: 'AuthorizationCode', grantId: 'g1', scope: 'openid' },
      60,
    );
    await tokens.upsert('same-id', { jti: 'same-id', kind: 'AccessToken', grantId: 'g1' }, 60);

    expect(await codes.find('same-id')).toEqual({
      jti: 'same-id',
      kind: 'AuthorizationCode',
      grantId: 'g1',
      scope: 'openid',
    });
    expect(await codes.find('other')).toBeUndefined();

    await codes.consume('same-id');
    expect(await codes.find('same-id')).toMatchObject({ consumed: Math.floor(clock / 1000) });
    expect(await tokens.find('same-id')).not.toHaveProperty('consumed');

    await codes.destroy('same-id');
    expect(await codes.find('same-id')).toBeUndefined();
    expect(await tokens.find('same-id')).toBeDefined();
  });

  it('updates in place on a second upsert', async () => {
    const sessions = createKyselyAdapterFactory(database.db, { now })('Session');
    await sessions.upsert('s1', { jti: 's1', uid: 'u1', kind: 'Session', accountId: 'a' }, 600);
    await sessions.upsert('s1', { jti: 's1', uid: 'u1', kind: 'Session', accountId: 'b' }, 600);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'b' });
    expect(await sessions.findByUid('u1')).toMatchObject({ jti: 's1', accountId: 'b' });
    expect(await sessions.findByUid('unknown')).toBeUndefined();
  });

  it('finds a device code by its user code', async () => {
    const deviceCodes = createKyselyAdapterFactory(database.db, { now })('DeviceCode');
    await deviceCodes.upsert('d1', { jti: 'd1', kind: 'DeviceCode', userCode: 'ABCD-EFGH' }, 600);
    expect(await deviceCodes.findByUserCode('ABCD-EFGH')).toMatchObject({ jti: 'd1' });
  });

  it('revokes every instance of one kind that belongs to a grant', async () => {
    const adapters = createKyselyAdapterFactory(database.db, { now });
    const refreshTokens = adapters('RefreshToken');
    await refreshTokens.upsert('r1', { jti: 'r1', kind: 'RefreshToken', grantId: 'g2' }, 600);
    await refreshTokens.upsert('r2', { jti: 'r2', kind: 'RefreshToken', grantId: 'g2' }, 600);
    await refreshTokens.upsert('r3', { jti: 'r3', kind: 'RefreshToken', grantId: 'g3' }, 600);
    await refreshTokens.revokeByGrantId('g2');
    expect(await refreshTokens.find('r1')).toBeUndefined();
    expect(await refreshTokens.find('r2')).toBeUndefined();
    expect(await refreshTokens.find('r3')).toBeDefined();
  });

  it('treats expired instances as absent and deletes them on a later write', async () => {
    const interactions = createKyselyAdapterFactory(database.db, { now })('Interaction');
    await interactions.upsert('i1', { jti: 'i1', kind: 'Interaction' }, 60);
    await interactions.upsert('i2', { jti: 'i2', kind: 'Interaction' }, 3600);
    clock += 61_000;
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.find('i2')).toBeDefined();

    await interactions.upsert('i3', { jti: 'i3', kind: 'Interaction' }, 3600);
    const left = await database.db
      .selectFrom('oidc_model_instances')
      .select('id')
      .where('kind', '=', 'Interaction')
      .orderBy('id')
      .execute();
    expect(left.map((r) => r.id)).toEqual(['i2', 'i3']);
  });

  it('keeps instances without an expiry', async () => {
    const grants = createKyselyAdapterFactory(database.db, { now })('Grant');
    await grants.upsert('forever', { jti: 'forever', kind: 'Grant' });
    clock += 365 * 86_400_000;
    expect(await grants.find('forever')).toBeDefined();
  });
});
