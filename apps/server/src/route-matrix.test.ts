import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  LOYALTY_CORE_CONSENT,
  LOYALTY_PROCESS_ID,
  type NewsletterLogResponse,
  type Passkey,
  type PasskeyRegistrationOptions,
} from '@roadpass/contracts';
import {
  documentedOperations,
  type DocumentedOperation,
  type JsonSchema,
} from './testing/openapi-operations.js';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { signIn } from './testing/sign-in.js';
import { createSoftAuthenticator } from './testing/soft-authenticator.js';

// Issue 10, the project's own checks: an IDOR matrix (another customer's id in every per-customer
// path, every method) and an anti-forgery matrix (every signed-in mutation without, with a wrong and
// with another customer's token), both generated from the server's OpenAPI document, so that a new
// endpoint is covered the day it is added.

interface Customer {
  uuid: string;
  legalEntityId: number;
  token: string;
  csrf: string;
  /** The id of the customer's newsletter agreement (the {id} of the newsletter paths). */
  newsletterId: string;
  /** Another session of the customer (the {sessionId} of the sessions paths). */
  otherSessionId: string;
  /** One of the customer's passkeys (the {passkeyId} of the passkey paths). */
  passkeyId: string;
}

/** A real WebAuthn registration (software authenticator): the body of a passkey POST. */
async function passkeyRegistration(owner: { token: string; csrf: string }) {
  const headers = { authorization: `Bearer ${owner.token}`, [CSRF_HEADER]: owner.csrf };
  const options = await t.app.inject({ method: 'POST', url: apiPaths.passkeyRegistrationOptions, headers });
  const key = createSoftAuthenticator({
    origin: t.config.publicUrl,
    rpId: new URL(t.config.publicUrl).hostname,
  });
  return { credential: key.register(options.json<PasskeyRegistrationOptions>()) };
}

/** Adds a passkey to the customer through the API; its id. */
async function addPasskey(owner: { token: string; csrf: string }): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: apiPaths.passkeys,
    headers: {
      authorization: `Bearer ${owner.token}`,
      [CSRF_HEADER]: owner.csrf,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(await passkeyRegistration(owner)),
  });
  return res.json<Passkey>().id;
}

let t: TestApp;
let operations: DocumentedOperation[];
let alice: Customer;
let bob: Customer;

async function customer(email: string): Promise<Customer> {
  const { accessToken } = await signIn(t.app, { email, password: 'Demo-2026!' });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const { user } = status.json<{ user: { uuid: string; legalEntityId: number } }>();
  const newsletter = await t.app.inject({
    url: apiPaths.newsletterLog,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const other = await signIn(t.app, { email, password: 'Demo-2026!' });
  const csrf = status.headers[CSRF_HEADER.toLowerCase()] as string;
  return {
    otherSessionId: JSON.parse(Buffer.from(other.accessToken.split('.')[1]!, 'base64url').toString()).sid,
    newsletterId: newsletter.json<NewsletterLogResponse>().body.NewsletterLogRTO.id,
    passkeyId: await addPasskey({ token: accessToken, csrf }),
    uuid: user.uuid,
    legalEntityId: user.legalEntityId,
    token: accessToken,
    csrf,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  operations = documentedOperations(t.app);
  // Alice is a royal gold member (partner codes unlocked), Bob another member.
  alice = await customer('demo.de@example.com');
  bob = await customer('demo.dk@example.com');
});
afterAll(() => t?.close());

/** A plausible value for a path parameter, from its name and the segment before it. */
function paramValue(path: string, name: string, owner: Customer): string {
  const before = path.slice(0, path.indexOf(`{${name}}`));
  if (name === 'uuid') return owner.uuid;
  if (name === 'sessionId') return owner.otherSessionId;
  if (name === 'id' && before.includes('/newsletter/')) return owner.newsletterId;
  if (name === 'passkeyId') return owner.passkeyId;
  if (name === 'slug' && before.endsWith('/consents/')) return LOYALTY_CORE_CONSENT;
  if (name === 'slug' && before.endsWith('/partner-code/')) return 'cinenova-cinema';
  if (name === 'slug') return 'loyalty-programme-faq';
  if (name === 'legalEntityId') return String(owner.legalEntityId);
  // Personal data rules: a country with provinces, and one of them.
  if (name === 'country') return 'ES';
  if (name === 'province') return '28';
  if (name === 'set') return 'editable-by-customer';
  if (name === 'process') return LOYALTY_PROCESS_ID;
  if (name === 'locale') return 'de-DE';
  if (name === 'collection') return 'loyalty-program';
  throw new Error(`No sample value for path parameter {${name}} of ${path}: add one to the matrix`);
}

/** Fields whose valid values a schema cannot tell (a pattern, or the caller's own data). */
const fieldSamples = (owner: Customer): Record<string, unknown> => ({
  legalEntityId: owner.legalEntityId,
  language: 'de_DE',
});

/** A valid body for a JSON schema (required fields only), with the caller's legal entity. */
function sampleBody(schema: JsonSchema | undefined, owner: Customer): unknown {
  if (!schema) return undefined;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleBody(schema.anyOf[0], owner);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    // A partial body (nothing required but at least one field): the fields we have samples for.
    const keys = schema.required?.length
      ? schema.required
      : schema.minProperties
        ? Object.keys(schema.properties ?? {}).filter((key) => key in fieldSamples(owner))
        : [];
    return Object.fromEntries(
      keys.map((key) => [
        key,
        key in fieldSamples(owner) ? fieldSamples(owner)[key] : sampleBody(schema.properties?.[key], owner),
      ]),
    );
  }
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'array') return [];
  return 'x';
}

function request(
  op: DocumentedOperation,
  caller: Customer,
  pathOwner: Customer,
  csrf: string | null,
  realBody?: unknown,
): InjectOptions {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(paramValue(op.path, name, pathOwner)),
  );
  const body = realBody ?? sampleBody(op.body, caller);
  return {
    method: op.method as InjectOptions['method'],
    url,
    headers: {
      authorization: `Bearer ${caller.token}`,
      ...(csrf === null ? {} : { [CSRF_HEADER]: csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  };
}

const customerOperations = () =>
  operations.filter((op) => op.security && op.path.startsWith('/api/customer/'));
const isMutation = (op: DocumentedOperation) => op.method !== 'GET' && op.method !== 'HEAD';
/** Paths that name a customer's own record: by uuid, or by the id of their newsletter agreement or passkey. */
const isPerCustomer = (op: DocumentedOperation) =>
  op.path.includes('{uuid}') ||
  op.path.includes('{passkeyId}') ||
  (op.path.includes('/newsletter/') && op.path.includes('{id}'));
/**
 * What another customer's id gets: 403 for the paths of the product's API (docs/product/api.md#calls),
 * 404 for another customer's passkey (docs/product/security.md#passkeys: its existence is not told).
 */
const refusalOf = (op: DocumentedOperation) =>
  op.path.includes('{passkeyId}') ? '404 not_found' : '403 forbidden';

/** Everything a customer can read about themselves, to compare before and after an attack. */
async function snapshot(owner: Customer): Promise<string[]> {
  const reads = customerOperations().filter((op) => !isMutation(op));
  return Promise.all(
    reads.map(async (op) => {
      const res = await t.app.inject(request(op, owner, owner, owner.csrf));
      // A session's last-active time moves with any call of it (these reads too, once a minute, written
      // within a second): not data a refused call could have changed. It failed the matrix once a file
      // ran past a minute after its sign-in.
      return `${op.path} ${res.statusCode} ${res.body.replace(/"lastActiveAt":"[^"]*"/g, '"lastActiveAt":"…"')}`;
    }),
  );
}

describe('IDOR matrix: another customer’s id in every per-customer path', () => {
  it('covers every per-customer operation of the API document', () => {
    const perCustomer = customerOperations().filter(isPerCustomer);
    // Consents (3), tier details, history, partner code GET and POST at least.
    expect(perCustomer.length).toBeGreaterThanOrEqual(6);
  });

  it('answers 403 for every method on every per-customer path, and changes nothing', async () => {
    const before = await snapshot(bob);
    const perCustomer = customerOperations().filter(isPerCustomer);
    const answers = await Promise.all(
      perCustomer.map(async (op) => {
        const res = await t.app.inject(request(op, alice, bob, alice.csrf));
        return `${op.method} ${op.path} → ${res.statusCode} ${res.json<{ code?: string }>().code}`;
      }),
    );
    expect(answers).toEqual(perCustomer.map((op) => `${op.method} ${op.path} → ${refusalOf(op)}`));
    expect(await snapshot(bob)).toEqual(before);
  });
});

describe('anti-forgery matrix: every signed-in mutation', () => {
  const cases: [string, (op: DocumentedOperation) => string | null][] = [
    ['without the token', () => null],
    ['with a wrong token', () => 'not-the-token'],
    ['with another customer’s token', () => bob.csrf],
  ];

  it('covers every signed-in mutation of the API document', () => {
    expect(customerOperations().filter(isMutation).length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('refuses each %s with 403 csrf_invalid, and changes nothing', async (_what, csrfOf) => {
    const before = await snapshot(alice);
    const mutations = customerOperations().filter(isMutation);
    const answers = await Promise.all(
      mutations.map(async (op) => {
        const res = await t.app.inject(request(op, alice, alice, csrfOf(op)));
        return `${op.method} ${op.path} → ${res.statusCode} ${res.json<{ code?: string }>().code}`;
      }),
    );
    expect(answers).toEqual(mutations.map((op) => `${op.method} ${op.path} → 403 csrf_invalid`));
    expect(await snapshot(alice)).toEqual(before);
  });

  it('lets each mutation through with the right token (the matrix would otherwise prove nothing)', async () => {
    // Ending sessions: the other session first (before the password change ends it), all others and
    // this one last (the logout ends the access token in hand at once, docs/product/security.md#sessions).
    const rank = (op: DocumentedOperation) =>
      op.path.includes('{sessionId}')
        ? -1
        : op.path === apiPaths.logout
          ? 2
          : op.path === apiPaths.sessions
            ? 1
            : 0;
    const mutations = customerOperations()
      .filter(isMutation)
      .sort((a, b) => rank(a) - rank(b));
    for (const op of mutations) {
      // A passkey is added with a real WebAuthn answer, and each passkey call gets a passkey of its own.
      const realBody =
        op.method === 'POST' && op.path === apiPaths.passkeys ? await passkeyRegistration(alice) : undefined;
      if (op.path.includes('{passkeyId}')) alice.passkeyId = await addPasskey(alice);
      const res = await t.app.inject(request(op, alice, alice, alice.csrf, realBody));
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBeLessThan(300);
    }
  });
});
