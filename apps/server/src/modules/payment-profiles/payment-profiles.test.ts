import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type PaymentProfilesResponse } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { maskIban, seedDemoPaymentProfiles } from './payment-profiles.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const profilesOf = async (email: string) => {
  const { accessToken } = await signIn(t.app, { email, password: 'Demo-2026!' });
  const res = await t.app.inject({
    url: apiPaths.paymentProfiles,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<PaymentProfilesResponse>().body.paymentProfiles;
};

describe('payment profiles', () => {
  it('lists the customer’s cards and SEPA mandates, the default first, with nothing but the last four digits', async () => {
    const profiles = await profilesOf('demo.de@example.com');
    expect(profiles).toEqual([
      {
        id: expect.any(String),
        type: 'CARD',
        brand: 'MASTERCARD',
        last4: '4444',
        expiryMonth: 12,
        expiryYear: new Date().getUTCFullYear() + 3,
        holder: 'Dora Demo',
        isDefault: true,
      },
      {
        id: expect.any(String),
        type: 'SEPA',
        maskedIban: 'DE** **** **** **** **30 00',
        holder: 'Dora Demo',
        isDefault: false,
      },
    ]);
    expect(JSON.stringify(profiles)).not.toContain('370400440532');
  });

  it('gives every demo customer one or two, exactly one of them the default, and keeps them when seeded again', async () => {
    for (const cc of ['nl', 'at', 'fr', 'it', 'es', 'hu', 'dk']) {
      const profiles = await profilesOf(`demo.${cc}@example.com`);
      expect(profiles.length, cc).toBeGreaterThanOrEqual(1);
      expect(profiles.length, cc).toBeLessThanOrEqual(2);
      expect(
        profiles.filter((p) => p.isDefault),
        cc,
      ).toHaveLength(1);
    }
    const before = await t.db.selectFrom('payment_profiles').selectAll().orderBy('id').execute();
    await seedDemoPaymentProfiles(t.db);
    expect(await t.db.selectFrom('payment_profiles').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('needs a signed-in customer', async () => {
    expect((await t.app.inject({ url: apiPaths.paymentProfiles })).statusCode).toBe(401);
  });

  it('masks an IBAN to its country and last four characters', () => {
    expect(maskIban('NL91 ABNA 0417 1643 00')).toBe('NL** **** **** **43 00');
    expect(maskIban('DE89370400440532013000')).toBe('DE** **** **** **** **30 00');
  });
});
