import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { Db } from './database.js';

/**
 * The statement that `send` would send to PostgreSQL, taken from the server's own code run on a
 * Kysely that sends nothing (Kysely's DummyDriver) and notes what it would have sent: the last
 * statement, when `send` sends several. For looking at the server's statements without a server:
 * their plans (bench:explain, ledger-indexes.test.ts) and what they cost alone (bench:floor), through
 * scripts/member-reads-sql.mjs.
 */
export async function statementOf(send: (db: Db) => Promise<unknown>): Promise<CompiledQuery> {
  let statement: CompiledQuery | undefined;
  const db: Db = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      statement = event.query;
    },
  });
  await send(db);
  if (!statement) throw new Error('statementOf: nothing was sent');
  return statement;
}
