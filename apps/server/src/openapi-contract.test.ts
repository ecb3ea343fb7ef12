import type { InjectOptions } from 'fastify';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, LOYALTY_CORE_CONSENT, LOYALTY_PROCESS_ID } from '@roadpass/contracts';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { signedInCaller, type Caller } from './testing/sign-in.js';
import { serviceToken } from './testing/service-token.js';
import {
  callerOf,
  documentedOperations,
  sampleOf,
  type DocumentedOperation,
  type JsonSchema,
} from './testing/openapi-operations.js';

// Issue 10 #2: the OpenAPI document says what the server accepts and answers. For every documented
// operation, a request made from the document is answered with a documented status and a body that
// matches the documented schema of that status; a body the document calls optional may be left out
// and one it calls required may not. Generated from the document, so new routes are covered as
// they land.

let t: TestApp;
let operations: DocumentedOperation[];
let member: Caller;
let service: Record<string, string>;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

const customer = (email: string): Promise<Caller> => signedInCaller(t.app, email, 'Demo-2026!');

beforeAll(async () => {
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
  operations = documentedOperations(t.app);
  member = await customer('demo.de@example.com');
  service = { authorization: `Bearer ${await serviceToken(t.app, t.db, t.config)}` };
});
afterAll(() => t?.close());

/** A plausible value for a path or query parameter of an operation, for the signed-in member. */
export function parameterSample(op: DocumentedOperation, name: string, schema?: JsonSchema): string {
  const before = op.path.slice(0, op.path.indexOf(`{${name}}`));
  if (name === 'uuid') return member.uuid;
  if (name === 'slug' && before.endsWith('/consents/')) return LOYALTY_CORE_CONSENT;
  if (name === 'slug' && before.endsWith('/partner-code/')) return 'cinenova-cinema';
  if (name === 'slug') return 'loyalty-programme-faq';
  if (name === 'legalEntityId') return String(member.legalEntityId);
  if (name === 'set') return 'editable-by-customer';
  if (name === 'process') return LOYALTY_PROCESS_ID;
  if (name === 'locale') return 'de-DE';
  if (name === 'collection') return 'loyalty-program';
  if (/country/i.test(name)) return 'DE';
  if (name === 'legalEntity') return 'DE';
  if (name === 'language') return 'de';
  const sample = sampleOf(schema);
  return sample === undefined ? 'x' : String(sample);
}

function documentedRequest(op: DocumentedOperation, withBody: boolean): InjectOptions {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(parameterSample(op, name, op.parameters.find((p) => p.name === name)?.schema)),
  );
  const query = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, parameterSample(op, p.name, p.schema)]),
  );
  const body = withBody
    ? sampleOf(op.body, { legalEntityId: member.legalEntityId, language: 'de_DE' })
    : undefined;
  const caller = callerOf(op);
  return {
    method: op.method as InjectOptions['method'],
    url,
    query,
    headers: {
      ...(caller === 'customer' ? member.headers : caller === 'service' ? service : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  };
}

/** The statuses a route may answer without documenting them: they come from the platform, not the route. */
const platformStatuses = new Set([401, 403, 404, 413, 415, 429]);

function checkAgainstDocument(op: DocumentedOperation, statusCode: number, body: string): string[] {
  const documented = op.responses[String(statusCode)];
  const problems: string[] = [];
  if (!(String(statusCode) in op.responses) && !platformStatuses.has(statusCode))
    problems.push(`${op.method} ${op.path} answered ${statusCode}, which is not documented`);
  if (documented && body !== '') {
    const validate = ajv.compile(documented);
    if (!validate(JSON.parse(body)))
      problems.push(`${op.method} ${op.path} ${statusCode}: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

describe('the OpenAPI document says what the server does', () => {
  it('documents the calls of the API, every one with its responses', () => {
    expect(operations.length).toBeGreaterThanOrEqual(14);
    for (const op of operations) expect(Object.keys(op.responses), `${op.method} ${op.path}`).not.toEqual([]);
  });

  it('answers a request made from the document with a documented status and body', async () => {
    const problems: string[] = [];
    // Signing out ends the access token at once (docs/product/security.md#sessions): it goes last,
    // for another customer, so the member's token serves the tests after this one.
    const endsOwnSession = (op: DocumentedOperation) => op.path === apiPaths.logout;
    const ordered = [...operations.filter((op) => !endsOwnSession(op)), ...operations.filter(endsOwnSession)];
    const kept = member;
    for (const op of ordered) {
      if (endsOwnSession(op)) member = await customer('demo.at@example.com');
      const res = await t.app.inject(documentedRequest(op, op.body !== undefined));
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBeLessThan(500);
      problems.push(...checkAgainstDocument(op, res.statusCode, res.body));
    }
    member = kept;
    expect(problems).toEqual([]);
  });

  it('takes a request without a body exactly where the document calls the body optional', async () => {
    const withBody = operations.filter((op) => op.body !== undefined);
    expect(withBody.length).toBeGreaterThan(0);
    const answers = await Promise.all(
      withBody.map(async (op) => {
        const res = await t.app.inject(documentedRequest(op, false));
        const refusedForBody =
          res.statusCode === 400 &&
          JSON.stringify(res.json<{ violations?: unknown[] }>().violations ?? []).includes('"body');
        return `${op.method} ${op.path} body ${op.bodyRequired ? 'required' : 'optional'}: ${
          res.statusCode === 400 &&
          (refusedForBody || res.json<{ code: string }>().code === 'validation_failed')
            ? 'refused without one'
            : 'taken without one'
        }`;
      }),
    );
    expect(answers).toEqual(
      withBody.map(
        (op) =>
          `${op.method} ${op.path} body ${op.bodyRequired ? 'required' : 'optional'}: ${
            op.bodyRequired ? 'refused without one' : 'taken without one'
          }`,
      ),
    );
  });

  it('documents the partner-code POST of docs/product/api.md#calls with an optional (empty) body', () => {
    const post = operations.find((op) => op.method === 'POST' && op.path.includes('/partner-code/'));
    expect(post?.bodyRequired).toBe(false);
  });
});
