import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { recordSecurityEvent } from './index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('security activity (docs/product/security.md#security-activity)', () => {
  it('appends an event with its details to the customer, inside the caller’s transaction', async () => {
    const customer = await t.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', 'demo.hu@example.com')
      .executeTakeFirstOrThrow();
    await t.db.transaction().execute(async (tx) => {
      await recordSecurityEvent(tx, customer.id, 'password_changed', { device: 'Firefox on Linux' });
    });
    await t.db
      .transaction()
      .execute(async (tx) => {
        await recordSecurityEvent(tx, customer.id, 'mobile_changed');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const rows = await t.db
      .selectFrom('security_events')
      .select(['kind', 'details'])
      .where('customer_id', '=', customer.id)
      .execute();
    expect(rows).toEqual([{ kind: 'password_changed', details: { device: 'Firefox on Linux' } }]);
  });
});
