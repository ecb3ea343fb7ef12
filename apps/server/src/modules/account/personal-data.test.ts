import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressFields,
  apiPaths,
  changedReadonlyFields,
  checkValues,
  compileRules,
  countryCodes,
  CSRF_HEADER,
  customValidators,
  type ApiErrorBody,
  type LoginStatus,
  type MetaResponse,
  type PersonalDataResponse,
  type PersonalDataRTO,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { ruleCases } from './rule-cases.js';
import { DEMO_PASSWORD } from '../customers/index.js';

interface Session {
  token: string;
  csrf: string;
  uuid: string;
}

let t: TestApp;
const sessions = new Map<string, Session>();

async function sessionOf(cc: string): Promise<Session> {
  const known = sessions.get(cc);
  if (known) return known;
  const { accessToken: token } = await signIn(t.app, {
    email: `demo.${cc}@example.com`,
    password: DEMO_PASSWORD,
  });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${token}` },
  });
  const session = {
    token,
    uuid: status.json<LoginStatus>().user.uuid,
    csrf: status.headers[CSRF_HEADER.toLowerCase()] as string,
  };
  sessions.set(cc, session);
  return session;
}

beforeAll(async () => {
  // Hundreds of generated requests per customer: no rate limits in this test (0 = off).
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
});
afterAll(() => t.close());

const get = (s: Session, url: string) =>
  t.app.inject({ url, headers: { authorization: `Bearer ${s.token}` } });
const send = (s: Session, method: 'PUT' | 'POST', payload: unknown, csrf: string | undefined = s.csrf) =>
  t.app.inject({
    method,
    url: apiPaths.personalData,
    headers: { authorization: `Bearer ${s.token}`, ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
    payload: payload as object,
  });
const profileOf = async (s: Session) => (await get(s, apiPaths.personalData)).json<PersonalDataResponse>();
const RULES_MESSAGE = 'Some fields do not meet the rules';
const pairs = (list: { field: string; rule: string }[]) => list.map((v) => `${v.field}:${v.rule}`).sort();

describe('personal data of every demo customer', () => {
  it.each(countryCodes.map((c) => c.toLowerCase()))(
    'demo.%s has a profile that passes its served rules',
    async (cc) => {
      const s = await sessionOf(cc);
      const res = await get(s, apiPaths.personalData);
      expect(res.statusCode).toBe(200);
      const { body, meta } = res.json<PersonalDataResponse>();
      expect(body.PersonalDataRTO.email).toBe(`demo.${cc}@example.com`);
      expect(body.PersonalDataRTO.addressStreet).toBeTruthy();
      expect(meta.metaDataList.length).toBeGreaterThan(10);
      expect(
        checkValues(compileRules(meta.metaDataList), body.PersonalDataRTO, { customValidators }),
      ).toEqual([]);
    },
  );

  it('demo.it has a fiscal code with its check character; demo.es a province and a post code that starts with it', async () => {
    const it = (await profileOf(await sessionOf('it'))).body.PersonalDataRTO;
    expect(it.fiscalCode).toBe('RSSGLI90C55F205T');
    const es = await profileOf(await sessionOf('es'));
    expect(es.body.PersonalDataRTO.addressProvinceIsoCode).toBe('28');
    expect(es.body.PersonalDataRTO.addressZipCode?.startsWith('28')).toBe(true);
    expect(es.meta.metaDataList).toContainEqual({
      attribute: 'addressZipCode',
      validator: 'zipPrefix',
      parameter: '28',
    });
  });
});

describe('every served rule, at and across its boundaries (generated from the rules)', () => {
  const phones = ['+4915123456789', '+393331234567', '+34612345678', '+36301234567', '+4520123456'];
  it.each(countryCodes.map((c) => c.toLowerCase()))(
    'demo.%s: the server and the contracts interpreter agree',
    async (cc) => {
      const s = await sessionOf(cc);
      const start = await profileOf(s);
      const baseline = start.body.PersonalDataRTO;
      const cases = ruleCases(start.meta.metaDataList, baseline, new Date(), phones);
      expect(cases.length).toBeGreaterThan(30);
      /** Rules with 'some' cases → whether one of them was refused for that rule. */
      const someBroken = new Map<string, boolean>();
      for (const c of cases) {
        const sent = { ...baseline, [c.field]: c.value } as PersonalDataRTO;
        const label = `${cc} ${c.label}`;
        const res = await send(s, 'PUT', sent);
        expect(res.statusCode, label).toBeLessThan(500);
        const violations = res.statusCode === 200 ? [] : (res.json<ApiErrorBody>().violations ?? []);
        const byRules = res.statusCode === 200 || res.json<ApiErrorBody>().message === RULES_MESSAGE;
        // The case's own rule: broken exactly when the generator says so.
        if (c.broken === 'some') {
          const key = `${c.field} ${c.rule}`;
          someBroken.set(
            key,
            (someBroken.get(key) ?? false) || pairs(violations).includes(`${c.field}:${c.rule}`),
          );
        } else if (c.broken) {
          expect(res.statusCode, label).toBe(400);
          expect(
            violations.map((v) => (byRules ? `${v.field}:${v.rule}` : v.field)),
            label,
          ).toContain(byRules ? `${c.field}:${c.rule}` : c.field);
        } else {
          expect(pairs(violations), label).not.toContain(`${c.field}:${c.rule}`);
        }
        // The app's answer with the same served rules and the same interpreter (same address country
        // and province: otherwise the app first loads the other rules, checked below by meta).
        const sameRules =
          sent.addressCountryIsoCode === baseline.addressCountryIsoCode &&
          sent.addressProvinceIsoCode === baseline.addressProvinceIsoCode;
        if (byRules && sameRules) {
          const compiled = compileRules(start.meta.metaDataList);
          const app = [
            ...changedReadonlyFields(compiled, baseline, sent),
            ...checkValues(compiled, sent, { customValidators }),
          ];
          expect(pairs(violations), label).toEqual(pairs(app.map((v) => ({ field: v.field, rule: v.rule }))));
        }
        if (res.statusCode === 200) {
          const after = res.json<PersonalDataResponse>().body.PersonalDataRTO;
          if (c.rule === 'invisible')
            expect(after[c.field as keyof PersonalDataRTO], label).toBe(
              baseline[c.field as keyof PersonalDataRTO],
            );
          expect((await send(s, 'PUT', baseline)).statusCode, label).toBe(200);
        } else {
          // Nothing stored on a 400.
          expect((await profileOf(s)).body.PersonalDataRTO, label).toEqual(baseline);
        }
      }
    },
  );
});

describe('rules per country and province', () => {
  it('answers each of our countries, each Spanish province, and 404 for any other', async () => {
    const s = await sessionOf('de');
    for (const country of countryCodes) {
      const res = await get(s, apiPaths.personalDataMeta(country));
      expect(res.statusCode, country).toBe(200);
      const list = res.json<MetaResponse>().meta.metaDataList;
      expect(
        list.some((r) => r.attribute === 'addressZipCode' && r.validator === 'pattern'),
        country,
      ).toBe(true);
      const fiscal = compileRules(list).fiscalCode!;
      expect(fiscal.invisible, country).toBe(country !== 'IT');
    }
    const provinces = compileRules(
      (await get(s, apiPaths.personalDataMeta('ES'))).json<MetaResponse>().meta.metaDataList,
    ).addressProvinceIsoCode!.patterns[0]!.parameter.split('|');
    expect(provinces).toHaveLength(52);
    for (const province of provinces) {
      const list = (await get(s, apiPaths.personalDataMeta('ES', province))).json<MetaResponse>().meta
        .metaDataList;
      expect(list).toContainEqual({
        attribute: 'addressZipCode',
        validator: 'zipPrefix',
        parameter: province,
      });
    }
    for (const url of [
      apiPaths.personalDataMeta('SE'),
      apiPaths.personalDataMeta('ES', '99'),
      apiPaths.personalDataMeta('DE', '28'),
    ]) {
      const res = await get(s, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json<ApiErrorBody>().code).toBe('not_found');
    }
  });

  it('takes a Spanish province whose post code starts with its two digits, and refuses another (generated from meta/ES/{province})', async () => {
    const s = await sessionOf('es');
    const baseline = (await profileOf(s)).body.PersonalDataRTO;
    const provinces = ['01', '08', '28', '41', '52'];
    for (const province of provinces) {
      const rule = (await get(s, apiPaths.personalDataMeta('ES', province)))
        .json<MetaResponse>()
        .meta.metaDataList.find((r) => r.validator === 'zipPrefix')!;
      const ok = await send(s, 'POST', {
        addressProvinceIsoCode: province,
        addressZipCode: `${rule.parameter}001`,
      });
      expect(ok.statusCode, province).toBe(200);
      const other = provinces.find((p) => p !== province)!;
      const refused = await send(s, 'POST', {
        addressProvinceIsoCode: province,
        addressZipCode: `${other}001`,
      });
      expect(refused.statusCode, province).toBe(400);
      expect(pairs(refused.json<ApiErrorBody>().violations!)).toEqual(['addressZipCode:zipPrefix']);
    }
    expect((await send(s, 'PUT', baseline)).statusCode).toBe(200);
  });
});

describe('HU: the address is read-only, the rest editable', () => {
  it('refuses any change to an address field with a 400 naming it, and stores nothing', async () => {
    const s = await sessionOf('hu');
    const { body, meta } = await profileOf(s);
    const rules = compileRules(meta.metaDataList);
    const address = addressFields;
    // Read-only, or not used at all in HU (no provinces).
    for (const field of address) expect(rules[field]?.readonly || rules[field]?.invisible, field).toBe(true);
    const res = await send(s, 'POST', {
      addressCity: 'Debrecen',
      addressZipCode: '4025',
      firstName: 'Bálint',
    });
    expect(res.statusCode).toBe(400);
    expect(pairs(res.json<ApiErrorBody>().violations!)).toEqual([
      'addressCity:readonly',
      'addressZipCode:readonly',
    ]);
    expect((await profileOf(s)).body.PersonalDataRTO).toEqual(body.PersonalDataRTO);
    const renamed = await send(s, 'POST', {
      firstName: 'Bálint',
      addressCity: body.PersonalDataRTO.addressCity,
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<PersonalDataResponse>().body.PersonalDataRTO.firstName).toBe('Bálint');
    await send(s, 'POST', { firstName: body.PersonalDataRTO.firstName });
  });
});

describe('saving personal data', () => {
  it('POST changes only what it is sent (the language switch) and answers the whole profile', async () => {
    const s = await sessionOf('fr');
    const res = await send(s, 'POST', { language: 'en_FR' });
    expect(res.statusCode).toBe(200);
    const body = res.json<PersonalDataResponse>();
    expect(body.body.PersonalDataRTO).toMatchObject({ language: 'en_FR', lastName: 'Martin' });
    const refused = await send(s, 'POST', { language: 'de_FR' });
    expect(refused.statusCode).toBe(400);
    expect(pairs(refused.json<ApiErrorBody>().violations!)).toEqual(['language:listMatch']);
    expect((await profileOf(s)).body.PersonalDataRTO.language).toBe('en_FR');
    await send(s, 'POST', { language: 'fr_FR' });
  });

  it('a new e-mail waits for its confirmation: the address stays, pendingEmail shows the new one', async () => {
    const s = await sessionOf('nl');
    const res = await send(s, 'POST', { email: 'noor.new@example.com' });
    expect(res.statusCode).toBe(200);
    const body = res.json<PersonalDataResponse>().body;
    expect(body.PersonalDataRTO.email).toBe('demo.nl@example.com');
    expect(body.pendingEmail).toBe('noor.new@example.com');
    // Saving the whole profile (with the current address) leaves the change waiting.
    const full = await send(s, 'PUT', { ...body.PersonalDataRTO, lastName: 'Visser' });
    expect(full.statusCode).toBe(200);
    expect(full.json<PersonalDataResponse>().body.pendingEmail).toBe('noor.new@example.com');
    await send(s, 'POST', { lastName: 'de Vries' });
    // An address another account uses is answered like a free one (issue 17, email-change.test.ts).
    const taken = await send(s, 'POST', { email: 'demo.de@example.com' });
    expect(taken.statusCode).toBe(200);
    expect(taken.json<PersonalDataResponse>().body.pendingEmail).toBe('demo.de@example.com');
    await send(s, 'POST', { email: 'demo.nl@example.com' });
    expect((await profileOf(s)).body.pendingEmail).toBeNull();
  });

  it('refuses unknown fields, a missing anti-forgery token and no bearer; nothing changes', async () => {
    const s = await sessionOf('at');
    const before = (await profileOf(s)).body.PersonalDataRTO;
    expect((await send(s, 'POST', { lastName: 'Huber', isAdmin: true })).statusCode).toBe(400);
    expect((await send(s, 'POST', { lastName: 'Huber' }, 'wrong')).statusCode).toBe(403);
    expect((await send(s, 'PUT', { ...before, lastName: 'Huber' }, '')).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      payload: { lastName: 'Huber' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await profileOf(s)).body.PersonalDataRTO).toEqual(before);
  });

  it('keeps each customer to their own profile: the token decides whose data is read and written', async () => {
    const de = await sessionOf('de');
    const at = await sessionOf('at');
    expect((await profileOf(de)).body.PersonalDataRTO.email).toBe('demo.de@example.com');
    // Another customer's anti-forgery token is refused.
    expect((await send(de, 'POST', { lastName: 'X' }, at.csrf)).statusCode).toBe(403);
    expect((await profileOf(de)).body.PersonalDataRTO.lastName).toBe('Demo');
  });
});
