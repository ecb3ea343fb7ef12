import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import {
  apiPaths,
  appPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type DevOutboxResponse,
  type PersonalDataResponse,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { createCustomerRepository, type CustomerRepository } from '../customers/index.js';
import { createMessageSender, loadMessageTexts } from '../messages/index.js';
import { createEmailChangeService, type EmailChangeService } from './email-change-service.js';
import { hashToken } from '../../lib/single-use-token.js';

let t: TestApp;
let customers: CustomerRepository;
let service: EmailChangeService;
let clock = new Date();

beforeAll(async () => {
  t = await createTestApp();
  customers = createCustomerRepository(t.db);
  service = createEmailChangeService({
    db: t.db,
    customers,
    sender: createMessageSender({ db: t.db, log: t.app.log, from: t.config.mailFrom }),
    texts: await loadMessageTexts(t.config.contentDir),
    publicUrl: t.config.publicUrl,
    now: () => clock,
  });
});
afterAll(() => t.close());

const outbox = async () =>
  (await t.app.inject({ url: `${appPaths.devOutbox}?format=json` })).json<DevOutboxResponse>().messages;

/** The token of the newest confirmation link sent to `to`. */
async function linkTokenFor(to: string): Promise<string> {
  const message = (await outbox()).find((m) => m.to === to && m.kind === 'email-confirmation');
  const link = new URL(message!.links[0]!);
  expect(link.origin).toBe(t.config.publicUrl);
  expect(link.pathname.startsWith(appPaths.emailConfirm(''))).toBe(true);
  return decodeURIComponent(link.pathname.slice(appPaths.emailConfirm('').length));
}

const confirm = (token: unknown) =>
  t.app.inject({ method: 'POST', url: apiPaths.emailConfirmation, payload: { token } as object });

const customerByEmail = async (email: string) => (await customers.findByEmail(email))!;

const storedState = async () => ({
  customers: await t.db.selectFrom('customers').select(['id', 'email', 'updated_at']).orderBy('id').execute(),
  changes: await t.db.selectFrom('email_changes').selectAll().orderBy('customer_id').execute(),
});

describe('e-mail change', () => {
  it('sends a link to the new address, in the customer’s language, and changes nothing until it is confirmed', async () => {
    const de = await customerByEmail('demo.de@example.com');
    expect(await service.request(de, '  dora.neu@example.com ')).toEqual({
      pendingEmail: 'dora.neu@example.com',
    });
    expect(await service.pending(de.id)).toBe('dora.neu@example.com');
    expect((await customers.findById(de.id))!.email).toBe('demo.de@example.com');

    const mail = (await outbox()).find((m) => m.to === 'dora.neu@example.com')!;
    expect(mail).toMatchObject({ channel: 'email', kind: 'email-confirmation' });
    expect(mail.subject).toBe('Bestätige deine neue E-Mail-Adresse');
    expect(mail.text).toContain('Hallo Dora');
    // The link opens the page in the language of the e-mail, whatever the browser's.
    expect(mail.links[0]).toMatch(/\?locale=de-DE$/);
    const token = await linkTokenFor('dora.neu@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Only a hash is stored: the table alone cannot rebuild the link.
    const row = await t.db
      .selectFrom('email_changes')
      .selectAll()
      .where('customer_id', '=', de.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.expires_at.getTime() - clock.getTime()).toBe(24 * 3600 * 1000);
  });

  it('confirms by the link without login: e-mail and sign-in name change, the old address is told', async () => {
    const token = await linkTokenFor('dora.neu@example.com');
    const res = await confirm(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'dora.neu@example.com' });
    expect(res.headers['cache-control']).toBe('no-store');

    const notice = (await outbox()).find(
      (m) => m.to === 'demo.de@example.com' && m.kind === 'email-changed',
    )!;
    expect(notice.subject).toBe('Die E-Mail-Adresse deines Roadpass-Kontos wurde geändert');
    expect(notice.text).toContain('dora.neu@example.com');
    expect(await service.pending((await customerByEmail('dora.neu@example.com')).id)).toBeNull();

    const withNew = await signIn(t.app, { email: 'dora.neu@example.com', password: 'Demo-2026!' });
    expect(withNew.accessToken).toBeTruthy();
    await expect(signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' })).rejects.toThrow(
      /sign-in refused/,
    );

    // The link works once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(404);
    expect(again.json<ApiErrorBody>()).toMatchObject({ status: 404, code: 'link_invalid' });
  });

  it('refuses unknown, guessed, malformed and expired tokens with a 4xx, changing nothing', async () => {
    const at = await customerByEmail('demo.at@example.com');
    clock = new Date(Date.now() - 25 * 3600 * 1000);
    await service.request(at, 'lukas.neu@example.com');
    clock = new Date();
    const expired = await linkTokenFor('lukas.neu@example.com');
    const before = await storedState();

    for (const token of [expired, 'A'.repeat(43), `${expired.slice(0, 42)}x`, 'not a token at all!']) {
      const res = await confirm(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json<ApiErrorBody>().code).toBe('link_invalid');
    }
    for (const payload of [
      undefined,
      {},
      { token: 1234567890123456 },
      { token: 'short' },
      { token: expired, extra: 1 },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.emailConfirmation,
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<ApiErrorBody>().status).toBe(400);
    }
    expect(await storedState()).toEqual(before);
    expect((await customers.findById(at.id))!.email).toBe('demo.at@example.com');
    // An expired change is no longer shown as pending.
    expect(await service.pending(at.id)).toBeNull();
  });

  it('refuses something that is not an e-mail address, storing and sending nothing', async () => {
    const hu = await customerByEmail('demo.hu@example.com');
    const before = await storedState();
    const sent = (await outbox()).length;
    for (const bad of ['', 'bence', 'bence@', 'bence nagy@example.com', `${'a'.repeat(250)}@example.com`]) {
      const error = await service.request(hu, bad).catch((e: unknown) => e);
      expect(error, bad).toMatchObject({ statusCode: 400, violations: [{ field: 'email', rule: 'email' }] });
    }
    expect(await storedState()).toEqual(before);
    expect((await outbox()).length).toBe(sent);
  });

  it('a new request replaces the pending one: the earlier link stops working', async () => {
    const fr = await customerByEmail('demo.fr@example.com');
    await service.request(fr, 'camille.un@example.com');
    const first = await linkTokenFor('camille.un@example.com');
    await service.request(fr, 'camille.deux@example.com');
    const second = await linkTokenFor('camille.deux@example.com');
    expect((await confirm(first)).statusCode).toBe(404);
    expect(await service.pending(fr.id)).toBe('camille.deux@example.com');
    expect((await confirm(second)).json()).toEqual({ email: 'camille.deux@example.com' });
  });

  it('asking for the current address again cancels a pending change', async () => {
    const nl = await customerByEmail('demo.nl@example.com');
    await service.request(nl, 'noor.nieuw@example.com');
    const token = await linkTokenFor('noor.nieuw@example.com');
    expect(await service.request(nl, 'DEMO.NL@example.com')).toEqual({ pendingEmail: null });
    expect(await service.pending(nl.id)).toBeNull();
    expect((await confirm(token)).statusCode).toBe(404);
  });

  it('answers pending addresses asked at once (read together, decision 0053) each with its own', async () => {
    const dk = await customerByEmail('demo.dk@example.com');
    const hu = await customerByEmail('demo.hu@example.com');
    await service.request(dk, 'freja.ny@example.com');
    const [mine, none, again, upperCase, notAnId] = await Promise.all([
      service.pending(dk.id),
      service.pending(hu.id),
      service.pending(dk.id),
      service.pending(dk.id.toUpperCase()),
      service.pending('not-a-uuid'),
    ]);
    expect([mine, none, again, upperCase, notAnId]).toEqual([
      'freja.ny@example.com',
      null,
      'freja.ny@example.com',
      'freja.ny@example.com',
      null,
    ]);
    // Past its link's life the change is no longer pending, read together too.
    clock = new Date(Date.now() + 25 * 3600 * 1000);
    expect(await Promise.all([service.pending(dk.id), service.pending(hu.id)])).toEqual([null, null]);
    clock = new Date();
    await service.cancel(dk.id);
  });

  it('refuses a confirmation when another customer took the address meanwhile: 409, nothing changes', async () => {
    const it_ = await customerByEmail('demo.it@example.com');
    await service.request(it_, 'giulia.nuova@example.com');
    const token = await linkTokenFor('giulia.nuova@example.com');
    const es = await customerByEmail('demo.es@example.com');
    await customers.update(es.id, { email: 'giulia.nuova@example.com' });
    const before = await storedState();
    const res = await confirm(token);
    expect(res.statusCode).toBe(409);
    expect(res.json<ApiErrorBody>()).toMatchObject({
      code: 'email_taken',
      violations: [{ field: 'email', rule: 'unique' }],
    });
    expect(await storedState()).toEqual(before);
    await customers.update(es.id, { email: 'demo.es@example.com' });
    await service.cancel(it_.id);
  });
});

describe('an address another account uses (issue 17: nobody learns whether an address has an account)', () => {
  /** Signs in through the provider and returns how to send the profile as that customer. */
  async function profileApi(email: string) {
    const { accessToken } = await signIn(t.app, { email, password: 'Demo-2026!' });
    const auth = { authorization: `Bearer ${accessToken}` };
    const status = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
    const csrf = status.headers[CSRF_HEADER.toLowerCase()] as string;
    return {
      ask: (newEmail: string) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.personalData,
          headers: { ...auth, [CSRF_HEADER]: csrf },
          payload: { email: newEmail },
        }),
      read: () => t.app.inject({ url: apiPaths.personalData, headers: auth }),
    };
  }
  /** An answer as a caller sees it, with the asked address (and the headers every answer differs in) blanked. */
  const seen = (res: LightMyRequestResponse, address: string) => ({
    status: res.statusCode,
    body: res.body.split(address).join('<asked>'),
    headers: Object.fromEntries(
      Object.entries(res.headers).filter(([name]) => !['date', 'x-request-id'].includes(name)),
    ),
  });

  it('answers as for a free address, sends the link only to a free one and tells the owner of a taken one', async () => {
    const requester = await customerByEmail('demo.it@example.com');
    const owner = await customerByEmail('demo.es@example.com');
    const api = await profileApi('demo.it@example.com');
    // Same length as the taken address, so that even the content length cannot tell them apart.
    const free = 'giul.es@example.com';
    const takenAddress = 'Demo.ES@example.com';
    expect(free.length).toBe(takenAddress.length);
    const before = await storedState();
    const sentBefore = new Set((await outbox()).map((m) => m.id));
    const newMessages = async () => (await outbox()).filter((m) => !sentBefore.has(m.id));

    const freeAnswer = await api.ask(free);
    const freeProfile = await api.read();
    const afterFree = await newMessages();
    expect(afterFree).toHaveLength(1);
    expect(afterFree[0]).toMatchObject({ to: free, kind: 'email-confirmation' });
    expect(afterFree[0]!.subject).toBe('Conferma il tuo nuovo indirizzo e-mail');
    expect(afterFree[0]!.links).toHaveLength(1);
    expect(afterFree[0]!.links[0]).toMatch(/\/email\/confirm\/[A-Za-z0-9_-]{43}\?locale=it-IT$/);
    for (const sent of afterFree) sentBefore.add(sent.id);

    const takenAnswer = await api.ask(takenAddress);
    const takenProfile = await api.read();

    // The caller cannot tell the two apart: status, headers and body (and what the profile shows).
    expect(seen(takenAnswer, takenAddress)).toEqual(seen(freeAnswer, free));
    expect(takenAnswer.statusCode).toBe(200);
    expect(takenAnswer.json<PersonalDataResponse>().body.pendingEmail).toBe(takenAddress);
    expect(seen(takenProfile, takenAddress)).toEqual(seen(freeProfile, free));

    // One message, to the taken address, in its owner's language (Spanish), with no confirmation link.
    const afterTaken = await newMessages();
    expect(afterTaken).toHaveLength(1);
    const notice = afterTaken[0]!;
    expect(notice).toMatchObject({ to: 'demo.es@example.com', kind: 'email-in-use', channel: 'email' });
    expect(notice.subject).toBe('Alguien ha intentado usar tu dirección de correo electrónico en Roadpass');
    expect(notice.text).toContain('Hola Javier');
    expect(notice.text).toContain('inicia sesión');
    expect(notice.text).toContain('restablecerla');
    expect(notice.links).toEqual([`${t.config.publicUrl}/?locale=es-ES`]);
    expect(notice.text).not.toContain(appPaths.emailConfirm(''));
    expect(notice.text).not.toContain(requester.first_name);

    // Neither account changed: addresses and sign-in stay, the owner has no pending change.
    const after = await storedState();
    expect(after.customers).toEqual(before.customers);
    expect(await service.pending(owner.id)).toBeNull();
    expect(
      (await signIn(t.app, { email: 'demo.es@example.com', password: 'Demo-2026!' })).accessToken,
    ).toBeTruthy();
    // The requester's pending change can never be confirmed: its token was sent nowhere.
    const row = after.changes.find((c) => c.customer_id === requester.id)!;
    const sentTokens = (await outbox()).flatMap((m) => m.links).map((l) => /confirm\/([^?]+)/.exec(l)?.[1]);
    expect(sentTokens.map((token) => token && hashToken(decodeURIComponent(token)))).not.toContain(
      row.token_hash,
    );

    await api.ask('demo.it@example.com');
    expect(await service.pending(requester.id)).toBeNull();
  });
});
