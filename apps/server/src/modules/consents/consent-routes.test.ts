import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  EDITABLE_BY_CUSTOMER_SET,
  LOYALTY_CORE_CONSENT,
  LOYALTY_PROCESS_ID,
  type ApiErrorBody,
  type ConsentDefinitionList,
  type CustomerConsent,
  type CustomerConsentList,
  type LoginStatus,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { isLoyaltyMember } from './consent-repository.js';
import { seedDemoConsents } from './demo-consents.js';

const OPTIONAL = 'loyalty-personalised-offers-Lp4e';
const NOT_IN_FRANCE = 'customer-research-Rs8k';

interface Session {
  token: string;
  uuid: string;
  csrf: string;
}

let t: TestApp;
let de: Session;
let fr: Session;

async function sessionOf(email: string): Promise<Session> {
  const { accessToken: token } = await signIn(t.app, { email, password: 'Demo-2026!' });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    token,
    uuid: status.json<LoginStatus>().user.uuid,
    csrf: status.headers[CSRF_HEADER.toLowerCase()] as string,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  de = await sessionOf('demo.de@example.com');
  fr = await sessionOf('demo.fr@example.com');
});
afterAll(() => t.close());

const get = (session: Session | undefined, url: string) =>
  t.app.inject({ url, headers: session ? { authorization: `Bearer ${session.token}` } : {} });

const patch = (
  session: Session,
  uuid: string,
  slug: string,
  payload: unknown,
  headers: Record<string, string> = { [CSRF_HEADER]: session.csrf },
) =>
  t.app.inject({
    method: 'PATCH',
    url: apiPaths.customerConsent(uuid, slug),
    headers: { authorization: `Bearer ${session.token}`, ...headers },
    payload: payload as object,
  });

const consentsOf = async (session: Session) =>
  (await get(session, apiPaths.customerConsents(session.uuid))).json<CustomerConsentList>().data;

describe('demo consents', () => {
  it('make every demo customer but NL a member, with their legal entity', async () => {
    const core = (await consentsOf(de)).find((c) => c.slug === LOYALTY_CORE_CONSENT);
    expect(core).toMatchObject({ granted: true, legalEntityId: 10 });
    const rows = await t.db
      .selectFrom('customer_consents')
      .innerJoin('customers', 'customers.id', 'customer_consents.customer_id')
      .select(['customers.email', 'customer_consents.legal_entity_id', 'customers.legal_entity_id as own'])
      .where('customer_consents.slug', '=', LOYALTY_CORE_CONSENT)
      .where('customer_consents.granted', '=', true)
      .execute();
    const emails = rows.map((r) => r.email);
    for (const cc of ['at', 'fr', 'de', 'it', 'es', 'hu', 'dk'])
      expect(emails).toContain(`demo.${cc}@example.com`);
    expect(rows.every((r) => r.legal_entity_id === r.own)).toBe(true);
  });

  it('leave NL without any record, also when run again', async () => {
    const nlRecords = () =>
      t.db
        .selectFrom('customer_consents')
        .innerJoin('customers', 'customers.id', 'customer_consents.customer_id')
        .select('customer_consents.slug')
        .where('customers.email', '=', 'demo.nl@example.com')
        .execute();
    expect(await nlRecords()).toEqual([]);
    await seedDemoConsents(t.db);
    expect(await nlRecords()).toEqual([]);
  });

  it('never overwrite an answer when run again', async () => {
    const at = await sessionOf('demo.at@example.com');
    await patch(at, at.uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 2, granted: false });
    await seedDemoConsents(t.db);
    expect(await isLoyaltyMember(t.db, at.uuid)).toBe(false);
    expect(await isLoyaltyMember(t.db, de.uuid)).toBe(true);
    await patch(at, at.uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 2, granted: true });
  });
});

describe('consent definitions', () => {
  it("lists the editable set in the legal entity's first language by default", async () => {
    const res = await get(de, apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET));
    expect(res.statusCode).toBe(200);
    const { data } = res.json<ConsentDefinitionList>();
    expect(data.map((d) => d.slug)).toContain(LOYALTY_CORE_CONSENT);
    expect(data.every((d) => d.sets.includes(EDITABLE_BY_CUSTOMER_SET))).toBe(true);
    expect(data.find((d) => d.slug === LOYALTY_CORE_CONSENT)).toMatchObject({
      language: 'de',
      title: 'Treueprogramm',
      required: true,
    });
  });

  it('answers in the requested language, and per legal entity', async () => {
    const english = (
      await get(de, `${apiPaths.consentSet(3, EDITABLE_BY_CUSTOMER_SET)}?language=en_GB`)
    ).json<ConsentDefinitionList>();
    expect(english.data[0]).toMatchObject({ language: 'en', title: 'Loyalty programme' });
    const french = (
      await get(de, apiPaths.consentSet(3, EDITABLE_BY_CUSTOMER_SET))
    ).json<ConsentDefinitionList>();
    expect(french.data[0]!.language).toBe('fr');
    expect(french.data.map((d) => d.slug)).not.toContain(NOT_IN_FRANCE);
  });

  it('lists the loyalty process with its required core consent', async () => {
    const res = await get(de, apiPaths.processConsents(10, LOYALTY_PROCESS_ID));
    expect(res.statusCode).toBe(200);
    const { data } = res.json<ConsentDefinitionList>();
    expect(data.find((d) => d.slug === LOYALTY_CORE_CONSENT)).toMatchObject({ required: true });
    expect(data.every((d) => d.processes.includes(LOYALTY_PROCESS_ID))).toBe(true);
    expect(data.filter((d) => d.required)).toHaveLength(1);
  });

  it('answers 404 for an unknown set, process or legal entity', async () => {
    for (const url of [
      apiPaths.consentSet(10, 'no-such-set'),
      apiPaths.processConsents(10, 'no-such-process'),
      apiPaths.consentSet(99, EDITABLE_BY_CUSTOMER_SET),
      apiPaths.processConsents(99, LOYALTY_PROCESS_ID),
    ]) {
      const res = await get(de, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json<ApiErrorBody>().code).toBe('not_found');
    }
  });

  it('answers 400 for a legal entity id that is not a number, or a language we do not speak', async () => {
    const notANumber = await get(
      de,
      '/api/customer/consents/v1/legal-entities/ten/consents/editable-by-customer',
    );
    expect(notANumber.statusCode).toBe(400);
    expect(notANumber.json<ApiErrorBody>().violations?.[0]?.field).toBe('legalEntityId');
    const swedish = await get(de, `${apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET)}?language=sv`);
    expect(swedish.statusCode).toBe(400);
    expect(swedish.json<ApiErrorBody>().violations?.[0]?.field).toBe('language');
  });

  it('needs a signed-in customer', async () => {
    expect((await get(undefined, apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET))).statusCode).toBe(401);
    expect((await get(undefined, apiPaths.customerConsents(de.uuid))).statusCode).toBe(401);
  });
});

describe("a customer's consents", () => {
  it('lists every consent of the legal entity; without a record it is not granted', async () => {
    const data = await consentsOf(de);
    const definitions = (
      await get(de, apiPaths.consentSet(10, EDITABLE_BY_CUSTOMER_SET))
    ).json<ConsentDefinitionList>();
    expect(data.map((c) => c.slug)).toEqual(definitions.data.map((d) => d.slug));
    expect(data.find((c) => c.slug === OPTIONAL)).toEqual({ slug: OPTIONAL, granted: false });
  });

  it('is granted by PATCH, then shown by GET, and revoked by a second PATCH', async () => {
    const granted = await patch(de, de.uuid, OPTIONAL, { legalEntityId: 10, granted: true });
    expect(granted.statusCode).toBe(200);
    const body = granted.json<CustomerConsent>();
    expect(body).toMatchObject({ slug: OPTIONAL, granted: true, legalEntityId: 10 });
    expect(Date.now() - Date.parse(body.updatedAt!)).toBeLessThan(60_000);
    expect((await consentsOf(de)).find((c) => c.slug === OPTIONAL)).toEqual(body);

    const revoked = await patch(de, de.uuid, OPTIONAL, { legalEntityId: 10, granted: false });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<CustomerConsent>()).toMatchObject({
      slug: OPTIONAL,
      granted: false,
      legalEntityId: 10,
    });
    expect((await consentsOf(de)).find((c) => c.slug === OPTIONAL)?.granted).toBe(false);
  });

  it('joins and leaves the loyalty programme through the core consent', async () => {
    const nl = await sessionOf('demo.nl@example.com');
    expect((await consentsOf(nl)).find((c) => c.slug === LOYALTY_CORE_CONSENT)).toEqual({
      slug: LOYALTY_CORE_CONSENT,
      granted: false,
    });
    expect(
      (await patch(nl, nl.uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 1, granted: true })).statusCode,
    ).toBe(200);
    expect(await isLoyaltyMember(t.db, nl.uuid)).toBe(true);
    expect(
      (await patch(nl, nl.uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 1, granted: false })).statusCode,
    ).toBe(200);
    expect(await isLoyaltyMember(t.db, nl.uuid)).toBe(false);
  });

  it("refuses another customer's uuid with 403, on GET and PATCH, changing nothing", async () => {
    const read = await get(de, apiPaths.customerConsents(fr.uuid));
    expect(read.statusCode).toBe(403);
    expect(read.json<ApiErrorBody>().code).toBe('forbidden');
    const write = await patch(de, fr.uuid, OPTIONAL, { legalEntityId: 3, granted: true });
    expect(write.statusCode).toBe(403);
    expect((await consentsOf(fr)).find((c) => c.slug === OPTIONAL)?.granted).toBe(false);
  });

  it('refuses a uuid that is not one with 400', async () => {
    for (const res of [
      await get(de, apiPaths.customerConsents('not-a-uuid')),
      await patch(de, 'not-a-uuid', OPTIONAL, { legalEntityId: 10, granted: true }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().violations?.[0]?.field).toBe('uuid');
    }
  });

  it.each([
    ['another legal entity', { legalEntityId: 2, granted: true }, 'legalEntityId', 'match'],
    ['an extra field', { legalEntityId: 10, granted: true, slug: 'x' }, 'slug', 'unknownField'],
    ['granted that is not a boolean', { legalEntityId: 10, granted: 'yes' }, 'granted', 'type'],
    ['a missing field', { legalEntityId: 10 }, 'granted', 'required'],
    ['a legal entity id that is text', { legalEntityId: '10', granted: true }, 'legalEntityId', 'type'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_what, payload, field, rule) => {
    const res = await patch(de, de.uuid, OPTIONAL, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations).toContainEqual(expect.objectContaining({ field, rule }));
    expect((await consentsOf(de)).find((c) => c.slug === OPTIONAL)?.granted).toBe(false);
  });

  it('refuses a body that tries prototype pollution with 400', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: apiPaths.customerConsent(de.uuid, OPTIONAL),
      headers: {
        authorization: `Bearer ${de.token}`,
        [CSRF_HEADER]: de.csrf,
        'content-type': 'application/json',
      },
      payload: '{"__proto__":{"granted":true},"legalEntityId":10,"granted":true}',
    });
    expect(res.statusCode).toBe(400);
    expect((await consentsOf(de)).find((c) => c.slug === OPTIONAL)?.granted).toBe(false);
  });

  it('answers 404 for a consent not defined in the customer’s legal entity', async () => {
    const unknown = await patch(de, de.uuid, 'no-such-consent', { legalEntityId: 10, granted: true });
    expect(unknown.statusCode).toBe(404);
    const elsewhere = await patch(fr, fr.uuid, NOT_IN_FRANCE, { legalEntityId: 3, granted: true });
    expect(elsewhere.statusCode).toBe(404);
    expect((await consentsOf(fr)).map((c) => c.slug)).not.toContain(NOT_IN_FRANCE);
  });

  it('refuses a PATCH without the right anti-forgery token with 403', async () => {
    const missing = await patch(de, de.uuid, OPTIONAL, { legalEntityId: 10, granted: true }, {});
    expect(missing.statusCode).toBe(403);
    expect(missing.json<ApiErrorBody>().code).toBe('csrf_invalid');
    const foreign = await patch(
      de,
      de.uuid,
      OPTIONAL,
      { legalEntityId: 10, granted: true },
      { [CSRF_HEADER]: fr.csrf },
    );
    expect(foreign.statusCode).toBe(403);
    expect((await consentsOf(de)).find((c) => c.slug === OPTIONAL)?.granted).toBe(false);
  });
});
