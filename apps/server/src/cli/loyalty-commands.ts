import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import {
  LoyaltyEventInput,
  type LoyaltyEventInput as LoyaltyEventInputType,
  type LoyaltyHistoryEntry,
  type Violation,
} from '@roadpass/contracts';
import { isLoyaltyMember } from '../modules/consents/index.js';
import {
  incomingEventViolations,
  serviceClientSecret,
  serviceClientSettings,
} from '../modules/loyalty/index.js';
import { violationsOf } from '../plugins/errors.js';
import { findCustomer, parseOptions, Refusal, required, type CommandContext } from './cli-arguments.js';
import { formatTable } from './text-table.js';

const withFormats = (ajv: Ajv): Ajv => {
  (ajvFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
};
// The same schema and settings as the internal endpoint's body validation.
const validateEvent = withFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false })).compile(
  LoyaltyEventInput,
);

/** The command-line flag of each LoyaltyEventInput field, to name what was wrong the way it was typed. */
const flagOf: Record<string, string> = {
  sourceId: '--source',
  customerId: '--customer',
  type: '--type',
  points: '--points',
  occurredAt: '--at',
  description: '--description',
};

const describe = (violations: Violation[]) =>
  violations
    .map((v) => {
      const flag = flagOf[v.field] ?? v.field;
      return `  ${flag}: ${v.message.replace(new RegExp(`^${v.field}\\b`), flag)}`;
    })
    .join('\n');

const dateTime = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

async function award(args: readonly string[], { db, service, clock, io }: CommandContext): Promise<number> {
  const names = ['customer', 'points', 'type', 'source', 'description', 'at'] as const;
  const values = parseOptions(args, names);
  required(values, ['customer', 'points', 'type', 'source']);
  const customer = await findCustomer(db, values.customer!);
  const points = /^-?\d+$/.test(values.points!) ? Number(values.points) : values.points;
  const input = {
    sourceId: values.source,
    customerId: customer.id,
    type: values.type,
    points,
    ...(values.at === undefined ? {} : { occurredAt: values.at }),
    ...(values.description === undefined ? {} : { description: values.description }),
  };
  if (!validateEvent(input)) {
    throw new Refusal(
      `The event is not valid:\n${describe(violationsOf(validateEvent.errors ?? [], 'event'))}`,
    );
  }
  const event = input as LoyaltyEventInputType;
  const now = clock();
  const broken = incomingEventViolations(event, now);
  if (broken.length > 0) throw new Refusal(`The event breaks the loyalty rules:\n${describe(broken)}`);
  const outcome = await service.applyEvent(event, now);
  const line = `${outcome.status} for ${customer.email}: ${outcome.message}`;
  if (outcome.status === 'not-member') throw new Refusal(line);
  io.out(line);
  return 0;
}

async function ledger(args: readonly string[], { db, service, io }: CommandContext): Promise<number> {
  const values = parseOptions(args, ['customer', 'limit'] as const);
  required(values, ['customer']);
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new Refusal(`--limit must be a whole number from 1 to 100 (got "${values.limit}")`);
  }
  const customer = await findCustomer(db, values.customer!);
  const member = await isLoyaltyMember(db, customer.id);
  const account = await service.account(customer.id);
  const lines = [
    `Customer  ${customer.first_name} ${customer.last_name} <${customer.email}> (${customer.id})`,
    `Member    ${member ? 'yes' : 'no (the loyalty programme consent is not granted)'}`,
  ];
  if (!account) {
    io.out([...lines, 'Ledger    empty (no loyalty account yet)'].join('\n'));
    return 0;
  }
  const tierUntil = account.tierExpirationDate ? ` until ${dateTime(account.tierExpirationDate)}` : '';
  const page = await service.history(customer.id, 0, limit);
  lines.push(
    `Balance   ${account.balance} points`,
    `Tier      ${account.tier}${tierUntil}`,
    `Entries   ${account.eventCount}${account.eventCount > page.content.length ? ` (newest ${page.content.length} below)` : ''}`,
  );
  if (page.content.length > 0) {
    const first = account.eventCount;
    const table = formatTable<LoyaltyHistoryEntry & { seq: number }>(
      [
        { title: 'seq', value: (e) => String(e.seq), align: 'right' },
        { title: 'occurred at', value: (e) => dateTime(new Date(e.occurredAt)) },
        { title: 'type', value: (e) => e.type },
        { title: 'points', value: (e) => String(e.points), align: 'right' },
        { title: 'tier after', value: (e) => e.tier },
        { title: 'expires', value: (e) => day(e.expirationDate) },
        { title: 'description', value: (e) => e.description },
      ],
      page.content.map((entry, i) => ({ ...entry, seq: first - i })),
    );
    lines.push('', table);
  }
  io.out(lines.join('\n'));
  return 0;
}

async function expire(args: readonly string[], { service, clock, io }: CommandContext): Promise<number> {
  const values = parseOptions(args, ['now'] as const);
  const now = values.now === undefined ? clock() : new Date(values.now);
  if (Number.isNaN(now.getTime())) {
    throw new Refusal(`--now must be an ISO date-time, e.g. 2026-05-01T00:00:00Z (got "${values.now}")`);
  }
  const t = await service.expireAll(now);
  io.out(
    `Expiry as of ${now.toISOString()}: ${t.lots} lots expired (${t.points} points) for ${t.customers} customers; ` +
      `${t.tiersRecomputed} tiers recomputed (${t.tiersLowered} lowered)`,
  );
  return 0;
}

async function serviceClient(args: readonly string[], { db, config, io }: CommandContext): Promise<number> {
  parseOptions(args, [] as const);
  const settings = serviceClientSettings(config);
  if (config.externalIssuer) {
    throw new Refusal(`The service client is managed in the external realm ${config.externalIssuer}`);
  }
  if (config.env === 'production') {
    throw new Refusal('Not shown in production: the secret is the LOYALTY_CLIENT_SECRET of the deployment');
  }
  const secret = await serviceClientSecret(db, config);
  io.out(
    [
      `Client id       ${settings.clientId}`,
      `Client secret   ${secret}`,
      `Token endpoint  ${settings.tokenEndpoint}`,
      `Scope           ${settings.scope}`,
      `Audience        ${settings.audience}`,
      '',
      'Get a token (client credentials, HTTP Basic):',
      `  curl -u '${settings.clientId}:${secret}' -d grant_type=client_credentials -d scope=${settings.scope} ${settings.tokenEndpoint}`,
    ].join('\n'),
  );
  return 0;
}

/** The commands of `npm run loyalty -- <command>`; each returns its exit code or throws a Refusal. */
export const commands = { award, ledger, expire, 'service-client': serviceClient } as const;
