import { createHmac, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { apiErrorCodes, CSRF_HEADER } from '@roadpass/contracts';
import { getOrCreateSecret, randomSecret } from '../lib/app-secrets.js';
import { ApiError } from '../lib/api-error.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const headerName = CSRF_HEADER.toLowerCase();

/**
 * The anti-forgery token of docs/product/api.md#calls: sent in X-CSRF-TOKEN on every GET under /api of a signed-in
 * customer, required with the same value on every POST, PUT, PATCH and DELETE (403 otherwise).
 * It is an HMAC of the customer and session, so every instance can check it without shared state.
 */
export default fp(
  async (app) => {
    const key = await getOrCreateSecret(app.db, 'anti-forgery-key', () => randomSecret());
    const tokenFor = (customerId: string, sessionId = '') =>
      createHmac('sha256', key).update(`${customerId}.${sessionId}`).digest('base64url');
    // A verified token's identity is one object for all its requests: its HMAC is computed once.
    const tokens = new WeakMap<object, string>();
    const tokenOf = (customer: { customerId: string; sessionId: string | undefined }) => {
      let token = tokens.get(customer);
      if (token === undefined) {
        token = tokenFor(customer.customerId, customer.sessionId);
        tokens.set(customer, token);
      }
      return token;
    };

    // A callback hook, not an async one: no promise per request for a check that never waits.
    app.addHook('onRequest', (request, reply, done) => {
      const customer = request.customer;
      if (!customer) return done();
      const expected = tokenOf(customer);
      if (request.method === 'GET' || request.method === 'HEAD') {
        reply.header(CSRF_HEADER, expected);
        return done();
      }
      if (!UNSAFE.has(request.method)) return done();
      const sent = request.headers[headerName];
      // Compared as bytes: a header of the right length in characters may be longer in bytes (a
      // Latin-1 character is two in UTF-8), and timingSafeEqual throws on unequal lengths.
      const sentBytes = typeof sent === 'string' ? Buffer.from(sent) : undefined;
      const expectedBytes = Buffer.from(expected);
      const ok =
        sentBytes !== undefined &&
        sentBytes.length === expectedBytes.length &&
        timingSafeEqual(sentBytes, expectedBytes);
      if (ok) return done();
      done(
        new ApiError(403, apiErrorCodes.csrfInvalid, `The ${CSRF_HEADER} header is missing or wrong`, [
          {
            field: CSRF_HEADER,
            rule: sent ? 'match' : 'required',
            message: `Send the ${CSRF_HEADER} value of the last GET response`,
          },
        ]),
      );
    });
  },
  { name: 'anti-forgery', dependencies: ['database', 'customer-auth'] },
);
