import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createCustomerRepository } from '../customers/index.js';
import { purgeMessagingData } from './purge.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const now = new Date('2026-11-20T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const later = (ms: number) => new Date(now.getTime() + ms);
const H = 3600_000;
const D = 24 * H;

describe('purging messaging data', () => {
  it('deletes old messages and dead links, PINs and tokens, and keeps everything still in use', async () => {
    const customer = (await createCustomerRepository(t.db).findByEmail('demo.nl@example.com'))!;
    const fr = (await createCustomerRepository(t.db).findByEmail('demo.fr@example.com'))!;
    const id = customer.id;
    await t.db.deleteFrom('outbox').execute();
    await t.db.deleteFrom('unsubscribe_tokens').execute();
    await t.db
      .insertInto('outbox')
      .values([
        {
          channel: 'email',
          kind: 'newsletter',
          recipient: 'a@example.com',
          body: 'old',
          created_at: ago(31 * D),
        },
        {
          channel: 'email',
          kind: 'newsletter',
          recipient: 'a@example.com',
          body: 'kept',
          created_at: ago(29 * D),
        },
      ])
      .execute();
    await t.db
      .insertInto('email_changes')
      .values([
        { customer_id: id, new_email: 'dead@example.com', token_hash: 'a'.repeat(64), expires_at: ago(1) },
        {
          customer_id: fr.id,
          new_email: 'live@example.com',
          token_hash: 'b'.repeat(64),
          expires_at: later(H),
        },
      ])
      .execute();
    await t.db
      .insertInto('mobile_changes')
      .values([
        {
          customer_id: id,
          mobile_phone: '+31612345678',
          pin_hash: 'c'.repeat(64),
          expires_at: ago(1),
          sent_at: ago(11 * 60_000),
        },
        {
          customer_id: fr.id,
          mobile_phone: '+33612345678',
          pin_hash: 'd'.repeat(64),
          expires_at: later(60_000),
          sent_at: ago(9 * 60_000),
        },
      ])
      .execute();
    await t.db
      .insertInto('mobile_pin_sends')
      .values([
        { customer_id: id, sent_at: ago(H + 1) },
        { customer_id: id, sent_at: ago(H - 1000) },
      ])
      .execute();
    await t.db
      .insertInto('unsubscribe_tokens')
      .values([
        { token_hash: '1'.repeat(64), customer_id: id, expires_at: ago(1), used_at: null },
        { token_hash: '2'.repeat(64), customer_id: id, expires_at: later(D), used_at: ago(D + 1) },
        { token_hash: '3'.repeat(64), customer_id: id, expires_at: later(D), used_at: ago(H) },
        { token_hash: '4'.repeat(64), customer_id: id, expires_at: later(D), used_at: null },
      ])
      .execute();

    expect(await purgeMessagingData(t.db, now, 30)).toEqual({
      outbox: 1,
      emailChanges: 1,
      mobileChanges: 1,
      pinSends: 1,
      unsubscribeTokens: 2,
    });
    expect((await t.db.selectFrom('outbox').select('body').execute()).map((r) => r.body)).toEqual(['kept']);
    expect(
      (await t.db.selectFrom('email_changes').select('new_email').execute()).map((r) => r.new_email),
    ).toEqual(['live@example.com']);
    expect(
      (await t.db.selectFrom('mobile_changes').select('customer_id').execute()).map((r) => r.customer_id),
    ).toEqual([fr.id]);
    expect(
      await t.db.selectFrom('mobile_pin_sends').select('sent_at').where('customer_id', '=', id).execute(),
    ).toHaveLength(1);
    expect(
      (await t.db.selectFrom('unsubscribe_tokens').select('token_hash').orderBy('token_hash').execute()).map(
        (r) => r.token_hash[0],
      ),
    ).toEqual(['3', '4']);
    // Run again: nothing left to purge.
    expect(Object.values(await purgeMessagingData(t.db, now, 30))).toEqual([0, 0, 0, 0, 0]);
  });
});
