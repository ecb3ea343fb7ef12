import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR_LOCK_FILE } from '../db/data-dir-lock.js';
import { seedReferenceData } from '../db/seed.js';
import { loadLoyaltyContent, type LoyaltyContent } from '../modules/content/index.js';
import type { Customer } from '../modules/customers/index.js';
import { addMonths, serviceClientSecret } from '../modules/loyalty/index.js';
import { createTestCustomer } from '../testing/loyalty-members.js';
import { testConfig } from '../testing/test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { runLoyaltyCli } from './loyalty-cli.js';

let database: TestDatabase;
let content: LoyaltyContent;
let member: Customer;

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  content = await loadLoyaltyContent(testConfig().contentDir);
  member = await createTestCustomer(database.db);
});
afterAll(() => database?.drop());

const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn' };

/** Runs the command as `npm run loyalty -- …` would, against the test database; collects its output. */
async function run(args: string[], options: { env?: Record<string, string>; now?: Date; db?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runLoyaltyCli(
    args,
    { out: (text) => out.push(text), err: (text) => err.push(text) },
    {
      env: options.env ?? env,
      content,
      ...(options.db === false ? {} : { db: database.db }),
      ...(options.now ? { clock: () => options.now! } : {}),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('award, ledger, expire', () => {
  it('awards points, shows them in the ledger, and expires them after 12 months', async () => {
    const earned = new Date(Date.now() - 3_600_000);
    const award = await run([
      'award',
      '--customer',
      member.email,
      '--points',
      '250',
      '--type',
      'bonus',
      '--source',
      'ops:welcome-1',
      '--description',
      'Welcome bonus',
      '--at',
      earned.toISOString(),
    ]);
    expect(award).toMatchObject({ code: 0, err: '' });
    expect(award.out).toMatch(/^recorded for member-.*: recorded 250 points \(bonus\); balance 250/);

    const adjust = await run([
      'award',
      '--customer',
      member.id,
      '--points',
      '-50',
      '--type',
      'adjustment',
      '--source',
      'ops:fix-1',
    ]);
    expect(adjust.code).toBe(0);
    expect(adjust.out).toMatch(/balance 200/);

    const ledger = await run(['ledger', '--customer', member.email]);
    expect(ledger.code).toBe(0);
    expect(ledger.out).toMatch(/Balance\s+200 points/);
    expect(ledger.out).toMatch(/Tier\s+sky-blue/);
    expect(ledger.out).toMatch(/Entries\s+2/);
    expect(ledger.out).toMatch(/2 .* adjustment\s+-50 /);
    expect(ledger.out).toMatch(/1 .* bonus\s+250 .*Welcome bonus/);

    const later = addMonths(earned, 12).getTime() + 60_000;
    const expire = await run(['expire', '--now', new Date(later).toISOString()]);
    expect(expire.code).toBe(0);
    expect(expire.out).toMatch(/1 lots expired \(200 points\) for 1 customers/);
    const after = await run(['ledger', '--customer', member.email, '--limit', '1'], { now: new Date(later) });
    expect(after.out).toMatch(/Balance\s+0 points/);
    expect(after.out).toMatch(/Entries\s+3 \(newest 1 below\)/);
    expect(after.out).toMatch(/3 .* expiry\s+-200 /);
  });

  it('says so when a source id was already recorded, and changes nothing', async () => {
    const args = [
      'award',
      '--customer',
      member.email,
      '--points',
      '5',
      '--type',
      'rental-completed',
      '--source',
      'ops:dup',
    ];
    expect((await run(args)).code).toBe(0);
    const again = await run(args);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^duplicate .*nothing changed/);
  });
});

describe('refusals', () => {
  it.each([
    [['award', '--customer', 'x@example.com', '--points', '5', '--type', 'bonus'], /Missing --source/],
    [
      ['award', '--customer', 'nobody@example.com', '--points', '5', '--type', 'bonus', '--source', 'a'],
      /No customer has the e-mail or id "nobody@example.com"/,
    ],
    [
      ['award', '--customer', 'MEMBER', '--points', 'lots', '--type', 'bonus', '--source', 'a'],
      /--points: --points must be integer/,
    ],
    [['award', '--customer', 'MEMBER', '--points', '5', '--type', 'expiry', '--source', 'a'], /--type:/],
    [
      ['award', '--customer', 'MEMBER', '--points', '-5', '--type', 'bonus', '--source', 'a'],
      /--points must be above 0 for a bonus event/,
    ],
    [
      [
        'award',
        '--customer',
        'MEMBER',
        '--points',
        '5',
        '--type',
        'bonus',
        '--source',
        'a',
        '--at',
        '2999-01-01T00:00:00Z',
      ],
      /--at must not be in the future/,
    ],
    [
      [
        'award',
        '--customer',
        'MEMBER',
        '--points',
        '5',
        '--type',
        'bonus',
        '--source',
        'a',
        '--colour',
        'red',
      ],
      /Unknown option '--colour'/,
    ],
    [['ledger', '--customer', 'MEMBER', '--limit', '0'], /--limit must be a whole number from 1 to 100/],
    [['expire', '--now', 'yesterday'], /--now must be an ISO date-time/],
    [['refund'], /Unknown command "refund"/],
  ])('refuses %j with exit code 1 and says what was wrong', async (args, message) => {
    const result = await run(args.map((a) => (a === 'MEMBER' ? member.email : a)));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(result.out).toBe('');
  });

  it('refuses points for a customer who is not a member', async () => {
    const outsider = await createTestCustomer(database.db, { member: false });
    const result = await run([
      'award',
      '--customer',
      outsider.email,
      '--points',
      '5',
      '--type',
      'bonus',
      '--source',
      'a',
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^not-member .*not a member of the loyalty programme/);
  });

  it('stops with exit code 2 on invalid configuration', async () => {
    const result = await run(['expire'], { env: { NODE_ENV: 'staging' } });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/NODE_ENV must be development, test or production/);
  });

  it('refuses to open the embedded database while a server holds it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-cli-lock-'));
    try {
      // The parent process stands in for a running server: alive, and not this process.
      writeFileSync(
        path.join(dataDir, DATA_DIR_LOCK_FILE),
        JSON.stringify({ pid: process.ppid, holder: 'server', since: new Date().toISOString() }),
      );
      const result = await run(['expire'], { env: { ...env, DATA_DIR: dataDir }, db: false });
      expect(result.code).toBe(1);
      expect(result.err).toMatch(
        /in use by the server .*stop the server, or send events to POST \/api\/internal\/loyalty\/events/s,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('help and the service client', () => {
  it('explains the commands', async () => {
    const result = await run(['help']);
    expect(result.code).toBe(0);
    for (const command of ['award', 'ledger', 'expire', 'service-client'])
      expect(result.out).toContain(command);
  });

  it('prints the service client id and its secret outside production', async () => {
    const result = await run(['service-client']);
    expect(result.code).toBe(0);
    const secret = await serviceClientSecret(database.db, testConfig());
    expect(result.out).toMatch(/Client id\s+rental-system/);
    expect(result.out).toContain(`Client secret   ${secret}`);
    expect(result.out).toContain('/auth/realms/customer/protocol/openid-connect/token');
  });
});
