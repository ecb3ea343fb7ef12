import { createWriteStream } from 'node:fs';
import type { Db } from '../db/database.js';
import { createCustomerRepository } from '../modules/customers/index.js';
import { blockersOf, buildExportZip, eraseCustomer } from '../modules/data-rights/index.js';
import { createMessageSender, createSmtpTransport, loadMessageTexts } from '../modules/messages/index.js';
import { Refusal, type CliIo } from './cli-arguments.js';
import { commandConfig, EXIT_CONFIG, EXIT_OK, EXIT_REFUSED, withCommandDatabase } from './loyalty-cli.js';

export const ACCOUNT_USAGE = `Roadpass account command (support staff; docs/product/data-rights.md#support-staff)

Usage: npm run account -- <command>

Commands:
  export <e-mail> <file>   Writes the customer's data export (the same ZIP as "Download my data").
  erase <e-mail>           Erases the customer now (the same steps as the scheduled erasure:
                           last e-mail, ledger kept under a pseudonym, erasure feed). Refused while
                           the rental system reports an open rental, unpaid invoice or pending fine.
  help                     Shows this text.

Uses the server's configuration (DATABASE_URL, DATA_DIR, …). With the embedded database the server
must not be running. Exit codes: 0 done, 1 refused or invalid arguments, 2 invalid configuration.`;

export interface AccountCliOptions {
  env?: Record<string, string | undefined>;
  db?: Db;
  now?: () => Date;
}

/** `npm run account -- export|erase …`: the customer's data rights, through the same code as the app. */
export async function runAccountCli(args: readonly string[], io: CliIo, options: AccountCliOptions = {}) {
  const [command, email, file, ...extra] = args;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(ACCOUNT_USAGE);
    return EXIT_OK;
  }
  const arity = command === 'export' ? 2 : command === 'erase' ? 1 : -1;
  const given = [email, file].filter((a) => a !== undefined).length + extra.length;
  if (arity < 0 || given !== arity) {
    io.err(
      `${command === undefined ? 'No command given' : `Wrong command or arguments: ${args.join(' ')}`}\n\n${ACCOUNT_USAGE}`,
    );
    return EXIT_REFUSED;
  }
  const config = commandConfig(options.env ?? process.env, io);
  if (!config) return EXIT_CONFIG;
  const texts = await loadMessageTexts(config.contentDir);
  return withCommandDatabase(config, 'account command', options.db, io, async (db) => {
    const now = options.now ?? (() => new Date());
    const customer = await createCustomerRepository(db).findByEmail(email!);
    if (!customer) throw new Refusal(`No customer with the e-mail address ${email}`);
    if (command === 'export') {
      const row = await db
        .selectFrom('customers')
        .selectAll()
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      await buildExportZip(createWriteStream(file!), { db, customer: row, texts, now: now() });
      io.out(`Wrote the data export of ${email} to ${file}`);
      return EXIT_OK;
    }
    const blockers = await blockersOf(db, customer.id);
    if (blockers.length > 0) {
      throw new Refusal(
        `The rental system reports something to settle first:\n${blockers
          .map((b) => `  legal entity ${b.legalEntityId}: ${b.kind} ${b.reference}`)
          .join('\n')}`,
      );
    }
    const smtp = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : undefined;
    const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log };
    try {
      const sender = createMessageSender({ db, log: log as never, from: config.mailFrom, mail: smtp });
      await eraseCustomer({ db, texts, sender, publicUrl: config.publicUrl }, customer.id, now());
    } finally {
      smtp?.close();
    }
    io.out(`Erased ${email} (customer ${customer.id}); the rental system reads it from the erasure feed`);
    return EXIT_OK;
  });
}
