import { parseArgs } from 'node:util';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { createCustomerRepository, type Customer } from '../modules/customers/index.js';
import type { Clock, LoyaltyService } from '../modules/loyalty/index.js';
import { isCustomerId } from '../lib/customer-id.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What every command gets. */
export interface CommandContext {
  db: Db;
  config: AppConfig;
  service: LoyaltyService;
  clock: Clock;
  io: CliIo;
}

/** A refusal or an argument error: the message goes to stderr, the command exits with 1. */
export class Refusal extends Error {}

/** `--points -50` reads as an option to parseArgs; make it `--points=-50`. */
function joinNegativeNumbers(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg.startsWith('--') && !arg.includes('=') && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

export function parseOptions<Names extends string>(args: readonly string[], names: readonly Names[]) {
  try {
    const { values } = parseArgs({
      args: joinNegativeNumbers(args),
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    return values as Partial<Record<Names, string>>;
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\nSee: npm run loyalty -- help`);
  }
}

export function required<Names extends string>(
  values: Partial<Record<Names, string>>,
  names: readonly Names[],
) {
  const missing = names.filter((name) => values[name] === undefined || values[name] === '');
  if (missing.length > 0) {
    throw new Refusal(
      `Missing ${missing.map((name) => `--${name}`).join(', ')}\nSee: npm run loyalty -- help`,
    );
  }
}

export async function findCustomer(db: Db, emailOrId: string): Promise<Customer> {
  const customers = createCustomerRepository(db);
  const customer = isCustomerId(emailOrId)
    ? await customers.findById(emailOrId.toLowerCase())
    : await customers.findByEmail(emailOrId);
  if (!customer) throw new Refusal(`No customer has the e-mail or id "${emailOrId}"`);
  return customer;
}
