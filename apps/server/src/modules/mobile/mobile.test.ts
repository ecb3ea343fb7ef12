import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  appPaths,
  CSRF_HEADER,
  type ConstraintViolationError,
  type ConstraintViolationMeta,
  type DevOutboxResponse,
  type LoginStatus,
  type MobileResponse,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { loadAccountRules } from '../account/index.js';
import { signIn } from '../../testing/sign-in.js';
import { createCustomerRepository, type Customer } from '../customers/index.js';
import { createMessageSender, loadMessageTexts } from '../messages/index.js';
import { createMobileService, type MobileService } from './mobile-service.js';
import { ConstraintViolation } from '../../lib/constraint-violation.js';

interface Session {
  token: string;
  csrf: string;
}

let t: TestApp;
let service: MobileService;
let clock = new Date('2026-11-20T10:00:00Z');
let de: Session;

async function sessionOf(email: string): Promise<Session> {
  const { accessToken: token } = await signIn(t.app, { email, password: 'Demo-2026!' });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(status.json<LoginStatus>().user.email).toBe(email);
  return { token, csrf: status.headers[CSRF_HEADER.toLowerCase()] as string };
}

beforeAll(async () => {
  t = await createTestApp();
  service = createMobileService({
    db: t.db,
    rules: (await loadAccountRules(t.config.contentDir)).mobileMeta,
    sender: createMessageSender({ db: t.db, log: t.app.log, from: t.config.mailFrom }),
    texts: await loadMessageTexts(t.config.contentDir),
    now: () => clock,
  });
  de = await sessionOf('demo.de@example.com');
});
afterAll(() => t.close());

const customer = async (email: string): Promise<Customer> =>
  (await createCustomerRepository(t.db).findByEmail(email))!;
const lastPin = async (to: string) => {
  const { messages } = (
    await t.app.inject({ url: `${appPaths.devOutbox}?format=json` })
  ).json<DevOutboxResponse>();
  return messages.find((m) => m.to === to && m.kind === 'mobile-pin')!.pin!;
};
const wrongPin = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
const refusal = async (promise: Promise<unknown>): Promise<ConstraintViolationMeta[]> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConstraintViolation);
  return (error as ConstraintViolation).metaDataList;
};
const storedState = async (customerId: string) => ({
  mobile: (await t.db
    .selectFrom('customers')
    .select('mobile_phone')
    .where('id', '=', customerId)
    .executeTakeFirst())!.mobile_phone,
  changes: await t.db
    .selectFrom('mobile_changes')
    .selectAll()
    .where('customer_id', '=', customerId)
    .execute(),
  sends: (
    await t.db
      .selectFrom('mobile_pin_sends')
      .select('sent_at')
      .where('customer_id', '=', customerId)
      .execute()
  ).length,
  outbox: (await t.db.selectFrom('outbox').select('id').execute()).length,
});

describe('mobile number service (controllable clock)', () => {
  it('sends a 6-digit PIN by SMS, valid 10 minutes, stored only as a keyed hash', async () => {
    const at = await customer('demo.at@example.com');
    const state = await service.requestPin(at, '+436641234567');
    expect(state.pending).toEqual({
      mobilePhone: '+436641234567',
      expiresAt: '2026-11-20T10:10:00.000Z',
      attemptsLeft: 5,
      resendAvailableAt: '2026-11-20T10:01:00.000Z',
    });
    const pin = await lastPin('+436641234567');
    expect(pin).toMatch(/^\d{6}$/);
    const row = await t.db
      .selectFrom('mobile_changes')
      .selectAll()
      .where('customer_id', '=', at.id)
      .executeTakeFirstOrThrow();
    expect(row.pin_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(pin);

    // 10 minutes later the PIN is expired; nothing changes.
    clock = new Date('2026-11-20T10:10:00Z');
    expect(await refusal(service.confirm(at, '+436641234567', pin))).toEqual([
      expect.objectContaining({
        attribute: 'pin',
        validator: 'pinExpired',
        text: 'Diese PIN ist abgelaufen. Fordere eine neue an.',
      }),
    ]);
    expect((await service.state(at)).pending).toBeNull();
    expect((await service.state(at)).mobilePhone).toBeNull();

    // Within 10 minutes it confirms once.
    await service.requestPin(at, '+436641234567');
    const fresh = await lastPin('+436641234567');
    clock = new Date('2026-11-20T10:19:59Z');
    expect(await service.confirm(at, '+436641234567', fresh)).toEqual({
      mobilePhone: '+436641234567',
      pending: null,
    });
    expect(await refusal(service.confirm(at, '+436641234567', fresh))).toEqual([
      expect.objectContaining({ validator: 'pinNotRequested' }),
    ]);
  });

  it('voids the PIN after 5 wrong ones, even the right one after that', async () => {
    clock = new Date('2026-11-20T12:00:00Z');
    const fr = await customer('demo.fr@example.com');
    await service.requestPin(fr, '+33612345678');
    const pin = await lastPin('+33612345678');
    for (let left = 4; left >= 1; left--) {
      expect(await refusal(service.confirm(fr, '+33612345678', wrongPin(pin)))).toEqual([
        {
          attribute: 'pin',
          validator: 'pinWrong',
          text: `Ce code PIN est erroné. Tentatives restantes : ${left}.`,
        },
      ]);
      expect((await service.state(fr)).pending?.attemptsLeft).toBe(left);
    }
    expect(await refusal(service.confirm(fr, '+33612345678', wrongPin(pin)))).toEqual([
      expect.objectContaining({ validator: 'pinVoid' }),
    ]);
    expect(await refusal(service.confirm(fr, '+33612345678', pin))).toEqual([
      expect.objectContaining({ validator: 'pinVoid' }),
    ]);
    expect((await service.state(fr)).mobilePhone).toBeNull();

    // A new PIN (after the resend gap) works again.
    clock = new Date('2026-11-20T12:01:00Z');
    await service.requestPin(fr, '+33612345678');
    expect((await service.confirm(fr, '+33612345678', await lastPin('+33612345678'))).mobilePhone).toBe(
      '+33612345678',
    );
  });

  it('sends nothing for the number already on the account, however it is written, and says so', async () => {
    // demo.at confirmed +436641234567 above; long after the resend gap another PIN could be sent.
    clock = new Date('2026-11-20T13:00:00Z');
    const at = await customer('demo.at@example.com');
    expect((await service.state(at)).mobilePhone).toBe('+436641234567');
    const before = await storedState(at.id);
    for (const typed of ['+436641234567', '+43 664 1234567', '0043 (664) 123-45-67'])
      expect(await refusal(service.requestPin(at, typed)), typed).toEqual([
        {
          attribute: 'mobilePhone',
          validator: 'differsFrom',
          parameter: 'currentMobilePhone',
          text: 'Das ist schon deine Handynummer: Wir haben keine PIN gesendet.',
        },
      ]);
    expect(await storedState(at.id)).toEqual(before);
    expect((await service.state(at)).pending).toBeNull();
  });

  it('limits resending: 60 s between PINs and 5 an hour', async () => {
    clock = new Date('2026-11-20T14:00:00Z');
    const nl = await customer('demo.nl@example.com');
    await service.requestPin(nl, '+31612345678');
    clock = new Date('2026-11-20T14:00:59Z');
    const before = await storedState(nl.id);
    const tooSoon = await service.requestPin(nl, '+31612345678').catch((e: unknown) => e);
    expect(tooSoon).toMatchObject({ statusCode: 429 });
    expect((tooSoon as ConstraintViolation).metaDataList).toEqual([
      {
        attribute: 'mobilePhone',
        validator: 'resendWait',
        text: 'Wacht 1 seconden voordat je een nieuwe pincode aanvraagt.',
      },
    ]);
    expect(await storedState(nl.id)).toEqual(before);

    for (const time of ['14:01:00', '14:02:00', '14:03:00', '14:04:00']) {
      clock = new Date(`2026-11-20T${time}Z`);
      await service.requestPin(nl, '+31612345678');
    }
    clock = new Date('2026-11-20T14:05:00Z');
    expect(await refusal(service.requestPin(nl, '+31612345678'))).toEqual([
      {
        attribute: 'mobilePhone',
        validator: 'resendLimit',
        text: 'Je hebt te veel pincodes aangevraagd. Probeer het over 55 minuten opnieuw.',
      },
    ]);
    expect((await service.state(nl)).pending?.resendAvailableAt).toBe('2026-11-20T15:00:00.000Z');
    clock = new Date('2026-11-20T15:00:00Z');
    expect((await service.requestPin(nl, '+31612345678')).pending?.attemptsLeft).toBe(5);
  });
});

describe('GET and PUT /v2/mobile/own', () => {
  const put = (
    session: Session,
    payload: unknown,
    headers: Record<string, string> = { [CSRF_HEADER]: session.csrf },
  ) =>
    t.app.inject({
      method: 'PUT',
      url: apiPaths.mobile,
      headers: { authorization: `Bearer ${session.token}`, ...headers },
      payload: payload as object,
    });

  it('serves the number, the pending change and the rules it enforces', async () => {
    const res = await t.app.inject({
      url: apiPaths.mobile,
      headers: { authorization: `Bearer ${de.token}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<MobileResponse>();
    expect(body.body).toEqual({ mobilePhone: null, pending: null });
    expect(body.meta.metaDataList).toContainEqual({
      attribute: 'mobilePhone',
      validator: 'phone',
      parameter: 'true',
    });
    expect(body.meta.metaDataList).toContainEqual({
      attribute: 'pin',
      validator: 'pattern',
      parameter: '^[0-9]{6}$',
    });
  });

  it('sends a PIN, refuses a wrong one with the text in German, then confirms with the right one', async () => {
    const sent = await put(de, { mobilePhone: '+4915123456789' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json<MobileResponse>().body.pending).toMatchObject({
      mobilePhone: '+4915123456789',
      attemptsLeft: 5,
    });
    const pin = await lastPin('+4915123456789');

    const wrong = await put(de, { mobilePhone: '+4915123456789', pin: wrongPin(pin) });
    expect(wrong.statusCode).toBe(400);
    const error = wrong.json<ConstraintViolationError>();
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(error.violations).toEqual([
      { field: 'pin', rule: 'pinWrong', message: 'Diese PIN ist falsch. Verbleibende Versuche: 4.' },
    ]);
    expect(error.constraintViolationMetaInfo.metaDataList).toEqual([
      { attribute: 'pin', validator: 'pinWrong', text: 'Diese PIN ist falsch. Verbleibende Versuche: 4.' },
    ]);

    const right = await put(de, { mobilePhone: '+4915123456789', pin });
    expect(right.statusCode).toBe(200);
    expect(right.json<MobileResponse>().body).toEqual({ mobilePhone: '+4915123456789', pending: null });
    const after = await t.app.inject({
      url: apiPaths.mobile,
      headers: { authorization: `Bearer ${de.token}` },
    });
    expect(after.json<MobileResponse>().body.mobilePhone).toBe('+4915123456789');
  });

  it('serves the mobile rules of the content, and the PIN rule is the one it enforces', async () => {
    const res = await t.app.inject({
      url: apiPaths.mobile,
      headers: { authorization: `Bearer ${de.token}` },
    });
    expect(res.json<MobileResponse>().meta.metaDataList).toEqual(
      (await loadAccountRules(t.config.contentDir)).mobileMeta,
    );
  });

  it('takes the number as the profile does (spaces, brackets, dashes, 00) and keeps and sends E.164', async () => {
    const dk = await sessionOf('demo.dk@example.com');
    const sent = await put(dk, { mobilePhone: '+39 312 345 6789' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json<MobileResponse>().body.pending?.mobilePhone).toBe('+393123456789');
    const pin = await lastPin('+393123456789');

    const confirmed = await put(dk, { mobilePhone: '0039 (312) 345-6789', pin });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<MobileResponse>().body).toEqual({ mobilePhone: '+393123456789', pending: null });
    const stored = await t.db
      .selectFrom('customers')
      .select('mobile_phone')
      .where('email', '=', 'demo.dk@example.com')
      .executeTakeFirstOrThrow();
    expect(stored.mobile_phone).toBe('+393123456789');
  });

  it('answers a request for the number already on the account with a 400 in the customer’s language, sending nothing', async () => {
    // demo.dk's number is +393123456789 (the test above).
    const dk = await sessionOf('demo.dk@example.com');
    const before = await storedState((await customer('demo.dk@example.com')).id);
    const again = await put(dk, { mobilePhone: '+39 312 345 6789' });
    expect(again.statusCode).toBe(400);
    const text = 'Det er allerede dit mobilnummer: Vi har ikke sendt nogen pinkode.';
    expect(again.json<ConstraintViolationError>()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      violations: [{ field: 'mobilePhone', rule: 'differsFrom', message: text }],
      constraintViolationMetaInfo: {
        metaDataList: [
          { attribute: 'mobilePhone', validator: 'differsFrom', parameter: 'currentMobilePhone', text },
        ],
      },
    });
    expect(await storedState((await customer('demo.dk@example.com')).id)).toEqual(before);
  });

  it('refuses numbers that break the served rules, with every broken rule, storing and sending nothing', async () => {
    const es = await sessionOf('demo.es@example.com');
    const esId = (await customer('demo.es@example.com')).id;
    const before = await storedState(esId);
    for (const [mobilePhone, rules] of [
      ['', ['required']],
      ['0151 2345678', ['phone']],
      ['+12345', ['rangelength', 'phone']],
      ['+1234567890123456', ['rangelength', 'phone']],
    ] as const) {
      const res = await put(es, { mobilePhone });
      expect(res.statusCode, mobilePhone).toBe(400);
      const list = res.json<ConstraintViolationError>().constraintViolationMetaInfo
        .metaDataList as ConstraintViolationMeta[];
      expect(list.map((m) => m.validator).sort(), mobilePhone).toEqual([...rules].sort());
      expect(list.every((m) => m.attribute === 'mobilePhone' && m.text.length > 10)).toBe(true);
    }
    const badPin = await put(es, { mobilePhone: '+34612345678', pin: '12a456' });
    expect(badPin.statusCode).toBe(400);
    expect(badPin.json<ConstraintViolationError>().violations?.[0]).toMatchObject({
      field: 'pin',
      rule: 'pattern',
    });
    for (const payload of [{}, { mobilePhone: 34612345678 }, { mobilePhone: '+34612345678', extra: true }]) {
      const res = await put(es, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<ConstraintViolationError>().status).toBe(400);
    }
    expect(await storedState(esId)).toEqual(before);
  });

  it('needs a signed-in customer and the anti-forgery header, changing nothing otherwise', async () => {
    const it_ = await sessionOf('demo.it@example.com');
    const itId = (await customer('demo.it@example.com')).id;
    const before = await storedState(itId);
    expect((await t.app.inject({ url: apiPaths.mobile })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: apiPaths.mobile, payload: { mobilePhone: '+393123456789' } }))
        .statusCode,
    ).toBe(401);
    expect((await put(it_, { mobilePhone: '+393123456789' }, {})).statusCode).toBe(403);
    expect((await put(it_, { mobilePhone: '+393123456789' }, { [CSRF_HEADER]: de.csrf })).statusCode).toBe(
      403,
    );
    expect(await storedState(itId)).toEqual(before);
  });

  it('answers 429 with the wait in the customer’s language when a PIN is asked again within 60 s', async () => {
    const hu = await sessionOf('demo.hu@example.com');
    expect((await put(hu, { mobilePhone: '+36201234567' })).statusCode).toBe(200);
    const again = await put(hu, { mobilePhone: '+36201234567' });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);
    const meta = again.json<ConstraintViolationError>().constraintViolationMetaInfo
      .metaDataList as ConstraintViolationMeta[];
    expect(meta[0]).toMatchObject({ attribute: 'mobilePhone', validator: 'resendWait' });
    expect(meta[0]!.text).toMatch(/^Várj \d+ másodpercet/);
  });
});
