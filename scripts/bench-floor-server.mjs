#!/usr/bin/env node
// The floor of bench:floor: a bare Fastify whose routes answer a customer's row by id, in a process of
// its own like the server it is a floor for. `/hello` answers at once; `/one/:id` sends one prepared
// statement per request; `/batched/:id` sends one statement for all the ids asked in a turn of the
// event loop, as the app's customer read does (decision 0053). Nothing else: no token, no session, no
// hooks. `/history/:id` and `/forecast/:id` send the server's own loyalty statement (memberReads, as
// the history page and the expiry forecast ask it) for the requests of a turn and answer its JSON text
// or row as it comes: what those calls could reach with nothing of the server's own work around them.
// (taken from the built server: `npm run build` first). Usage: node scripts/bench-floor-server.mjs PORT DATABASE_URL POOL_SIZE
import DataLoader from 'dataloader';
import Fastify from 'fastify';
import pg from 'pg';
import { expiryForecastStatement, historyPageStatement } from './member-reads-sql.mjs';

const [port, databaseUrl, poolSize] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize) });
const columns = 'id, email, first_name, last_name, language, legal_entity_id';
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/one/:id', async (request) => {
  const { rows } = await pool.query({
    name: 'one',
    text: `select ${columns} from customers where id = $1`,
    values: [request.params.id],
  });
  return rows[0] ?? {};
});
const customers = new DataLoader(
  async (ids) => {
    const { rows } = await pool.query({
      name: 'many',
      text: `select ${columns} from customers where id = any((select $1::uuid[])::uuid[])`,
      values: [ids],
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? {});
  },
  { cache: false, batchScheduleFn: (run) => setImmediate(run) },
);
app.get('/batched/:id', async (request) => customers.load(request.params.id));

/** The server's loyalty statement for the ids of one turn; `row(r)` is a customer's answer. */
const memberReads = (name, statement, row) =>
  new DataLoader(
    async (ids) => {
      const { rows } = await pool.query({ name, text: statement.text, values: statement.values(ids) });
      const byIndex = new Map(rows.map((r) => [Number(r.n), r]));
      return ids.map((_, i) => row(byIndex.get(i + 1)));
    },
    { cache: false, maxBatchSize: 100, batchScheduleFn: (run) => setImmediate(run) },
  );
const historyPages = memberReads('history', historyPageStatement, (r) => r?.page ?? '[]');
const forecasts = memberReads('forecast', expiryForecastStatement, (r) => r ?? {});
app.get('/history/:id', async (request, reply) =>
  reply.type('application/json').send(await historyPages.load(request.params.id)),
);
app.get('/forecast/:id', async (request) => forecasts.load(request.params.id));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
