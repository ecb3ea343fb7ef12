import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type LoginStatus,
  type PersonalDataResponse,
  type Violation,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { loadTranslations, type TranslationSet } from '../content/index.js';
import { accountRulesOf } from './account-rules-content.js';
import { ruleText } from './account-texts.js';
import { DEMO_PASSWORD } from '../customers/index.js';

// Calls straight to the API, as a script or another app would make them: what is stored, and what a
// refusal says (the rule's name and its text in the customer's language, whatever refused it).

const contentDir = path.resolve(import.meta.dirname, '../../../../../content');
let translations: TranslationSet;

interface Session {
  authorization: string;
  csrf: string;
}

async function sessionOf(app: TestApp['app'], email: string): Promise<Session> {
  const { accessToken } = await signIn(app, { email, password: DEMO_PASSWORD });
  const authorization = `Bearer ${accessToken}`;
  const status = await app.inject({ url: apiPaths.loginStatus, headers: { authorization } });
  return { authorization, csrf: status.headers[CSRF_HEADER.toLowerCase()] as string };
}

const send = (app: TestApp['app'], s: Session, method: 'PUT' | 'POST', payload: unknown) =>
  app.inject({
    method,
    url: apiPaths.personalData,
    headers: {
      authorization: s.authorization,
      [CSRF_HEADER]: s.csrf,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });
const profileOf = async (app: TestApp['app'], s: Session) =>
  (
    await app.inject({ url: apiPaths.personalData, headers: { authorization: s.authorization } })
  ).json<PersonalDataResponse>();

/** The parameter of a served rule (the tests follow the content, whatever it says). */
const served = (meta: PersonalDataResponse['meta'], attribute: string, validator: string) =>
  meta.metaDataList.find((r) => r.attribute === attribute && r.validator === validator)!.parameter;

/** The violations a customer of `language` must read: the rules' own texts, not English schema text. */
const expected = (language: string, violations: { field: string; rule: string; parameter?: string }[]) =>
  violations.map(({ field, rule, parameter = 'true' }) => ({
    field,
    rule,
    message: ruleText(translations, language, { field, rule, parameter }),
  }));

let t: TestApp;
beforeAll(async () => {
  translations = await loadTranslations(contentDir);
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
});
afterAll(() => t.close());

describe('what is stored', () => {
  it('an Italian fiscal code sent in lower case is checked and stored in capitals', async () => {
    const s = await sessionOf(t.app, 'demo.it@example.com');
    const res = await send(t.app, s, 'POST', { fiscalCode: 'rssgli90c55f205t' });
    expect(res.statusCode).toBe(200);
    expect(res.json<PersonalDataResponse>().body.PersonalDataRTO.fiscalCode).toBe('RSSGLI90C55F205T');
    expect((await profileOf(t.app, s)).body.PersonalDataRTO.fiscalCode).toBe('RSSGLI90C55F205T');
  });

  it('a Spanish DNI needs its check letter (12345678A is refused in Spanish, 12345678z stored as 12345678Z)', async () => {
    const s = await sessionOf(t.app, 'demo.es@example.com');
    const { meta } = await profileOf(t.app, s);
    expect(meta.metaDataList).toContainEqual({
      attribute: 'passportId',
      validator: 'dniNie',
      parameter: 'true',
    });

    const refused = await send(t.app, s, 'POST', { passportId: '12345678A' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiErrorBody>().violations).toEqual([
      { field: 'passportId', rule: 'dniNie', message: translations.es['rules-dniNie'] },
    ]);
    const nie = await send(t.app, s, 'POST', { passportId: 'X1234567A' });
    expect(nie.json<ApiErrorBody>().violations?.map((v) => v.rule)).toEqual(['dniNie']);

    const stored = await send(t.app, s, 'POST', { passportId: '12345678z' });
    expect(stored.statusCode).toBe(200);
    expect((await profileOf(t.app, s)).body.PersonalDataRTO.passportId).toBe('12345678Z');
  });
});

describe('a body the schema refuses reads like every other refusal, in the customer’s language', () => {
  // Spanish and Italian customers; each call is refused, so nothing changes.
  const customers = [
    { email: 'demo.es@example.com', language: 'es_ES', lang: 'es' },
    { email: 'demo.it@example.com', language: 'it_IT', lang: 'it' },
  ] as const;

  it.each(customers)('$lang: an unknown salutation, a 300-letter name, a number for a name', async (c) => {
    const s = await sessionOf(t.app, c.email);
    const before = await profileOf(t.app, s);
    expect(before.body.PersonalDataRTO.language).toBe(c.language);
    const rule = (attribute: string, validator: string) => served(before.meta, attribute, validator);
    const sent = {
      salutation: 'MX',
      firstName: 'A'.repeat(300),
      lastName: 42,
      middleName: 'B'.repeat(300),
    };
    for (const [method, body] of [
      ['POST', sent],
      ['PUT', { ...before.body.PersonalDataRTO, ...sent }],
    ] as const) {
      const res = await send(t.app, s, method, body);
      expect(res.statusCode, method).toBe(400);
      const answer = res.json<ApiErrorBody>();
      expect(answer.message, method).toBe('Some fields do not meet the rules');
      expect(answer.violations, method).toEqual(
        expect.arrayContaining(
          expected(c.language, [
            { field: 'salutation', rule: 'listMatch', parameter: rule('salutation', 'listMatch') },
            // The served rule (1 to 100), not the schema's 255: what the app says too.
            { field: 'firstName', rule: 'rangelength', parameter: rule('firstName', 'rangelength') },
            { field: 'middleName', rule: 'rangelength', parameter: rule('middleName', 'rangelength') },
            { field: 'lastName', rule: 'type' },
          ]),
        ),
      );
      expect(answer.violations, method).toHaveLength(4);
    }
    expect((await profileOf(t.app, s)).body).toEqual(before.body);
  });

  it.each(customers)(
    '$lang: an unknown field, a missing one, an empty change, a body that is no object',
    async (c) => {
      const s = await sessionOf(t.app, c.email);
      const { body: current, meta } = await profileOf(t.app, s);
      const profile = current.PersonalDataRTO;
      const rule = (attribute: string, validator: string) => served(meta, attribute, validator);
      const { birthPlace: _left, ...withoutBirthPlace } = profile;
      const cases: [
        string,
        'PUT' | 'POST',
        unknown,
        { field: string; rule: string; parameter?: string }[],
      ][] = [
        [
          'unknown field',
          'POST',
          { lastName: profile.lastName, isAdmin: true },
          [{ field: 'isAdmin', rule: 'unknownField' }],
        ],
        ['missing field', 'PUT', withoutBirthPlace, [{ field: 'birthPlace', rule: 'required' }]],
        ['empty change', 'POST', {}, [{ field: 'body', rule: 'minProperties', parameter: '1' }]],
        ['no object', 'PUT', ['HERR'], [{ field: 'body', rule: 'type', parameter: 'object' }]],
        [
          'a salutation too long for any list',
          'POST',
          { salutation: 'S'.repeat(40) },
          [{ field: 'salutation', rule: 'listMatch', parameter: rule('salutation', 'listMatch') }],
        ],
        [
          'a fiscal code too long for its column',
          'POST',
          { birthPlace: 'x'.repeat(101), fiscalCode: 'y'.repeat(40) },
          [
            { field: 'birthPlace', rule: 'rangelength', parameter: rule('birthPlace', 'rangelength') },
            ...(c.lang === 'it'
              ? [
                  { field: 'fiscalCode', rule: 'rangelength', parameter: rule('fiscalCode', 'rangelength') },
                  { field: 'fiscalCode', rule: 'fiscalCode' },
                ]
              : // Invisible in Spain: only the schema's limit speaks for it.
                [{ field: 'fiscalCode', rule: 'rangelength', parameter: '0:32' }]),
          ],
        ],
      ];
      for (const [label, method, body, violations] of cases) {
        const res = await send(t.app, s, method, body);
        expect(res.statusCode, label).toBe(400);
        const got = res.json<ApiErrorBody>().violations ?? [];
        expect(sorted(got), label).toEqual(sorted(expected(c.language, violations)));
        // Not the English text of the same rules.
        const english = expected('en_GB', violations);
        for (const [i, v] of sorted(got).entries())
          expect(v.message, `${label}: ${v.field} ${v.rule}`).not.toBe(sorted(english)[i]!.message);
      }
    },
  );
});

const sorted = (list: Violation[]) =>
  [...list].sort((a, b) => `${a.field}${a.rule}`.localeCompare(`${b.field}${b.rule}`));

describe('the salutations are the served rules’ (content), nowhere else', () => {
  let dir: string;
  let other: TestApp;
  beforeAll(async () => {
    // The same content, with a third salutation for Germany and none of the men's.
    dir = await mkdtemp(path.join(tmpdir(), 'roadpass-content-'));
    await cp(contentDir, dir, { recursive: true });
    const file = path.join(dir, 'account-rules', 'v1.json');
    const rules = JSON.parse(await readFile(file, 'utf8')) as {
      legalEntities: Record<
        string,
        { entity: { attribute: string; validator: string; parameter: string }[] }
      >;
    };
    for (const rule of rules.legalEntities.DE!.entity)
      if (rule.attribute === 'salutation' && rule.validator === 'listMatch') rule.parameter = 'FRAU|DIVERS';
    await writeFile(file, JSON.stringify(rules));
    other = await createTestApp({ contentDir: dir, rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
  });
  afterAll(async () => {
    await other?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a salutation the rules add is stored and shown; one they leave out is refused by listMatch', async () => {
    const s = await sessionOf(other.app, 'demo.de@example.com');
    const saved = await send(other.app, s, 'POST', { salutation: 'DIVERS' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<PersonalDataResponse>().body.PersonalDataRTO.salutation).toBe('DIVERS');
    const status = await other.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: s.authorization },
    });
    expect(status.json<LoginStatus>().user.salutation).toBe('DIVERS');

    const refused = await send(other.app, s, 'POST', { salutation: 'HERR' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiErrorBody>().violations).toEqual(
      expected('de_DE', [{ field: 'salutation', rule: 'listMatch', parameter: 'FRAU|DIVERS' }]),
    );
  });

  it('refuses to start with a salutation that does not fit the field', () => {
    const de = {
      entity: [{ attribute: 'salutation', validator: 'listMatch', parameter: 'FRAU|HERR' }],
      address: [],
    };
    const file = (parameter: string) => ({
      version: 1,
      legalEntities: Object.fromEntries(
        ['NL', 'AT', 'FR', 'DE', 'IT', 'ES', 'HU', 'DK'].map((country) => [
          country,
          country === 'DE'
            ? { ...de, entity: [{ attribute: 'salutation', validator: 'listMatch', parameter }] }
            : de,
        ]),
      ),
      provinces: {},
      password: [],
      mobile: [],
    });
    expect(() => accountRulesOf(file('FRAU|HERR'))).not.toThrow();
    expect(() => accountRulesOf(file('FRAU|HERR|SEHR GEEHRTE DAMEN UND HERREN'))).toThrow(
      /legalEntities\.DE\.entity: salutation "SEHR GEEHRTE DAMEN UND HERREN" is not 1 to 16 characters/,
    );
  });
});
