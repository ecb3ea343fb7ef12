import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type LoyaltyHistoryPage,
  type LoyaltyPartnerCode,
  type LoyaltyTierDetails,
  type TierReward,
  type TierSlug,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import {
  createTestCustomer,
  demoMember,
  TEST_CUSTOMER_PASSWORD,
  type TestCustomerOptions,
} from '../../testing/loyalty-members.js';
import { loadLoyaltyContent } from '../content/index.js';
import type { Customer } from '../customers/index.js';
import { createLoyaltyService, type LoyaltyService } from './loyalty-service.js';
import { PARTNER_CODE_PATTERN } from './partner-code.js';

let t: TestApp;
let service: LoyaltyService;
let rewards: TierReward[];

beforeAll(async () => {
  t = await createTestApp();
  const content = await loadLoyaltyContent(t.config.contentDir);
  service = createLoyaltyService({ db: t.db, content });
  rewards = content.tiers('en', 'DE').flatMap((tier) => tier.rewards);
});
afterAll(() => t?.close());

interface Session {
  customer: Customer;
  auth: Record<string, string>;
}

async function sessionOf(customer: Customer, password = TEST_CUSTOMER_PASSWORD): Promise<Session> {
  const { accessToken } = await signIn(t.app, { email: customer.email, password });
  const auth: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  const status = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
  auth[CSRF_HEADER] = status.headers[CSRF_HEADER.toLowerCase()] as string;
  return { customer, auth };
}

const newMember = async (options: TestCustomerOptions = {}) =>
  sessionOf(await createTestCustomer(t.db, options));
const call = (session: Session | undefined, options: InjectOptions) =>
  t.app.inject({ ...options, headers: { ...session?.auth, ...options.headers } });

/** A reward of the DE content: a partner reward unlocked in `tier`, or one without partner code. */
function reward(partnerCode: boolean, tier?: TierSlug): string {
  const found = rewards.find(
    (r) => r.partnerCode === partnerCode && (tier === undefined || r.unlockedIn === tier),
  );
  if (!found) throw new Error(`the DE content has no ${partnerCode ? 'partner' : 'plain'} reward in ${tier}`);
  return found.slug;
}

describe('tier details', () => {
  it('shows the demo member’s points, tier and tier expiry', async () => {
    const de = await sessionOf(await demoMember(t.db, 'de'), 'Demo-2026!');
    const res = await call(de, { url: apiPaths.loyaltyTierDetails(de.customer.id) });
    expect(res.statusCode).toBe(200);
    const details = res.json<LoyaltyTierDetails>();
    expect(details.tier).toBe('royal-gold');
    expect(details.points).toBeGreaterThanOrEqual(3000);
    expect(Date.parse(details.tierExpirationDate!)).toBeGreaterThan(Date.now());
    expect(res.headers[CSRF_HEADER.toLowerCase()]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('starts a new member at sky-blue with 0 points', async () => {
    const member = await newMember();
    const res = await call(member, { url: apiPaths.loyaltyTierDetails(member.customer.id) });
    expect(res.json<LoyaltyTierDetails>()).toMatchObject({
      points: 0,
      tier: 'sky-blue',
      tierExpirationDate: null,
    });
  });

  it('needs a bearer token', async () => {
    const res = await call(undefined, {
      url: apiPaths.loyaltyTierDetails('00000000-0000-4000-8000-000000000000'),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('every loyalty call is for the signed-in customer only', () => {
  let me: Session;
  let other: Customer;
  let slug: string;
  beforeAll(async () => {
    me = await newMember();
    other = await createTestCustomer(t.db);
    slug = reward(true, 'sky-blue');
  });

  const calls = (uuid: string): [string, InjectOptions][] => [
    ['GET tier details', { url: apiPaths.loyaltyTierDetails(uuid) }],
    ['GET history', { url: apiPaths.loyaltyHistory(uuid) }],
    ['GET partner code', { url: apiPaths.loyaltyPartnerCode(uuid, slug) }],
    ['POST partner code', { method: 'POST', url: apiPaths.loyaltyPartnerCode(uuid, slug) }],
  ];

  it("refuses another customer's uuid with 403 on every path, and changes nothing", async () => {
    for (const [name, options] of calls(other.id)) {
      const res = await call(me, options);
      expect(res.statusCode, name).toBe(403);
      expect(res.json<ApiErrorBody>().code, name).toBe('forbidden');
    }
    expect(await service.findPartnerCode(other.id, slug)).toBeUndefined();
  });

  it('refuses a uuid that is not one with 400 naming it', async () => {
    for (const [name, options] of calls('not-a-uuid')) {
      const res = await call(me, options);
      expect(res.statusCode, name).toBe(400);
      expect(res.json<ApiErrorBody>().violations?.[0]?.field, name).toBe('uuid');
    }
  });

  it('answers a customer who has not joined with 404 not_a_member on every path', async () => {
    const outsider = await newMember({ member: false });
    for (const [name, options] of calls(outsider.customer.id)) {
      const res = await call(outsider, options);
      expect(res.statusCode, name).toBe(404);
      expect(res.json<ApiErrorBody>(), name).toMatchObject({
        code: 'not_a_member',
        message: expect.stringMatching(/not a member of the loyalty programme/),
      });
    }
  });
});

describe('history', () => {
  let member: Session;
  beforeAll(async () => {
    member = await newMember();
    for (let i = 1; i <= 25; i += 1) {
      await service.applyEvent({
        customerId: member.customer.id,
        sourceId: `rental-${i}`,
        type: 'rental-completed',
        points: i,
        description: `Rental ${i}`,
      });
    }
  });
  const page = (query: string) =>
    call(member, { url: `${apiPaths.loyaltyHistory(member.customer.id)}${query}` });

  it('pages newest first, with the total number of pages', async () => {
    const first = (await page('?page_size=10&page_index=0')).json<LoyaltyHistoryPage>();
    expect(first).toMatchObject({ totalPages: 3, totalElements: 25, pageIndex: 0, pageSize: 10 });
    expect(first.content.map((e) => e.points)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    expect(first.content[0]).toMatchObject({
      type: 'rental-completed',
      tier: 'sky-blue',
      description: 'Rental 25',
    });
    const last = (await page('?page_size=10&page_index=2')).json<LoyaltyHistoryPage>();
    expect(last.content.map((e) => e.points)).toEqual([5, 4, 3, 2, 1]);
  });

  it('answers a page past the end with no entries', async () => {
    const res = await page('?page_size=10&page_index=3');
    expect(res.statusCode).toBe(200);
    expect(res.json<LoyaltyHistoryPage>()).toMatchObject({ content: [], totalPages: 3, pageIndex: 3 });
  });

  it('uses page size 100 and page 0 by default', async () => {
    const body = (await page('')).json<LoyaltyHistoryPage>();
    expect(body).toMatchObject({ pageSize: 100, pageIndex: 0, totalPages: 1 });
    expect(body.content).toHaveLength(25);
    expect((await page('?page_size=1&page_index=24')).json<LoyaltyHistoryPage>().content[0]?.points).toBe(1);
  });

  it('has the 250 entries of the DE demo member on 3 pages', async () => {
    const de = await sessionOf(await demoMember(t.db, 'de'), 'Demo-2026!');
    const url = (index: number) =>
      `${apiPaths.loyaltyHistory(de.customer.id)}?page_size=100&page_index=${index}`;
    const pages = await Promise.all(
      [0, 1, 2].map(async (i) => (await call(de, { url: url(i) })).json<LoyaltyHistoryPage>()),
    );
    expect(pages.map((p) => p.content.length)).toEqual([100, 100, 50]);
    expect(pages[0]!.totalPages).toBe(3);
    const times = pages.flatMap((p) => p.content.map((e) => Date.parse(e.occurredAt)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each([
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=abc', 'page_size'],
    ['page_size=-1', 'page_size'],
    ['page_index=-1', 'page_index'],
    ['page_index=abc', 'page_index'],
    ['page_index=1.5', 'page_index'],
    ['page_size=10&sort=asc', 'sort'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const res = await page(`?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json<ApiErrorBody>();
    expect(body.code).toBe('validation_failed');
    expect(body.violations?.map((v) => v.field)).toContain(field);
  });
});

describe('partner codes', () => {
  let member: Session;
  let slug: string;
  beforeAll(async () => {
    member = await newMember();
    slug = reward(true, 'sky-blue');
  });
  const url = (session: Session, rewardSlug: string) =>
    apiPaths.loyaltyPartnerCode(session.customer.id, rewardSlug);

  it('is 404 until generated, then POST creates it once and GET and POST return the same code', async () => {
    const before = await call(member, { url: url(member, slug) });
    expect(before.statusCode).toBe(404);
    expect(before.json<ApiErrorBody>().code).toBe('partner_code_not_found');

    const created = await call(member, { method: 'POST', url: url(member, slug) });
    expect(created.statusCode).toBe(201);
    const code = created.json<LoyaltyPartnerCode>();
    expect(code.slug).toBe(slug);
    expect(code.code).toMatch(PARTNER_CODE_PATTERN);

    const again = await call(member, { method: 'POST', url: url(member, slug), payload: {} });
    expect(again.statusCode).toBe(200);
    expect(again.json<LoyaltyPartnerCode>()).toEqual(code);
    const read = await call(member, { url: url(member, slug) });
    expect(read.statusCode).toBe(200);
    expect(read.json<LoyaltyPartnerCode>()).toEqual(code);
  });

  it('takes no body, an empty JSON object or an empty JSON body, and refuses anything else', async () => {
    const fresh = await newMember();
    const post = (payload: string | undefined, contentType?: string) =>
      call(fresh, {
        method: 'POST',
        url: url(fresh, slug),
        ...(payload === undefined ? {} : { payload }),
        ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      });
    const refused = await post('{"slug":"x"}', 'application/json');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiErrorBody>().violations?.[0]).toMatchObject({
      field: 'slug',
      rule: 'unknownField',
    });
    expect((await post('[]', 'application/json')).statusCode).toBe(400);
    expect(await service.findPartnerCode(fresh.customer.id, slug)).toBeUndefined();
    expect((await post('', 'application/json')).statusCode).toBe(201);
    expect((await post('{}', 'application/json')).statusCode).toBe(200);
    expect((await post(undefined)).statusCode).toBe(200);
  });

  it('gives one code to ten POSTs at the same moment', async () => {
    const racer = await newMember();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(racer, { method: 'POST', url: url(racer, slug) })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    expect(new Set(answers.map((a) => a.json<LoyaltyPartnerCode>().code)).size).toBe(1);
    const rows = await t.db
      .selectFrom('loyalty_partner_codes')
      .select('code')
      .where('customer_id', '=', racer.customer.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a reward the tier has not unlocked with 403 naming the tier needed', async () => {
    const locked = rewards.find((r) => r.partnerCode && r.unlockedIn !== 'sky-blue')!;
    const res = await call(member, { method: 'POST', url: url(member, locked.slug) });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>()).toMatchObject({
      code: 'reward_locked',
      message: expect.stringContaining(locked.unlockedIn),
    });
    expect(await service.findPartnerCode(member.customer.id, locked.slug)).toBeUndefined();
  });

  it('answers 404 for a reward without partner code and for an unknown reward', async () => {
    const plain = await call(member, { method: 'POST', url: url(member, reward(false, 'sky-blue')) });
    expect(plain.statusCode).toBe(404);
    expect(plain.json<ApiErrorBody>().code).toBe('not_a_partner_reward');
    const unknown = await call(member, { method: 'POST', url: url(member, 'no-such-reward') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiErrorBody>().code).toBe('unknown_reward');
    expect((await call(member, { url: url(member, 'no-such-reward') })).statusCode).toBe(404);
  });

  it('refuses a POST without the anti-forgery token with 403, and creates nothing', async () => {
    const fresh = await newMember();
    const res = await t.app.inject({
      method: 'POST',
      url: url(fresh, slug),
      headers: { authorization: fresh.auth.authorization! },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().code).toBe('csrf_invalid');
    expect(await service.findPartnerCode(fresh.customer.id, slug)).toBeUndefined();
  });

  it('holds two partner codes for the DE demo member', async () => {
    const de = await demoMember(t.db, 'de');
    const rows = await t.db
      .selectFrom('loyalty_partner_codes')
      .select(['slug', 'code'])
      .where('customer_id', '=', de.id)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.code).toMatch(PARTNER_CODE_PATTERN);
  });
});
