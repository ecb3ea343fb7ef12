import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  appPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type DevOutboxResponse,
  type NewsletterLogResponse,
  type NewsletterLogRTO,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { createCustomerRepository } from '../customers/index.js';
import { createMessageSender, loadMessageTexts } from '../messages/index.js';
import { hashToken } from '../../lib/single-use-token.js';
import { createNewsletterService, type NewsletterService } from './newsletter-service.js';
import { seedDemoNewsletter } from './demo-newsletter.js';

interface Session {
  token: string;
  csrf: string;
}

let t: TestApp;
let pastService: NewsletterService;

async function sessionOf(email: string): Promise<Session> {
  const { accessToken: token } = await signIn(t.app, { email, password: 'Demo-2026!' });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${token}` },
  });
  return { token, csrf: status.headers[CSRF_HEADER.toLowerCase()] as string };
}

beforeAll(async () => {
  t = await createTestApp();
  // A service whose clock stands 91 days back: its tokens are expired today.
  pastService = createNewsletterService({
    db: t.db,
    sender: createMessageSender({ db: t.db, log: t.app.log, from: t.config.mailFrom }),
    texts: await loadMessageTexts(t.config.contentDir),
    publicUrl: t.config.publicUrl,
    now: () => new Date(Date.now() - 91 * 86_400_000),
  });
});
afterAll(() => t.close());

const logOf = async (session: Session, query = ''): Promise<NewsletterLogRTO> => {
  const res = await t.app.inject({
    url: `${apiPaths.newsletterLog}${query}`,
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NewsletterLogResponse>().body.NewsletterLogRTO;
};
const outbox = async () =>
  (await t.app.inject({ url: `${appPaths.devOutbox}?format=json` })).json<DevOutboxResponse>().messages;
const unsubscribeTokenOf = async (email: string) => {
  const mail = (await outbox()).find((m) => m.to === email && m.kind === 'newsletter')!;
  const link = new URL(mail.links[0]!);
  const prefix = `${t.config.publicUrl}${appPaths.newsletterUnsubscribe('')}`;
  expect(`${link.origin}${link.pathname}`.startsWith(prefix)).toBe(true);
  return decodeURIComponent(link.pathname.slice(appPaths.newsletterUnsubscribe('').length));
};
const storedState = async () => ({
  agreements: await t.db.selectFrom('newsletter_agreements').selectAll().orderBy('customer_id').execute(),
  events: await t.db.selectFrom('newsletter_events').selectAll().orderBy('id').execute(),
  tokens: await t.db.selectFrom('unsubscribe_tokens').selectAll().orderBy('token_hash').execute(),
});

describe('demo newsletter', () => {
  it('subscribes every demo customer but NL and DK and mails each subscriber one unsubscribe link', async () => {
    const mails = (await outbox()).filter((m) => m.kind === 'newsletter');
    expect(mails.map((m) => m.to).sort()).toEqual(
      ['at', 'de', 'es', 'fr', 'hu', 'it'].map((cc) => `demo.${cc}@example.com`),
    );
    expect(mails.find((m) => m.to === 'demo.it@example.com')!.subject).toBe('Le novità di Roadpass');
    // Each link opens the unsubscribe page in the language of its e-mail, not the browser's (issue 17).
    expect(mails.map((m) => new URL(m.links[0]!).searchParams.get('locale')).sort()).toEqual([
      'de-AT',
      'de-DE',
      'es-ES',
      'fr-FR',
      'hu-HU',
      'it-IT',
    ]);
    const de = await logOf(await sessionOf('demo.de@example.com'));
    expect(de).toMatchObject({
      newsletterAgreement: true,
      history: [{ action: 'SUBSCRIBE', channel: 'REGISTRATION' }],
    });
    expect((await logOf(await sessionOf('demo.dk@example.com'))).newsletterAgreement).toBe(false);
  });

  it('changes nothing when run again (a demo user’s choice stays)', async () => {
    const before = await storedState();
    const mails = (await outbox()).length;
    await seedDemoNewsletter(t.db, pastService);
    expect(await storedState()).toEqual(before);
    expect((await outbox()).length).toBe(mails);
  });
});

describe('newsletter agreement', () => {
  it('accepts and ignores a cache-busting parameter', async () => {
    const at = await sessionOf('demo.at@example.com');
    expect(await logOf(at, `?_=${Date.now()}`)).toEqual(await logOf(at, `?t=${Date.now()}&x=1`));
  });

  it('is changed by PUT with its id and by DELETE all, each change in the history, newest first', async () => {
    const fr = await sessionOf('demo.fr@example.com');
    const { id } = await logOf(fr);
    const put = (agreement: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: apiPaths.newsletter(id),
        headers: { authorization: `Bearer ${fr.token}`, [CSRF_HEADER]: fr.csrf },
        payload: { newsletterAgreement: agreement },
      });
    const off = await put(false);
    expect(off.statusCode).toBe(200);
    expect(off.json<NewsletterLogResponse>().body.NewsletterLogRTO).toMatchObject({
      id,
      newsletterAgreement: false,
      history: [
        { action: 'UNSUBSCRIBE', channel: 'WEB' },
        { action: 'SUBSCRIBE', channel: 'REGISTRATION' },
      ],
    });
    expect((await put(false)).json<NewsletterLogResponse>().body.NewsletterLogRTO.history).toHaveLength(2);
    await put(true);
    const all = await t.app.inject({
      method: 'DELETE',
      url: apiPaths.newsletterAll(id),
      headers: { authorization: `Bearer ${fr.token}`, [CSRF_HEADER]: fr.csrf },
    });
    expect(all.statusCode).toBe(200);
    const log = all.json<NewsletterLogResponse>().body.NewsletterLogRTO;
    expect(log.newsletterAgreement).toBe(false);
    expect(log.history.map((h) => h.action)).toEqual([
      'UNSUBSCRIBE',
      'SUBSCRIBE',
      'UNSUBSCRIBE',
      'SUBSCRIBE',
    ]);
    expect(Date.parse(log.history[0]!.date)).toBeGreaterThanOrEqual(Date.parse(log.history[1]!.date));
  });

  it('refuses another customer’s id (403), an unknown id (404), a bad body (400) and no CSRF (403), changing nothing', async () => {
    const es = await sessionOf('demo.es@example.com');
    const hu = await sessionOf('demo.hu@example.com');
    const huId = (await logOf(hu)).id;
    await logOf(es);
    const before = await storedState();
    const call = (method: 'PUT' | 'DELETE', url: string, payload?: object, csrf: string | null = es.csrf) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${es.token}`, ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
        ...(payload ? { payload } : {}),
      });
    const cases: [Awaited<ReturnType<typeof call>>, number][] = [
      [await call('PUT', apiPaths.newsletter(huId), { newsletterAgreement: false }), 403],
      [await call('DELETE', apiPaths.newsletterAll(huId)), 403],
      [
        await call('PUT', apiPaths.newsletter('00000000-0000-4000-8000-000000000000'), {
          newsletterAgreement: false,
        }),
        404,
      ],
      [await call('DELETE', apiPaths.newsletterAll('no-such-id')), 404],
      [await call('PUT', apiPaths.newsletter(huId), { newsletterAgreement: 'no' }), 400],
      [await call('PUT', apiPaths.newsletter(huId), { newsletterAgreement: false }, null), 403],
      [await call('PUT', apiPaths.newsletter(huId), { newsletterAgreement: false }, hu.csrf), 403],
    ];
    for (const [res, status] of cases) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<ApiErrorBody>().status).toBe(status);
    }
    expect(await storedState()).toEqual(before);
    expect((await t.app.inject({ url: apiPaths.newsletterLog })).statusCode).toBe(401);
  });
});

describe('unsubscribe by the link of a newsletter e-mail (no login)', () => {
  it('shows the address, unsubscribes once (channel EMAIL), then answers 404 like any unknown token', async () => {
    const token = await unsubscribeTokenOf('demo.it@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await t.db
      .selectFrom('unsubscribe_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);

    const lookup = await t.app.inject({ url: apiPaths.unsubscribeLookup(token) });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ email: 'demo.it@example.com' });
    const done = await t.app.inject({ method: 'DELETE', url: apiPaths.unsubscribe(token) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ email: 'demo.it@example.com' });
    const log = await logOf(await sessionOf('demo.it@example.com'));
    expect(log).toMatchObject({
      newsletterAgreement: false,
      history: [{ action: 'UNSUBSCRIBE', channel: 'EMAIL' }, {}],
    });

    const reused = await t.app.inject({ method: 'DELETE', url: apiPaths.unsubscribe(token) });
    const relook = await t.app.inject({ url: apiPaths.unsubscribeLookup(token) });
    expect([reused.statusCode, relook.statusCode]).toEqual([404, 404]);
    expect(reused.json<ApiErrorBody>().message).toBe(relook.json<ApiErrorBody>().message);
  });

  it('answers unknown, guessed, expired and malformed tokens with the same 404, changing nothing', async () => {
    const hu = (await createCustomerRepository(t.db).findByEmail('demo.hu@example.com'))!;
    const expired = await pastService.createUnsubscribeToken(hu.id);
    const real = await unsubscribeTokenOf('demo.hu@example.com');
    const before = await storedState();
    const answers = new Set<string>();
    for (const token of [
      expired,
      'A'.repeat(43),
      `${real.slice(0, 42)}${real.endsWith('A') ? 'B' : 'A'}`,
      'short',
      'x'.repeat(128),
      'demo.hu@example.com',
    ]) {
      for (const res of [
        await t.app.inject({ url: apiPaths.unsubscribeLookup(token) }),
        await t.app.inject({ method: 'DELETE', url: apiPaths.unsubscribe(token) }),
      ]) {
        expect(res.statusCode, token).toBe(404);
        answers.add(res.body);
      }
    }
    expect(answers.size).toBe(1);
    expect(await storedState()).toEqual(before);
    // The real link still works afterwards.
    expect((await t.app.inject({ url: apiPaths.unsubscribeLookup(real) })).json()).toEqual({
      email: 'demo.hu@example.com',
    });
  });

  it('is rate-limited per address', async () => {
    const limited = await createTestApp({ rateLimitTokenCalls: 3 }, t.db);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await limited.app.inject({ url: apiPaths.unsubscribeLookup('B'.repeat(43)) })).statusCode,
        );
      }
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      const refused = await limited.app.inject({
        method: 'DELETE',
        url: apiPaths.unsubscribe('B'.repeat(43)),
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await limited.app.close();
    }
  });
});
