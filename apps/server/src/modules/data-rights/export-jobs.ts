import { Readable, Writable } from 'node:stream';
import { EXPORT_DOWNLOAD_DAYS, type DataExport, type DataExportStatus } from '@roadpass/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { longDate, type MessageSender, type MessageTexts } from '../messages/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { buildExportZip } from './export-builder.js';
import { accountPageLink } from './links.js';

const DAY_MS = 86_400_000;
/**
 * Bytes per stored chunk of a ZIP: one row is at most this much memory, written or read (64 kB: larger
 * bytea rows grew embedded PGlite's heap, decision 0042).
 */
const CHUNK_BYTES = 64 * 1024;
/** A running export whose instance stopped is taken again after this. */
const LEASE_MS = 10 * 60_000;
const MAX_ATTEMPTS = 3;

export interface ExportDeps {
  db: Db;
  texts: MessageTexts;
  sender: MessageSender;
  publicUrl: string;
}

type ExportRow = {
  id: string;
  state: DataExport['state'];
  progress_percent: number;
  requested_at: Date;
  ready_at: Date | null;
  expires_at: Date | null;
  size_bytes: string | number | null;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toDataExport(row: ExportRow, now: Date): DataExport {
  const expired = row.state === 'ready' && row.expires_at !== null && row.expires_at <= now;
  return {
    id: row.id,
    state: expired ? 'expired' : row.state,
    progressPercent: row.state === 'ready' || expired ? 100 : row.progress_percent,
    requestedAt: new Date(row.requested_at).toISOString(),
    readyAt: iso(row.ready_at),
    expiresAt: iso(row.expires_at),
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
  };
}

async function newestExport(db: Db, customerId: string) {
  return db
    .selectFrom('data_exports')
    .select(['id', 'state', 'progress_percent', 'requested_at', 'ready_at', 'expires_at', 'size_bytes'])
    .where('customer_id', '=', customerId)
    .orderBy('requested_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The customer's newest export and when the next may start (docs/product/data-rights.md#download-my-data). */
export async function exportStatus(db: Db, customerId: string, now: Date): Promise<DataExportStatus> {
  const row = await newestExport(db, customerId);
  const next = row ? new Date(new Date(row.requested_at).getTime() + DAY_MS) : undefined;
  return {
    export: row ? toDataExport(row, now) : null,
    nextAllowedAt: next && next > now ? next.toISOString() : null,
  };
}

export class ExportTooSoon extends Error {
  constructor(readonly nextAllowedAt: Date) {
    super('One export a day');
  }
}

/**
 * Queues an export for the customer: at most one a day (counted from the last request). The check
 * and the insert run under a per-customer advisory lock, so two quick clicks queue one.
 */
export async function requestExport(db: Db, customerId: string, now: Date): Promise<DataExportStatus> {
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`data-export:${customerId}`}))`.execute(tx);
    const last = await tx
      .selectFrom('data_exports')
      .select('requested_at')
      .where('customer_id', '=', customerId)
      .orderBy('requested_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last && new Date(last.requested_at).getTime() + DAY_MS > now.getTime()) {
      throw new ExportTooSoon(new Date(new Date(last.requested_at).getTime() + DAY_MS));
    }
    await tx.insertInto('data_exports').values({ customer_id: customerId, requested_at: now }).execute();
  });
  return exportStatus(db, customerId, now);
}

/** A Writable that stores what it gets as rows of at most CHUNK_BYTES. */
function chunkWriter(db: Db, exportId: string): Writable & { size: () => number } {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let n = 0;
  let total = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const bytes = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await db.insertInto('data_export_chunks').values({ export_id: exportId, n: n++, bytes }).execute();
  };
  const writer = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      total += chunk.length;
      if (pendingBytes < CHUNK_BYTES) return callback();
      flush().then(() => callback(), callback);
    },
    final(callback) {
      flush().then(() => callback(), callback);
    },
  });
  return Object.assign(writer, { size: () => total });
}

/**
 * Takes the oldest waiting export (or one whose instance stopped mid-way) with FOR UPDATE SKIP
 * LOCKED, so each is built by one instance; builds it; marks it ready for 7 days and e-mails the
 * customer. Returns false when nothing was waiting.
 */
export async function runNextExport(deps: ExportDeps, now: Date = new Date()): Promise<boolean> {
  const { db } = deps;
  const job = await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('data_exports')
      .select(['id', 'customer_id', 'attempts'])
      .where((eb) =>
        eb.or([
          eb('state', '=', 'queued'),
          eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('requested_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.attempts >= MAX_ATTEMPTS) {
      await tx.updateTable('data_exports').set({ state: 'failed' }).where('id', '=', row.id).execute();
      return null;
    }
    await tx
      .updateTable('data_exports')
      .set({
        state: 'running',
        attempts: row.attempts + 1,
        progress_percent: 0,
        locked_until: new Date(now.getTime() + LEASE_MS),
      })
      .where('id', '=', row.id)
      .execute();
    await tx.deleteFrom('data_export_chunks').where('export_id', '=', row.id).execute();
    return row;
  });
  if (job === undefined) return false;
  if (job === null) return true;

  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', job.customer_id)
    .executeTakeFirst();
  if (!customer) return true; // erased meanwhile: the job went with the customer
  const out = chunkWriter(db, job.id);
  await buildExportZip(out, {
    db,
    customer,
    texts: deps.texts,
    now,
    onProgress: async (percent) => {
      await db
        .updateTable('data_exports')
        .set({ progress_percent: percent })
        .where('id', '=', job.id)
        .execute();
    },
  });
  const expiresAt = new Date(now.getTime() + EXPORT_DOWNLOAD_DAYS * DAY_MS);
  await db
    .updateTable('data_exports')
    .set({
      state: 'ready',
      progress_percent: 100,
      ready_at: now,
      expires_at: expiresAt,
      size_bytes: out.size(),
      locked_until: null,
    })
    .where('id', '=', job.id)
    .execute();
  const date = longDate(customer.language, expiresAt);
  const values = {
    name: customer.first_name,
    date,
    link: accountPageLink(deps.publicUrl, customer, 'privacy'),
  };
  await deps.sender.sendEmail({
    to: customer.email,
    kind: 'export-ready',
    customerId: customer.id,
    subject: deps.texts.render(customer.language, 'export-ready.subject', values),
    text: deps.texts.render(customer.language, 'export-ready.body', values),
  });
  return true;
}

/** Runs every waiting export, one after the other. */
export async function runWaitingExports(
  deps: ExportDeps,
  now: () => Date = () => new Date(),
): Promise<number> {
  let count = 0;
  while (await runNextExport(deps, now())) count += 1;
  return count;
}

/** Drops the ZIPs of exports older than their 7 days (the rows stay for the once-a-day rule). */
export async function dropExpiredExports(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('data_export_chunks')
    .where('export_id', 'in', (eb) =>
      eb.selectFrom('data_exports').select('id').where('state', '=', 'ready').where('expires_at', '<=', now),
    )
    .execute();
}

/**
 * The customer's ready export as a byte stream, chunk by chunk, or undefined when there is none
 * (not ready, expired, or someone else's: the query takes the customer's id only).
 */
export async function readyExportFile(
  db: Db,
  customerId: string,
  now: Date,
): Promise<{ id: string; size: number; readyAt: Date; stream: Readable } | undefined> {
  const row = await db
    .selectFrom('data_exports')
    .select(['id', 'size_bytes', 'ready_at'])
    .where('customer_id', '=', customerId)
    .where('state', '=', 'ready')
    .where('expires_at', '>', now)
    .orderBy('requested_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.ready_at === null) return undefined;
  const chunks = await db
    .selectFrom('data_export_chunks')
    .select(({ fn }) => fn.count<number>('n').as('count'))
    .where('export_id', '=', row.id)
    .executeTakeFirstOrThrow();
  const count = Number(chunks.count);
  if (count === 0 && Number(row.size_bytes) > 0) return undefined;
  const stream = Readable.from(
    (async function* () {
      for (let n = 0; n < count; n += 1) {
        const chunk = await db
          .selectFrom('data_export_chunks')
          .select('bytes')
          .where('export_id', '=', row.id)
          .where('n', '=', n)
          .executeTakeFirstOrThrow();
        yield Buffer.from(chunk.bytes);
      }
    })(),
    { objectMode: false },
  );
  return { id: row.id, size: Number(row.size_bytes), readyAt: new Date(row.ready_at), stream };
}

/** Records the download in the customer's security activity. */
export async function recordDownload(db: Db, customerId: string, exportId: string): Promise<void> {
  await recordSecurityEvent(db, customerId, 'data_downloaded', { export: exportId });
}
