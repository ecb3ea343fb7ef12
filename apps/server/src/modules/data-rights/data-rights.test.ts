import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  apiPaths,
  exportAreas,
  type AccountDeletionStatus,
  type ApiErrorBody,
  type DataExportStatus,
  type ErasureFeed,
} from '@roadpass/contracts';
import { openDatabase } from '../../db/database.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createTestCustomer, TEST_CUSTOMER_PASSWORD } from '../../testing/loyalty-members.js';
import { serviceToken } from '../../testing/service-token.js';
import { refresh, signIn, signedInCaller, type Caller } from '../../testing/sign-in.js';
import { createMessageSender, loadMessageTexts } from '../messages/index.js';
import { runDueErasures, runWaitingExports } from './index.js';
import type { ErasureDeps } from './erasure.js';

let t: TestApp;
let deps: ErasureDeps;
let service: string;
const DAY = 86_400_000;

beforeAll(async () => {
  // A long worker interval: the tests run the worker's rounds themselves, with the clock they choose.
  t = await createTestApp({ dataRightsIntervalSeconds: 86_400 });
  deps = {
    db: t.db,
    texts: await loadMessageTexts(t.config.contentDir),
    sender: createMessageSender({ db: t.db, log: t.app.log, from: 'test@example.com' }),
    publicUrl: t.config.publicUrl,
    graceDays: t.config.deletionGraceDays,
  };
  service = await serviceToken(t.app, t.db, t.config);
});
afterAll(() => t.close());

/** Every entry of a ZIP, name → text. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const parts: Buffer[] = [];
        (stream as Readable).on('data', (c: Buffer) => parts.push(c));
        (stream as Readable).on('end', () => {
          files.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function outboxOf(customerId: string | null, kind: string) {
  return t.db
    .selectFrom('outbox')
    .select(['recipient', 'subject', 'body', 'customer_id'])
    .where('kind', '=', kind)
    .$if(customerId !== null, (q) => q.where('customer_id', '=', customerId))
    .execute();
}

describe('download my data (docs/product/data-rights.md#download-my-data)', () => {
  let dora: Caller;
  let stranger: Awaited<ReturnType<typeof createTestCustomer>>;

  beforeAll(async () => {
    dora = await signedInCaller(t.app, 'demo.de@example.com', 'Demo-2026!');
    // Shares nothing with Dora but her legal entity (10).
    stranger = await createTestCustomer(t.db, { legalEntityId: 10 });
    await t.db
      .updateTable('customers')
      .set({ first_name: 'Zebulon', last_name: 'Stranger' })
      .where('id', '=', stranger.id)
      .execute();
  });

  it('starts an export once a day, builds it in the background, and serves her ZIP only to her', async () => {
    const started = await t.app.inject({ method: 'POST', url: apiPaths.dataExport, headers: dora.headers });
    expect(started.statusCode).toBe(202);
    expect(started.json<DataExportStatus>().export).toMatchObject({ state: 'queued', progressPercent: 0 });

    const again = await t.app.inject({ method: 'POST', url: apiPaths.dataExport, headers: dora.headers });
    expect(again.statusCode).toBe(429);
    expect(again.json<ApiErrorBody>()).toMatchObject({ code: 'export_once_per_day' });
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(86_000);

    const early = await t.app.inject({ url: apiPaths.dataExportFile, headers: dora.headers });
    expect(early.statusCode).toBe(404);
    expect(early.json<ApiErrorBody>().code).toBe('export_not_ready');

    // The instance's worker took it on the request; a second runner finds it claimed (SKIP LOCKED).
    await runWaitingExports(deps);
    let status: DataExportStatus | undefined;
    for (let i = 0; i < 100 && status?.export?.state !== 'ready'; i += 1) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      status = (
        await t.app.inject({ url: apiPaths.dataExport, headers: dora.headers })
      ).json<DataExportStatus>();
    }
    expect(status!.export).toMatchObject({ state: 'ready', progressPercent: 100 });
    expect(Date.parse(status!.export!.expiresAt!) - Date.parse(status!.export!.readyAt!)).toBe(7 * DAY);
    const mail = await outboxOf(dora.uuid, 'export-ready');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Deine Roadpass-Daten stehen zum Download bereit');
    expect(mail[0]!.body).toContain('/DE/de/myaccount/privacy');

    const file = await t.app.inject({ url: apiPaths.dataExportFile, headers: dora.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="roadpass-data-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const files = await unzip(file.rawPayload);
    for (const area of exportAreas) {
      expect(files.has(`${area}.json`), area).toBe(true);
      expect(files.has(`schemas/${area}.schema.json`), area).toBe(true);
    }
    expect(JSON.parse(files.get('profile.json')!)).toMatchObject({
      email: 'demo.de@example.com',
      firstName: 'Dora',
    });
    expect(JSON.parse(files.get('loyalty-ledger.json')!)).toHaveLength(250);
    expect(JSON.parse(files.get('loyalty.json')!).partnerCodes).toHaveLength(2);
    expect(JSON.parse(files.get('schemas/profile.schema.json')!).properties.email).toEqual({
      type: 'string',
    });
    const html = files.get('index.html')!;
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Deine Roadpass-Daten</h1>');
    expect(html).toContain('demo.de@example.com');
    // Nothing of the other customer of the same legal entity.
    const everything = [...files.values()].join('\n');
    expect(everything).not.toContain(stranger.id);
    expect(everything).not.toContain(stranger.email);
    expect(everything).not.toContain('Zebulon');

    const downloaded = await t.db
      .selectFrom('security_events')
      .select('kind')
      .where('customer_id', '=', dora.uuid)
      .where('kind', '=', 'data_downloaded')
      .execute();
    expect(downloaded).toHaveLength(1);
  });

  it('gives another customer neither her file nor her progress', async () => {
    const { accessToken } = await signIn(t.app, { email: stranger.email, password: TEST_CUSTOMER_PASSWORD });
    const file = await t.app.inject({ url: apiPaths.dataExportFile, headers: bearer(accessToken) });
    expect(file.statusCode).toBe(404);
    const status = await t.app.inject({ url: apiPaths.dataExport, headers: bearer(accessToken) });
    expect(status.json<DataExportStatus>().export).toBeNull();
  });

  it('refuses the file without a token', async () => {
    expect((await t.app.inject({ url: apiPaths.dataExportFile })).statusCode).toBe(401);
  });
});

describe('close my account (docs/product/data-rights.md#close-my-account)', () => {
  it('is blocked while the rental system reports something, then scheduled, kept, scheduled again and erased on the day', async () => {
    const customer = await createTestCustomer(t.db, { legalEntityId: 10 });
    const loyalty = await t.app.inject({
      method: 'POST',
      url: apiPaths.internalLoyaltyEvents,
      headers: bearer(service),
      payload: {
        events: [
          { sourceId: 'rental-erase-1', customerId: customer.id, type: 'rental-completed', points: 120 },
        ],
      },
    });
    expect(loyalty.statusCode).toBe(200);
    const other = await signIn(t.app, { email: customer.email, password: TEST_CUSTOMER_PASSWORD });
    const caller = await signedInCaller(t.app, customer.email, TEST_CUSTOMER_PASSWORD);

    const report = await t.app.inject({
      method: 'PUT',
      url: apiPaths.internalDeletionBlockers(customer.id),
      headers: bearer(service),
      payload: { legalEntityId: 10, blockers: [{ kind: 'unpaid_invoice', reference: 'INV-2026-0042' }] },
    });
    expect(report.statusCode).toBe(200);
    const blocked = await t.app.inject({
      method: 'POST',
      url: apiPaths.accountDeletion,
      headers: caller.headers,
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json<ApiErrorBody>()).toMatchObject({
      code: 'deletion_blocked',
      violations: [{ field: 'blockers.10.unpaid_invoice', rule: 'unpaid_invoice' }],
    });
    const seen = await t.app.inject({ url: apiPaths.accountDeletion, headers: caller.headers });
    expect(seen.json<AccountDeletionStatus>()).toEqual({
      blockers: [{ legalEntityId: 10, kind: 'unpaid_invoice', reference: 'INV-2026-0042' }],
      deletion: null,
      graceDays: 30,
    });

    await t.app.inject({
      method: 'PUT',
      url: apiPaths.internalDeletionBlockers(customer.id),
      headers: bearer(service),
      payload: { legalEntityId: 10, blockers: [] },
    });
    const asked = await t.app.inject({
      method: 'POST',
      url: apiPaths.accountDeletion,
      headers: caller.headers,
    });
    expect(asked.statusCode).toBe(201);
    const scheduled = asked.json<AccountDeletionStatus>().deletion!;
    expect(Date.parse(scheduled.scheduledFor) - Date.parse(scheduled.requestedAt)).toBe(30 * DAY);
    expect((await outboxOf(customer.id, 'deletion-scheduled'))[0]!.subject).toMatch(
      /^Dein Roadpass-Konto wird am /,
    );
    // The other session ended; the one that asked goes on.
    expect((await refresh(t.app, other.refreshToken)).ok).toBe(false);
    expect((await t.app.inject({ url: apiPaths.accountDeletion, headers: caller.headers })).statusCode).toBe(
      200,
    );

    const kept = await t.app.inject({
      method: 'DELETE',
      url: apiPaths.accountDeletion,
      headers: caller.headers,
    });
    expect(kept.json<AccountDeletionStatus>().deletion).toBeNull();
    const asked2 = await t.app.inject({
      method: 'POST',
      url: apiPaths.accountDeletion,
      headers: caller.headers,
    });
    expect(asked2.statusCode).toBe(201);
    const day = Date.parse(asked2.json<AccountDeletionStatus>().deletion!.scheduledFor);

    expect(await runDueErasures(deps, new Date(day - 60_000))).toBe(0);
    expect(
      await t.db.selectFrom('customers').select('id').where('id', '=', customer.id).executeTakeFirst(),
    ).toBeDefined();

    expect(await runDueErasures(deps, new Date(day + 60_000))).toBe(1);
    expect(
      await t.db.selectFrom('customers').select('id').where('id', '=', customer.id).executeTakeFirst(),
    ).toBeUndefined();
    for (const table of ['security_events', 'customer_consents', 'loyalty_events', 'outbox'] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('customer_id')
        .where('customer_id', '=', customer.id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const last = await t.db
      .selectFrom('outbox')
      .select(['recipient', 'customer_id'])
      .where('kind', '=', 'deletion-done')
      .execute();
    expect(last).toEqual([{ recipient: customer.email, customer_id: null }]);
    const archived = await t.db.selectFrom('loyalty_ledger_archive').selectAll().execute();
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ points: 120, legal_entity_id: 10 });
    expect(archived[0]!.pseudonym_id).not.toBe(customer.id);
    const counts = await t.db.selectFrom('erased_consent_counts').selectAll().execute();
    expect(counts).toContainEqual(expect.objectContaining({ legal_entity_id: 10, granted: true, count: 1 }));
    // The identity provider no longer has any of the account's sessions or tokens.
    const sessions = await t.db
      .selectFrom('oidc_model_instances')
      .select('kind')
      .where(sql<string>`payload->>'accountId'`, '=', customer.id)
      .execute();
    expect(sessions).toEqual([]);
    // The erased customer's access token is refused at once: erasure ends every session (decision 0031).
    const afterwards = await t.app.inject({ url: apiPaths.accountDeletion, headers: caller.headers });
    expect(afterwards.statusCode).toBe(401);

    // Twice is safe: nothing left to do.
    expect(await runDueErasures(deps, new Date(day + 120_000))).toBe(0);

    const feed = await t.app.inject({ url: apiPaths.internalErasures, headers: bearer(service) });
    expect(feed.statusCode).toBe(200);
    const { erasures, nextCursor } = feed.json<ErasureFeed>();
    expect(erasures.map((e) => e.customerId)).toEqual([customer.id]);
    expect(erasures[0]).toMatchObject({ legalEntityId: 10 });
    const next = await t.app.inject({
      url: `${apiPaths.internalErasures}?after=${nextCursor}`,
      headers: bearer(service),
    });
    expect(next.json<ErasureFeed>()).toEqual({ erasures: [], nextCursor });
  });

  it('erases each due customer once when instances run together, and takes over from an instance that stopped', async () => {
    const now = new Date();
    const due = new Date(now.getTime() - 60_000);
    const together = [
      await createTestCustomer(t.db),
      await createTestCustomer(t.db),
      await createTestCustomer(t.db),
    ];
    // One more, claimed by an instance that sent the last e-mail and then stopped (its lease runs on).
    const stopped = await createTestCustomer(t.db);
    const leased = new Date(now.getTime() + 5 * 60_000);
    await t.db
      .insertInto('account_deletions')
      .values([
        ...together.map((c) => ({ customer_id: c.id, requested_at: due, scheduled_for: due })),
        {
          customer_id: stopped.id,
          requested_at: due,
          scheduled_for: due,
          locked_until: leased,
          last_email_sent_at: due,
        },
      ])
      .execute();
    await deps.sender.sendEmail({
      to: stopped.email,
      kind: 'deletion-done',
      customerId: null,
      subject: 'sent before the instance stopped',
      text: '',
    });

    // On PostgreSQL the second instance has its own connection pool, as another server would.
    const second = t.databaseUrl
      ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', poolSize: 3 })
      : undefined;
    try {
      const counts = await Promise.all([
        runDueErasures(deps, now),
        runDueErasures({ ...deps, db: second ?? t.db }, now),
        runDueErasures(deps, now),
      ]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(3);
    } finally {
      await second?.destroy();
    }
    const ids = [...together, stopped].map((c) => c.id);
    const erased = await t.db
      .selectFrom('erasures')
      .select('customer_id')
      .where('customer_id', 'in', ids)
      .execute();
    expect(erased.map((e) => e.customer_id).sort()).toEqual(together.map((c) => c.id).sort());
    for (const customer of together) {
      const last = await t.db
        .selectFrom('outbox')
        .select('id')
        .where('kind', '=', 'deletion-done')
        .where('recipient', '=', customer.email)
        .execute();
      expect(last, customer.email).toHaveLength(1);
    }

    // The stopped instance's lease holds until it runs out; then the next run (any instance, after a
    // restart) erases the customer, without a second last e-mail.
    expect(await runDueErasures(deps, new Date(leased.getTime() - 1000))).toBe(0);
    expect(await runDueErasures(deps, new Date(leased.getTime() + 1000))).toBe(1);
    expect(await runDueErasures(deps, new Date(leased.getTime() + 2000))).toBe(0);
    const lastOfStopped = await t.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'deletion-done')
      .where('recipient', '=', stopped.email)
      .execute();
    expect(lastOfStopped).toHaveLength(1);
    expect(
      await t.db.selectFrom('customers').select('id').where('id', '=', stopped.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('takes the internal calls only with the service token', async () => {
    const caller = await signedInCaller(t.app, 'demo.at@example.com', 'Demo-2026!');
    const feed = await t.app.inject({ url: apiPaths.internalErasures, headers: caller.headers });
    expect(feed.statusCode).toBe(403);
    const report = await t.app.inject({
      method: 'PUT',
      url: apiPaths.internalDeletionBlockers(caller.uuid),
      headers: caller.headers,
      payload: { legalEntityId: 2, blockers: [] },
    });
    expect(report.statusCode).toBe(403);
    const unknown = await t.app.inject({
      method: 'PUT',
      url: apiPaths.internalDeletionBlockers('00000000-0000-4000-8000-000000000000'),
      headers: bearer(service),
      payload: { legalEntityId: 2, blockers: [] },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
