import type { Db } from '../db/database.js';
import {
  cookieKeyStatus,
  rotateCookieKeys,
  type CookieKeyRotationStep,
  type CookieKeyStatus,
} from '../idp/cookie-key-rotation.js';
import {
  rotateSigningKeys,
  RotationNotDue,
  signingKeyStatus,
  type KeyRotationStatus,
} from '../idp/signing-key-rotation.js';
import { Refusal, type CliIo } from './cli-arguments.js';
import { commandConfig, EXIT_CONFIG, EXIT_OK, EXIT_REFUSED, withCommandDatabase } from './loyalty-cli.js';

export const KEYS_USAGE = `Roadpass signing and cookie keys (operators; docs/operations.md#signing-keys)

Usage: npm run keys -- <command>

Commands:
  status          Lists the identity provider's signing keys and cookie keys (which signs, which
                  only verify) and the next rotation step of each with the time it is due.
  rotate          Does the next step of a signing-key rotation with an overlap, or says when it is due:
                    1. stage:    a new key is added: published and accepted, not signing yet;
                    2. activate: an hour later at the earliest, the new key signs; the old one still
                                 verifies;
                    3. remove:   once the longest token or session lifetime has passed, the old key goes.
  rotate-cookies  The same for the keys that sign the identity provider's cookies
                  (docs/operations.md#cookie-keys): stage a new key (accepted, not signing), make it
                  sign ten minutes later at the earliest, remove the old one once the longest
                  session (SESSION_TTL_SECONDS) has passed. Keys are shown by an id (the start of
                  their SHA-256), never themselves.
                  Roll every instance after each step of either: instances read the keys when they
                  start.
  help            Shows this text.

Uses the server's configuration (DATABASE_URL, DATA_DIR, token and session lifetimes). With the
embedded database the server must not be running. Exit codes: 0 done, 1 not due or invalid
arguments, 2 invalid configuration.`;

export interface KeysCliOptions {
  env?: Record<string, string | undefined>;
  db?: Db;
  now?: () => Date;
}

function describeStatus(status: KeyRotationStatus): string {
  const lines = status.keys.map(({ kid, role }) => `  ${kid}  ${role}`);
  const { step, kid, dueAt } = status.next;
  const when = dueAt.getTime() === 0 ? 'any time' : `from ${dueAt.toISOString()}`;
  const what =
    step === 'stage' ? 'stage a new key' : step === 'activate' ? `make ${kid} sign` : `remove ${kid}`;
  return `Signing keys (the first signs):\n${lines.join('\n')}\nNext rotation step: ${what}, ${when}`;
}

function describeCookieKeys(status: CookieKeyStatus): string {
  const lines = status.keys.map(({ id, role }) => `  ${id}  ${role}`);
  const { step, id, dueAt } = status.next;
  const when = dueAt.getTime() === 0 ? 'any time' : `from ${dueAt.toISOString()}`;
  const what =
    step === 'stage' ? 'stage a new key' : step === 'activate' ? `make ${id} sign` : `remove ${id}`;
  return `Cookie keys (the first signs, all verify):\n${lines.join('\n')}\nNext cookie-key step: ${what}, ${when}`;
}

function describeCookieStep(done: CookieKeyRotationStep): string {
  const next = done.status.next;
  const message =
    done.step === 'stage'
      ? `Staged cookie key ${done.id}: accepted, not signing yet.\n` +
        `Now roll every instance (each accepts cookies signed with it after its restart).\n` +
        `From ${next.dueAt.toISOString()} run \`npm run keys -- rotate-cookies\` again to make it sign.`
      : done.step === 'activate'
        ? `Cookie key ${done.id} signs now; ${next.id} is retired and still verifies the cookies it signed.\n` +
          `Now roll every instance (each signs with ${done.id} after its restart).\n` +
          `From ${next.dueAt.toISOString()} run \`npm run keys -- rotate-cookies\` again to remove ${next.id}.`
        : `Removed the retired cookie key ${done.id}.\nNow roll every instance (each stops accepting it after its restart).`;
  return `${message}\n\n${describeCookieKeys(done.status)}`;
}

/**
 * `npm run keys -- status|rotate|rotate-cookies`: the rotation of the signing keys
 * (idp/signing-key-rotation.ts) or of the cookie keys (idp/cookie-key-rotation.ts), one step per run.
 */
export async function runKeysCli(args: readonly string[], io: CliIo, options: KeysCliOptions = {}) {
  const [command, ...extra] = args;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(KEYS_USAGE);
    return EXIT_OK;
  }
  const commands = ['status', 'rotate', 'rotate-cookies'];
  if (command === undefined || !commands.includes(command) || extra.length > 0) {
    io.err(
      `${command === undefined ? 'No command given' : `Wrong command or arguments: ${args.join(' ')}`}\n\n${KEYS_USAGE}`,
    );
    return EXIT_REFUSED;
  }
  const config = commandConfig(options.env ?? process.env, io);
  if (!config) return EXIT_CONFIG;
  return withCommandDatabase(config, 'keys command', options.db, io, async (db) => {
    if (command === 'status') {
      io.out(
        `${describeStatus(await signingKeyStatus(db, config))}\n\n` +
          describeCookieKeys(await cookieKeyStatus(db, config)),
      );
      return EXIT_OK;
    }
    const notDueRefused = (error: unknown) => {
      throw error instanceof RotationNotDue ? new Refusal(error.message) : error;
    };
    const now = options.now?.() ?? new Date();
    if (command === 'rotate-cookies') {
      io.out(describeCookieStep(await rotateCookieKeys(db, config, now).catch(notDueRefused)));
      return EXIT_OK;
    }
    const done = await rotateSigningKeys(db, config, now).catch(notDueRefused);
    const next = done.status.next;
    const message =
      done.step === 'stage'
        ? `Staged key ${done.kid}: published at /certs and accepted, not signing yet.\n` +
          `Now roll every instance (each publishes and accepts it after its restart).\n` +
          `From ${next.dueAt.toISOString()} run \`npm run keys -- rotate\` again to make it sign.`
        : done.step === 'activate'
          ? `Key ${done.kid} signs now; ${next.kid} is retired and still verifies what it signed.\n` +
            `Now roll every instance (each signs with ${done.kid} after its restart).\n` +
            `From ${next.dueAt.toISOString()} run \`npm run keys -- rotate\` again to remove ${next.kid}.`
          : `Removed the retired key ${done.kid}.\nNow roll every instance (each stops accepting it after its restart).`;
    io.out(`${message}\n\n${describeStatus(done.status)}`);
    return EXIT_OK;
  });
}
