// The customers of a database of `npm run bench:generate` as the benchmarks at a million use them
// (bench:million, bench:cpu-per-call): which ones are measured, how they get tokens quickly, the
// server's settings and the customer reads' paths. One place, so that both scripts measure the same
// customers with the same server (performance.md#a-million-customers-issue-21).
import path from 'node:path';
import { httpSignIn } from './http-sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The password bench:generate gives every customer. */
export const BENCH_PASSWORD = 'Bench-Million-2026!';

/**
 * `limit` customers of Germany made by bench:generate, after the first `offset`, in the order of
 * their ids' hash (spread over the whole table, not the first ones written): id, email,
 * legal_entity_id.
 */
export async function germanCustomers(db, limit, offset = 0) {
  const { rows } = await db.query(
    `select c.id, c.email, c.legal_entity_id from customers c
     join legal_entities e on e.legal_entity_id = c.legal_entity_id and e.iso_country = 'DE'
     where c.email like 'm%@million.example'
     order by hashtext(c.id::text) limit $1 offset $2`,
    [limit, offset],
  );
  return rows;
}

/**
 * Gives `customers` a password hash of the test suites' cost (a hash records its own cost), so that
 * signing 10 000 in takes minutes, not an hour (the production cost is measured by bench:million's
 * step 1 on others). Sets NODE_ENV=test in this process before the built server's hashing module
 * loads: its cost is fixed when it loads.
 */
export async function giveCheapPasswords(db, customers) {
  process.env.NODE_ENV = 'test';
  const { hashPassword } = await import(path.join(root, 'apps/server/dist/lib/password-hash.js'));
  await db.query(`update customers set password_hash = $1 where id = any($2)`, [
    await hashPassword(BENCH_PASSWORD),
    customers.map((c) => c.id),
  ]);
}

/**
 * Signs every customer in through the whole authorization-code flow, `connections` at a time, and
 * keeps the tokens on it (access, refresh).
 */
export async function signInAll(origin, customers, connections) {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < customers.length) {
        const c = customers[next++];
        const tokens = await httpSignIn(origin, c.email, BENCH_PASSWORD);
        c.access = tokens.access_token;
        c.refresh = tokens.refresh_token;
      }
    }),
  );
}

/** The built server's settings for a benchmark on `databaseUrl` (production, no demo data). */
export const benchServerEnv = (databaseUrl, clientSecret) => ({
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  SEED_DEMO_DATA: 'false',
  LOYALTY_CLIENT_SECRET: clientSecret,
  DATABASE_POOL_SIZE: '20',
  ACCESS_TOKEN_TTL_SECONDS: '3600',
  // The benchmarks run the expiry job themselves, if at all: a timer's run would compete with the reads.
  LOYALTY_EXPIRY_INTERVAL_SECONDS: '0',
  LOYALTY_REMINDER_INTERVAL_SECONDS: '0',
});

/** The paths of the customer reads the benchmarks measure, for a customer with id `c.id`. */
export const readPaths = {
  loginStatus: () => '/api/customer/cuda/customer/v2/login/own/status',
  tierDetails: (c) => `/api/customer/loyalty-service/customer/${c.id}`,
  history: (c) => `/api/customer/loyalty-service/customer/${c.id}/history?page_index=0&page_size=20`,
  expiryForecast: (c) => `/api/customer/loyalty-service/customer/${c.id}/expiry-forecast`,
  consents: (c) => `/api/customer/consents/v1/customers/${c.id}/consents`,
  sessions: () => '/api/customer/cuda/customer/sessions/own',
  securityActivity: () => '/api/customer/cuda/customer/security-activity/own',
  personalData: () => '/api/customer/cuda/customer/personaldata/own',
};

/** A GET of path `p(customer)` with the customer's access token (for autocannon-pass.mjs). */
export const authorizedGet = (p) => (c) => ({ path: p(c), headers: { authorization: `Bearer ${c.access}` } });
