import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { AppConfig } from '../config.js';
import type { CustomerRepository } from '../modules/customers/index.js';
import { bearerChallenge, PROTECTED_RESOURCE_METADATA_PATH } from '../plugins/bearer-challenge.js';
import { customerTokenChallenge, type CustomerTokenCheck } from '../plugins/customer-auth.js';
import { DPOP_ALGORITHMS } from '../plugins/dpop.js';
import {
  iframePage,
  iframeScript,
  sessionStatusPaths,
  step1Page,
  step1Script,
  step2Page,
  step2Script,
} from './keycloak-session-status.js';
import { issuerOf, protocolRoutes, REALM_PATH } from './realm.js';

/**
 * The realm's endpoints a Keycloak client calls that oidc-provider does not answer the way Keycloak
 * does (docs/keycloak-clients.md): UserInfo for the customer's (JWT) access token, the account
 * endpoint, the session-status iframe and the third-party-cookie check, the RFC 8414 metadata address
 * and the customer API's protected-resource metadata (RFC 9728).
 */
export interface KeycloakRouteDependencies {
  config: AppConfig;
  customers: CustomerRepository;
  /** Hands a raw request to the provider as if it had asked for `providerPath` (relative to the realm). */
  forwardToProvider: (req: IncomingMessage, res: ServerResponse, providerPath: string) => void;
}

type Customer = NonNullable<Awaited<ReturnType<CustomerRepository['findById']>>>;

/** The claims Keycloak's UserInfo gives for the scopes of the token (profile, email). */
export function userInfoClaims(customer: Customer, scopes: Set<string>): Record<string, unknown> {
  return {
    sub: customer.id,
    ...(scopes.has('email') ? { email_verified: true } : {}),
    ...(scopes.has('profile')
      ? {
          name: [customer.first_name, customer.middle_name, customer.last_name].filter(Boolean).join(' '),
          preferred_username: customer.email,
          given_name: customer.first_name,
          family_name: customer.last_name,
          locale: customer.language.replace('_', '-'),
        }
      : {}),
    ...(scopes.has('email') ? { email: customer.email } : {}),
  };
}

export async function registerKeycloakRoutes(
  app: FastifyInstance,
  deps: KeycloakRouteDependencies,
): Promise<void> {
  const { config, customers } = deps;
  const issuer = issuerOf(config.publicUrl);
  const appOrigin = new URL(config.publicUrl).origin;

  /** CORS for the app's origin (Keycloak's web origins of the client): keycloak-js calls these by fetch. */
  const allowAppOrigin = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.origin === appOrigin) {
      reply
        .header('access-control-allow-origin', appOrigin)
        .header('vary', 'Origin')
        // The challenge and a DPoP nonce are for the script to read (RFC 9449 §8, §9).
        .header('access-control-expose-headers', 'WWW-Authenticate, DPoP-Nonce');
    }
  };
  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    allowAppOrigin(request, reply);
    return (
      reply
        .header('access-control-allow-methods', 'GET, POST')
        // DPoP: a browser client sends its proof in the DPoP header (RFC 9449 §4.1).
        .header('access-control-allow-headers', 'Authorization, Content-Type, Accept, DPoP')
        .header('access-control-max-age', '3600')
        .status(204)
        .send()
    );
  };

  /**
   * The customer behind an access token of this realm for the customer API (the API's own check,
   * `app.checkCustomerToken`: an ended session's token is refused here too), or a 401 with its
   * challenge.
   */
  async function customerOf(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ customer: Customer; payload: JWTPayload } | undefined> {
    const refuse = (result: CustomerTokenCheck & { ok: false }) => {
      reply.status(401).header('cache-control', 'no-store').headers(customerTokenChallenge(result));
      return undefined;
    };
    // A DPoP-bound token comes with its proof, checked against this request (decision 0044).
    // The session as the database says now: a client asks right after a sign-out on any instance.
    const result = await app.checkCustomerToken(
      request.headers.authorization,
      { method: request.method, url: request.url, proof: request.headers.dpop },
      { sessionFromDatabase: true },
    );
    if (!result.ok) return refuse(result);
    const payload = result.identity.claims;
    const customer = await customers.findById(result.identity.customerId);
    if (!customer)
      return refuse({
        ok: false,
        error: 'invalid_token',
        description: 'The account of the access token no longer exists',
        ...(result.identity.claims.cnf ? { dpop: {} } : {}),
      });
    return { customer, payload };
  }

  const scopesOf = (payload: JWTPayload) =>
    new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);

  // UserInfo (OIDC Core §5.3) for the customer's access token, GET or POST like Keycloak's.
  const userinfoPath = `${REALM_PATH}${protocolRoutes.userinfo}`;
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    allowAppOrigin(request, reply);
    const found = await customerOf(request, reply);
    if (!found) return reply.send({ error: 'invalid_token' });
    const scopes = scopesOf(found.payload);
    if (!scopes.has('openid')) {
      reply.header(
        'www-authenticate',
        bearerChallenge({ error: 'insufficient_scope', description: 'openid scope needed', scope: 'openid' }),
      );
      return reply.status(403).send({ error: 'insufficient_scope' });
    }
    return reply.header('cache-control', 'no-store').send(userInfoClaims(found.customer, scopes));
  };
  app.get(userinfoPath, userinfo);
  app.post(userinfoPath, userinfo);
  app.options(userinfoPath, preflight);

  // The account endpoint: the profile as Keycloak's account REST API gives it to a bearer token; a
  // browser sent here (keycloak-js accountManagement) goes to the app's account home.
  const accountPath = `${REALM_PATH}/account`;
  app.get(accountPath, async (request, reply) => {
    allowAppOrigin(request, reply);
    if (!request.headers.authorization) {
      return reply.header('cache-control', 'no-store').redirect(`${config.publicUrl}/`, 302);
    }
    const found = await customerOf(request, reply);
    if (!found) return reply.send({ error: 'invalid_token' });
    const { customer } = found;
    return reply.header('cache-control', 'no-store').send({
      id: customer.id,
      username: customer.email,
      firstName: customer.first_name,
      lastName: customer.last_name,
      email: customer.email,
      emailVerified: true,
      attributes: { locale: [customer.language.replace('_', '-')] },
    });
  });
  app.options(accountPath, preflight);

  // The session-status iframe and the third-party-cookie check, framed by the app (same origin).
  const html = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);
  const script = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  app.get(sessionStatusPaths.iframe, html(iframePage));
  app.get(sessionStatusPaths.iframeScript, script(iframeScript));
  app.get(sessionStatusPaths.step1, html(step1Page));
  app.get(sessionStatusPaths.step1Script, script(step1Script));
  app.get(sessionStatusPaths.step2, html(step2Page));
  app.get(sessionStatusPaths.step2Script, script(step2Script));
  // 204 when the client may check from that origin (Keycloak: the client's web origins).
  app.get<{ Querystring: { client_id?: string; origin?: string } }>(
    sessionStatusPaths.iframeInit,
    async (request, reply) => {
      const known = request.query.client_id === config.oidcClientId && request.query.origin === appOrigin;
      return reply
        .header('cache-control', 'no-store')
        .status(known ? 204 : 403)
        .send();
    },
  );

  // RFC 8414 §3.1: the metadata at the path-inserted address (and at the realm, as Keycloak also
  // serves it): the provider's discovery document.
  const metadata = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    deps.forwardToProvider(request.raw, reply.raw, '/.well-known/openid-configuration');
  };
  app.get(`/.well-known/oauth-authorization-server${REALM_PATH}`, metadata);
  app.get(`${REALM_PATH}/.well-known/oauth-authorization-server`, metadata);

  // RFC 9728: the customer API names this realm as its authorization server.
  app.get(PROTECTED_RESOURCE_METADATA_PATH, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send({
      resource: `${config.publicUrl}/api`,
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      // RFC 9728 §2: the API takes DPoP-bound tokens with proofs of these algorithms (decision 0044).
      dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
      scopes_supported: ['openid', 'profile', 'email'],
      resource_signing_alg_values_supported: ['RS256'],
    }),
  );
}
