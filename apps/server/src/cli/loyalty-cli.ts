import { ConfigError, loadConfig, type AppConfig } from '../config.js';
import { acquireDataDirLock, DataDirBusyError, type DataDirLock } from '../db/data-dir-lock.js';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { loadLoyaltyContent, type LoyaltyContent } from '../modules/content/index.js';
import { createLoyaltyService, systemClock, type Clock } from '../modules/loyalty/index.js';
import { Refusal, type CliIo } from './cli-arguments.js';
import { commands } from './loyalty-commands.js';

export type { CliIo };

export const EXIT_OK = 0;
/** Refused, or the arguments were wrong: the message on stderr says what. */
export const EXIT_REFUSED = 1;
export const EXIT_CONFIG = 2;

export interface CliOptions {
  /** Environment for loadConfig (default: process.env). */
  env?: Record<string, string | undefined>;
  /** A database opened by the caller (tests); otherwise opened from the configuration. */
  db?: Db;
  /** Loyalty content (tier thresholds); otherwise loaded from the configured content folder. */
  content?: LoyaltyContent;
  clock?: Clock;
}

export const USAGE = `Roadpass loyalty operator command

Usage: npm run loyalty -- <command> [options]

Commands:
  award    --customer <e-mail|uuid> --points <n> --type <bonus|rental-completed|adjustment>
           --source <id> [--description <text>] [--at <ISO date-time>]
           Records one points event (the same source id never counts twice).
  ledger   --customer <e-mail|uuid> [--limit <n>]
           Shows balance, tier, tier expiry and the newest entries (default 20).
  expire   [--now <ISO date-time>]
           Expires points older than 12 months and recomputes due tiers, for everyone.
  service-client
           Prints the rental system's client id and secret (not in production).
  help     Shows this text.

Uses the server's configuration (DATABASE_URL, DATA_DIR, …). With the embedded database the server
must not be running; send events to POST /api/internal/loyalty/events instead.
Exit codes: 0 done, 1 refused or invalid arguments, 2 invalid configuration.`;

/**
 * Runs a command on the database: the one given (tests), or one opened for the command and closed
 * after it. A Refusal is said on stderr and exits with EXIT_REFUSED.
 */
export async function withCommandDatabase(
  config: AppConfig,
  name: string,
  given: Db | undefined,
  io: CliIo,
  run: (db: Db) => Promise<number>,
): Promise<number> {
  let opened: { db: Db; lock: DataDirLock | undefined } | undefined;
  try {
    if (!given) opened = await openForCommand(config, name);
    return await run(given ?? opened!.db);
  } catch (error) {
    if (error instanceof Refusal) {
      io.err(error.message);
      return EXIT_REFUSED;
    }
    throw error;
  } finally {
    if (opened) {
      await opened.db.destroy();
      opened.lock?.release();
    }
  }
}

/** The server's configuration for a command, or undefined once it said on stderr what is wrong with it. */
export function commandConfig(env: Record<string, string | undefined>, io: CliIo): AppConfig | undefined {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return undefined;
  }
}

/** Opens the database the server uses, after making sure no server has the embedded one open. */
export async function openForCommand(
  config: AppConfig,
  name = 'loyalty command',
): Promise<{ db: Db; lock: DataDirLock | undefined }> {
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataDirLock(config.dataDir, name);
    } catch (error) {
      if (error instanceof DataDirBusyError) {
        throw new Refusal(
          `${error.message}.\nThe embedded database can be open in one process only: stop the server, ` +
            'or send events to POST /api/internal/loyalty/events.',
        );
      }
      throw error;
    }
  }
  try {
    // Through a transaction-pooling PgBouncer, Kysely's migration lock needs the direct connection.
    const db = await openDatabase({
      databaseUrl: config.databaseDirectUrl ?? config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 2,
    });
    await migrateToLatest(db);
    return { db, lock };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * `npm run loyalty -- <command>`: the operator's way into the ledger (award, ledger, expire,
 * service-client). Returns the exit code; what happened goes to io.out, what went wrong to io.err.
 */
export async function runLoyaltyCli(
  args: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (command === undefined || !(command in commands)) {
    io.err(`${command === undefined ? 'No command given' : `Unknown command "${command}"`}\n\n${USAGE}`);
    return EXIT_REFUSED;
  }

  const config = commandConfig(options.env ?? process.env, io);
  if (!config) return EXIT_CONFIG;

  let content: LoyaltyContent;
  try {
    content = options.content ?? (await loadLoyaltyContent(config.contentDir));
  } catch (error) {
    io.err(`The loyalty content in ${config.contentDir} is not valid: ${(error as Error).message}`);
    return EXIT_CONFIG;
  }

  return withCommandDatabase(config, 'loyalty command', options.db, io, async (db) => {
    const clock = options.clock ?? systemClock;
    const service = createLoyaltyService({ db, content, clock });
    return commands[command as keyof typeof commands](rest, { db, config, service, clock, io });
  });
}
