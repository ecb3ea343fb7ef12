import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { purgeSpentRecoveryLinks } from './index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('spent recovery links are deleted (docs/product/security.md#forgot-password)', () => {
  it('deletes links expired over an hour ago, used or not, and keeps the rest', async () => {
    const { id } = await t.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', 'demo.it@example.com')
      .executeTakeFirstOrThrow();
    const now = new Date('2026-11-26T12:00:00Z');
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    const link = (name: string, expiresAt: Date, usedAt: Date | null = null) => ({
      token_hash: name.padEnd(64, '0'),
      customer_id: id,
      purpose: 'reset',
      created_at: new Date(expiresAt.getTime() - 30 * 60_000),
      expires_at: expiresAt,
      used_at: usedAt,
    });
    await t.db
      .insertInto('recovery_tokens')
      .values([
        link('a1', minutes(-61)),
        link('a2', minutes(-300), minutes(-320)),
        // Expired under an hour ago: still counts for the hourly limit on reset e-mails.
        link('b1', minutes(-59)),
        link('b2', minutes(10)),
        link('b3', minutes(10), minutes(-5)),
      ])
      .execute();

    expect(await purgeSpentRecoveryLinks(t.db, now)).toBe(2);
    const left = await t.db
      .selectFrom('recovery_tokens')
      .select('token_hash')
      .where('customer_id', '=', id)
      .orderBy('token_hash')
      .execute();
    expect(left.map((row) => row.token_hash.slice(0, 2))).toEqual(['b1', 'b2', 'b3']);
    expect(await purgeSpentRecoveryLinks(t.db, now)).toBe(0);
  });
});
