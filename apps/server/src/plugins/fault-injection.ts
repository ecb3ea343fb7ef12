import fp from 'fastify-plugin';
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import { apiErrorCodes, legalEntities } from '@roadpass/contracts';
import { createDemoCustomer } from '../modules/customers/index.js';
import type { SessionState } from '../modules/sessions/index.js';

const Fault = Type.Object(
  {
    method: Type.Optional(
      Type.Union([
        Type.Literal('GET'),
        Type.Literal('POST'),
        Type.Literal('PUT'),
        Type.Literal('PATCH'),
        Type.Literal('DELETE'),
      ]),
    ),
    /** A request whose path starts with this fails. */
    pathPrefix: Type.String({ minLength: 1, maxLength: 500, pattern: '^/' }),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    /** The error code of the answer (e.g. recent_sign_in_required); fault_injected unless given. */
    code: Type.Optional(Type.String({ pattern: '^[a-z_]{1,60}$' })),
    /**
     * Only requests carrying this value in the X-Fault-Scope header fail, so tests running side by
     * side against one server do not disturb each other. Without it, every matching request fails.
     */
    scope: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** How many requests fail before the fault clears itself; 0 means until removed. */
    times: Type.Integer({ minimum: 0, maximum: 1000, default: 0 }),
  },
  { additionalProperties: false },
);
type Fault = Type.Static<typeof Fault>;

/**
 * Test mode only (NODE_ENV=test and FAULT_INJECTION=true): lets browser tests make chosen calls
 * fail, e.g. the login-status call answering 500; and gives a test a customer of its own (a demo
 * profile under a new address), for flows that end sessions or change the password. Never registered
 * otherwise.
 */
export default fp(
  async (app) => {
    const faults: (Fault & { remaining: number })[] = [];
    let kept: Pick<SessionState, 'isEnded' | 'isEndedNow' | 'used'> | undefined;
    const api = app.withTypeProvider<TypeBoxTypeProvider>();

    api.post('/__test__/faults', { schema: { body: Fault } }, async (request, reply) => {
      faults.push({ ...request.body, remaining: request.body.times || Infinity });
      return reply.status(204).send();
    });
    api.delete(
      '/__test__/faults',
      { schema: { querystring: Type.Object({ scope: Type.Optional(Type.String({ maxLength: 200 })) }) } },
      async (request, reply) => {
        const { scope } = request.query;
        for (let i = faults.length - 1; i >= 0; i--)
          if (!scope || faults[i]!.scope === scope) faults.splice(i, 1);
        return reply.status(204).send();
      },
    );

    api.post(
      '/__test__/customers',
      {
        schema: {
          body: Type.Object(
            { country: Type.Union(legalEntities.map((e) => Type.Literal(e.isoCountry))) },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const email = `e2e-${randomUUID()}@example.com`;
        await createDemoCustomer(app.db, request.body.country, email);
        return reply.status(201).send({ email });
      },
    );

    // The ended-session check off, for its benchmark's baseline (scripts/bench-session-check.mjs):
    // access tokens of ended sessions are then accepted, so never outside test mode.
    api.put(
      '/__test__/session-check',
      {
        schema: {
          body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
        },
      },
      async (request, reply) => {
        const state = app.sessionState;
        if (request.body.enabled) Object.assign(state, kept);
        else {
          kept ??= { isEnded: state.isEnded, isEndedNow: state.isEndedNow, used: state.used };
          Object.assign(state, { isEnded: () => false, isEndedNow: async () => false, used: () => {} });
        }
        return reply.status(204).send();
      },
    );

    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/__test__/')) return;
      const path = request.url.split('?')[0]!;
      const scope = request.headers['x-fault-scope'];
      const fault = faults.find(
        (f) =>
          path.startsWith(f.pathPrefix) &&
          (!f.method || f.method === request.method) &&
          (!f.scope || f.scope === scope),
      );
      if (!fault) return;
      fault.remaining -= 1;
      if (fault.remaining <= 0) faults.splice(faults.indexOf(fault), 1);
      return reply.status(fault.status).send({
        status: fault.status,
        code: fault.code ?? apiErrorCodes.faultInjected,
        message: 'Fault injected by a test',
      });
    });
  },
  { name: 'fault-injection', dependencies: ['database'] },
);
