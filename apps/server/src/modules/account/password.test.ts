import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  checkValues,
  compileRules,
  CSRF_HEADER,
  customValidators,
  type ConstraintViolationMeta,
  type PasswordResponse,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { refresh, signIn, signInWithSession } from '../../testing/sign-in.js';
import type { ConstraintViolationError as ConstraintViolationErrorBody } from '@roadpass/contracts';
import { ruleCases } from './rule-cases.js';
import { DEMO_PASSWORD } from '../customers/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
});
afterAll(() => t.close());

async function csrfOf(token: string): Promise<string> {
  const res = await t.app.inject({ url: apiPaths.password, headers: { authorization: `Bearer ${token}` } });
  return res.headers[CSRF_HEADER.toLowerCase()] as string;
}

const put = async (token: string, payload: unknown, csrf?: string) =>
  t.app.inject({
    method: 'PUT',
    url: apiPaths.password,
    headers: { authorization: `Bearer ${token}`, [CSRF_HEADER]: csrf ?? (await csrfOf(token)) },
    payload: payload as object,
  });

const list = (body: ConstraintViolationErrorBody): ConstraintViolationMeta[] => {
  const items = body.constraintViolationMetaInfo.metaDataList;
  return Array.isArray(items) ? items : [items];
};

describe('password policy', () => {
  it('GET answers the policy as meta and never a password', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.dk@example.com', password: DEMO_PASSWORD });
    const res = await t.app.inject({
      url: apiPaths.password,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<PasswordResponse>();
    expect(body.body.PasswordRTO).toEqual({ password: null, passwordOld: null });
    expect(body.meta.metaDataList).toContainEqual({
      attribute: 'password',
      validator: 'rangelength',
      parameter: '10:128',
    });
    expect(body.meta.metaDataList).toContainEqual({
      attribute: 'password',
      validator: 'notCommon',
      parameter: 'true',
    });
  });

  it('refuses what the served policy refuses (generated from it), in the same words as the interpreter, and stores nothing', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.dk@example.com', password: DEMO_PASSWORD });
    const meta = (
      await t.app.inject({ url: apiPaths.password, headers: { authorization: `Bearer ${accessToken}` } })
    ).json<PasswordResponse>().meta.metaDataList;
    const sample = { password: 'Tandem-Cykel-2026', passwordOld: DEMO_PASSWORD };
    const cases = [
      ...ruleCases(meta, sample, new Date(), []).filter((c) => c.field === 'password'),
      {
        label: 'a common password',
        field: 'password',
        value: 'Password123',
        rule: 'notCommon',
        broken: true,
      },
      {
        label: 'the old one again',
        field: 'password',
        value: DEMO_PASSWORD,
        rule: 'differsFrom',
        broken: true,
      },
    ];
    expect(cases.length).toBeGreaterThan(4);
    for (const c of cases) {
      if (c.broken === false) continue; // an accepted password would change it: tested below
      const sent = { ...sample, [c.field]: c.value };
      const res = await put(accessToken, sent);
      expect(res.statusCode, c.label).toBe(400);
      const items = list(res.json<ConstraintViolationErrorBody>());
      const app = checkValues(compileRules(meta), sent, { customValidators });
      expect(items.map((i) => `${i.attribute}:${i.validator}`).sort(), c.label).toEqual(
        app.map((v) => `${v.field}:${v.rule}`).sort(),
      );
      expect(
        items.every((i) => i.text.length > 5),
        c.label,
      ).toBe(true);
    }
    // Still the demo password.
    await signIn(t.app, { email: 'demo.dk@example.com', password: DEMO_PASSWORD });
  });

  it("gives the texts in the customer's language", async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: DEMO_PASSWORD });
    const res = await put(accessToken, { password: 'kurz', passwordOld: DEMO_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(list(res.json<ConstraintViolationErrorBody>())).toEqual([
      {
        attribute: 'password',
        validator: 'rangelength',
        parameter: '10:128',
        text: 'Verwende 10 bis 128 Zeichen.',
      },
    ]);
  });

  it('refuses a wrong old password with a 400 on passwordOld; refuses no anti-forgery token', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.at@example.com', password: DEMO_PASSWORD });
    const wrong = await put(accessToken, { password: 'Tandem-Cykel-2026', passwordOld: 'Not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(list(wrong.json<ConstraintViolationErrorBody>())).toEqual([
      expect.objectContaining({
        attribute: 'passwordOld',
        validator: 'passwordOld',
        text: 'Das aktuelle Passwort ist nicht korrekt.',
      }),
    ]);
    const noCsrf = await put(
      accessToken,
      { password: 'Tandem-Cykel-2026', passwordOld: DEMO_PASSWORD },
      'forged',
    );
    expect(noCsrf.statusCode).toBe(403);
    await signIn(t.app, { email: 'demo.at@example.com', password: DEMO_PASSWORD });
  });
});

describe('changing the password', () => {
  it('takes the new one at the next sign-in and not the old; ends the other sessions, keeps this one', async () => {
    const email = 'demo.fr@example.com';
    const here = await signInWithSession(t.app, { email, password: DEMO_PASSWORD });
    const other = await signInWithSession(t.app, { email, password: DEMO_PASSWORD });
    const bystander = await signIn(t.app, { email: 'demo.es@example.com', password: DEMO_PASSWORD });

    const res = await put(here.tokens.accessToken, {
      password: 'Velo-Partage-2026',
      passwordOld: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<PasswordResponse>().body.PasswordRTO).toEqual({ password: null, passwordOld: null });

    // The other device's refresh token stops working; this one's goes on; another customer's too.
    const otherRefresh = await refresh(t.app, other.tokens.refreshToken);
    expect(otherRefresh.ok).toBe(false);
    const hereRefresh = await refresh(t.app, here.tokens.refreshToken);
    expect(hereRefresh.ok).toBe(true);
    expect((await refresh(t.app, bystander.refreshToken)).ok).toBe(true);

    await expect(signIn(t.app, { email, password: DEMO_PASSWORD })).rejects.toThrow(/sign-in refused/);
    const again = await signIn(t.app, { email, password: 'Velo-Partage-2026' });
    expect(again.accessToken).toBeTruthy();
  });
});
